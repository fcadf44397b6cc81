"""API for share links: create one for a scenario or a submitted project, list and revoke them."""

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.schema import error_response, validation_error_response
from apps.api.serializers import StrictSerializer
from apps.projects.models import ProjectSnapshot, ScenarioVersion
from apps.projects.selectors import project_for_user, scenario_for_user
from apps.sharing.models import (
    DEFAULT_EXPIRY_DAYS,
    EXPIRY_DAYS_VALIDATORS,
    MAX_EXPIRY_DAYS,
    ShareLink,
)
from apps.sharing.selectors import latest_snapshot, latest_version
from apps.sharing.services import share_link_create, share_link_revoke

TAG = "share links"


class NothingToShare(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "nothing_to_share"


class ShareLinkCreateSerializer(StrictSerializer):
    """A label for the new link, and the days until it expires."""

    label = serializers.CharField(
        max_length=ShareLink._meta.get_field("label").max_length,
        help_text=ShareLink._meta.get_field("label").help_text,
    )
    expires_in_days = serializers.IntegerField(
        default=DEFAULT_EXPIRY_DAYS,
        validators=EXPIRY_DAYS_VALIDATORS,
        help_text=f"Days until the link stops working, 1–{MAX_EXPIRY_DAYS} "
        f"[{DEFAULT_EXPIRY_DAYS}].",
    )


class ShareLinkCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField(
        help_text="The link, shown in this response only: only a hash of its token is kept."
    )
    expires_at = serializers.DateTimeField()


class ShareLinkSerializer(serializers.ModelSerializer):
    scenario = serializers.IntegerField(
        source="scenario_version.scenario_id",
        allow_null=True,
        read_only=True,
        help_text="The scenario a scenario link shows; null for a project's snapshot.",
    )
    version = serializers.IntegerField(
        source="scenario_version.number",
        allow_null=True,
        read_only=True,
        help_text="The number of the scenario's version the link shows.",
    )
    snapshot = serializers.IntegerField(
        source="snapshot.number",
        allow_null=True,
        read_only=True,
        help_text="The number of the project's snapshot the link shows.",
    )
    created_by = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="The username of who created the link; null once that account is deleted.",
    )
    is_active = serializers.BooleanField(
        read_only=True, help_text="False once expired or revoked: the link then answers 404."
    )

    class Meta:
        model = ShareLink
        fields = (
            "id", "label", "project", "scenario", "version", "snapshot", "created_by",
            "created_at", "expires_at", "revoked_at", "view_count", "last_viewed_at", "is_active",
        )  # fmt: skip
        read_only_fields = fields


def _created(request: Request, subject: ScenarioVersion | ProjectSnapshot) -> Response:
    body = ShareLinkCreateSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    link, token = share_link_create(subject=subject, user=request.user, **body.validated_data)
    created = {
        "id": link.pk,
        "url": request.build_absolute_uri(reverse("shared", args=[token])),
        "expires_at": link.expires_at,
    }
    return Response(ShareLinkCreatedSerializer(created).data, status=status.HTTP_201_CREATED)


def _shares(*, summary: str, conflict: str):
    """A signed-in POST that shares something as a read-only link, with its schema: `conflict`
    says when there is nothing to share yet (409)."""
    responses = {
        201: ShareLinkCreatedSerializer,
        400: validation_error_response("A missing label, or an expiry outside 1–90 days."),
        404: error_response("Not found, or not your project."),
        409: error_response(conflict),
    }
    schema = extend_schema(
        request=ShareLinkCreateSerializer, responses=responses, summary=summary, tags=[TAG]
    )
    return lambda view: schema(api_view(["POST"])(permission_classes([IsAuthenticated])(view)))


@_shares(
    summary="Share a scenario's latest version as a read-only link",
    conflict="The scenario has never been saved as a version.",
)
def scenario_share_link_create(request: Request, scenario_id: int) -> Response:
    scenario = scenario_for_user(request.user, scenario_id)
    version = latest_version(scenario)
    if version is None:
        raise NothingToShare(gettext("Save the scenario once before sharing it."))
    return _created(request, version)


@_shares(
    summary="Share a submitted project's latest snapshot as a read-only link",
    conflict="The project is not submitted, so has no snapshot.",
)
def project_share_link_create(request: Request, project_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    snapshot = latest_snapshot(project)
    if snapshot is None:
        raise NothingToShare(
            gettext("Only a submitted project can be shared: submit it for review first.")
        )
    return _created(request, snapshot)


@extend_schema_view(
    list=extend_schema(
        summary="List the share links of your projects (without their tokens)",
        tags=[TAG],
    ),
    destroy=extend_schema(
        summary="Revoke a share link: it answers 404 from the next request on",
        responses={
            204: None,
            404: error_response("Not found, or not a link to your project."),
        },
        tags=[TAG],
    ),
)
class ShareLinkViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Links to projects the signed-in user owns or collaborates on; anyone else's are 404."""

    queryset = ShareLink.objects.all()
    serializer_class = ShareLinkSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None
    lookup_value_converter = "id"

    def get_queryset(self):
        return ShareLink.objects.for_user(self.request.user).with_subject()

    def perform_destroy(self, instance: ShareLink) -> None:
        share_link_revoke(link=instance, user=self.request.user)
