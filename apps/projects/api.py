"""API for projects and their scenarios, with the pages' permissions: strangers get a 404.

The serializers are in apps.projects.serializers.
"""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.estimate import estimate_response
from apps.api.serializers import EstimateResponseSerializer
from apps.estimates import EstimateInputError
from apps.projects import services
from apps.projects.conditional import (
    ETAG_HEADER,
    FROZEN_RESPONSE,
    ETagMixin,
    PreconditionFailed,
    project_etag,
    scenario_etag,
    write_schemas,
)
from apps.projects.currency import project_exchange
from apps.projects.models import (
    BaselineNeeded,
    Project,
    ProjectFrozen,
    Scenario,
    StatusChangeRefused,
)
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.selectors import can_create_projects, project_for_user, scenario_for_user
from apps.projects.serializers import (
    ProjectCreateSerializer,
    ProjectSerializer,
    ScenarioSerializer,
)
from apps.words.messages import error_texts

User = get_user_model()


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The project's status does not allow this.")
    default_code = "conflict"


class RefusalsAsAnswers:
    """For a DRF view: a write to a frozen project, a status change the review workflow does
    not allow, or deleting a baseline without naming the next answers 409 Conflict; a save
    that lost the race against another save of the same scenario 412 Precondition Failed.
    Each with the reason."""

    def handle_exception(self, exc):
        if isinstance(exc, ProjectFrozen | StatusChangeRefused | BaselineNeeded):
            exc = Conflict(str(exc))
        elif isinstance(exc, services.ScenarioConflict):
            exc = PreconditionFailed()
        return super().handle_exception(exc)


NEW_BASELINE = OpenApiParameter(
    "new_baseline",
    # What int_or_none reads: a whole number of at most 18 digits.
    type={"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999},
    location=OpenApiParameter.QUERY,
    required=False,
    description="When deleting the baseline: the id of the project's scenario that becomes "
    "the baseline in its place.",
)


def int_or_none(text: str | None) -> int | None:
    """A query parameter's whole number; None when absent or not one."""
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 19 else None


class CanCreateProjects(BasePermission):
    message = gettext_lazy("Only managers plan projects.")

    def has_permission(self, request: Request, view) -> bool:
        return view.action != "create" or can_create_projects(request.user)


class OwnerChangesProject(BasePermission):
    message = gettext_lazy(
        "Only the project's owner changes its details and collaborators or deletes it."
    )

    def has_object_permission(self, request: Request, view, project: Project) -> bool:
        return request.method in SAFE_METHODS or project.owner_id == request.user.pk


def other_than(owner, users: list) -> list:
    """Collaborators never include the owner, who has every right already."""
    return [user for user in users if user.pk != owner.pk]


@extend_schema_view(
    list=extend_schema(summary="List your projects and those shared with you"),
    create=extend_schema(
        summary="Create a project and its first scenario, the baseline, from a preset",
        request=ProjectCreateSerializer,
        responses={201: ProjectSerializer},
        parameters=[ETAG_HEADER],
    ),
    retrieve=extend_schema(summary="Read a project", parameters=[ETAG_HEADER]),
    **write_schemas(
        ProjectSerializer,
        required=False,
        update="Replace a project's details and collaborators (owner only)",
        partial_update="Change some of a project's details (owner only)",
        destroy="Delete a project and its scenarios (owner only)",
    ),
)
class ProjectViewSet(RefusalsAsAnswers, ETagMixin, viewsets.ModelViewSet):
    """Projects the signed-in user owns or collaborates on; anyone else's are 404.

    Submitted and cleared projects are frozen: changing or deleting one answers 409.
    """

    queryset = Project.objects.all()
    serializer_class = ProjectSerializer
    permission_classes = (IsAuthenticated, CanCreateProjects, OwnerChangesProject)
    pagination_class = None
    lookup_value_converter = "id"

    def get_queryset(self):
        return (
            Project.objects.for_user(self.request.user)
            .select_related("owner")
            .prefetch_related(
                Prefetch("collaborators", queryset=User.objects.order_by("username")),
                Prefetch("scenarios", queryset=Scenario.objects.only("project", "inputs")),
            )
        )

    def get_serializer_class(self):
        return ProjectCreateSerializer if self.action == "create" else ProjectSerializer

    def perform_create(self, serializer: ProjectCreateSerializer) -> None:
        fields = dict(serializer.validated_data)
        preset = PRESETS_BY_SLUG[fields.pop("preset")]
        collaborators = other_than(self.request.user, fields.pop("collaborators", []))
        serializer.instance = self.shown = services.project_create(
            owner=self.request.user, fields=fields, collaborators=collaborators, preset=preset
        )

    def etag(self, project: Project) -> str:
        return project_etag(project)

    def perform_update(self, serializer: ProjectSerializer) -> None:
        project, fields = serializer.instance, dict(serializer.validated_data)
        collaborators = fields.pop("collaborators", None)
        if collaborators is None:
            collaborators = list(project.collaborators.all())
        services.project_update(
            project=project, fields=fields, collaborators=other_than(project.owner, collaborators)
        )

    def perform_destroy(self, instance: Project) -> None:
        services.project_delete(project=instance)


@extend_schema_view(
    list=extend_schema(summary="List a project's scenarios, the baseline first"),
    create=extend_schema(
        summary="Add a scenario to a project",
        parameters=[ETAG_HEADER],
        responses={201: ScenarioSerializer, 409: FROZEN_RESPONSE},
    ),
    retrieve=extend_schema(summary="Read a scenario and its inputs", parameters=[ETAG_HEADER]),
    **write_schemas(
        ScenarioSerializer,
        required=True,
        update="Replace a scenario's name and inputs",
        partial_update="Change a scenario's name, inputs or baseline status",
        destroy="Delete a scenario",
        description="Deleting the baseline of a project with other scenarios needs "
        "`new_baseline`, the one that takes its place (409 without it).",
        parameters=[NEW_BASELINE],
    ),
)
class ScenarioViewSet(RefusalsAsAnswers, ETagMixin, viewsets.ModelViewSet):
    """Scenarios of one project, which the owner and collaborators may all change.

    A scenario's ETag names its version: a change or deletion must send it back as If-Match
    (428 without it, 412 when someone saved since). Frozen projects answer 409.
    """

    queryset = Scenario.objects.all()
    serializer_class = ScenarioSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None
    lookup_value_converter = "id"
    if_match_required = True

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        # Before the body is read, so a stranger learns nothing but 404 whatever they send.
        self.project = project_for_user(request.user, kwargs["project_id"])

    def get_queryset(self):
        return self.project.scenarios.all()

    def perform_create(self, serializer: ScenarioSerializer) -> None:
        data = serializer.validated_data
        serializer.instance = self.shown = services.scenario_create(
            project=self.project,
            name=data["name"],
            inputs=data["inputs"],
            is_baseline=data.get("is_baseline", False),
            user=self.request.user,
            timing=data,
        )

    @transaction.atomic
    def perform_update(self, serializer: ScenarioSerializer) -> None:
        scenario, data = serializer.instance, serializer.validated_data
        services.scenario_update(
            scenario=scenario,
            name=data.get("name", scenario.name),
            inputs=data.get("inputs", scenario.inputs),
            user=self.request.user,
            expected_version=scenario.version,  # the version If-Match named
            timing=data,
        )
        if data.get("is_baseline") and not scenario.is_baseline:
            services.scenario_set_baseline(scenario=scenario)

    def perform_destroy(self, instance: Scenario) -> None:
        given = self.request.query_params.get("new_baseline")
        new_baseline_id = int_or_none(given)
        if given is not None and new_baseline_id is None:
            raise ValidationError(
                {"new_baseline": [gettext_lazy("Give the id of a scenario of this project.")]}
            )
        services.scenario_delete(
            scenario=instance,
            expected_version=instance.version,
            new_baseline=self.project.scenarios.filter(pk=new_baseline_id).first(),
        )

    def etag(self, scenario: Scenario) -> str:
        return scenario_etag(scenario)


@extend_schema(
    responses={200: EstimateResponseSerializer},
    summary="Estimate a scenario: POST /api/v1/estimate/'s response for the scenario's inputs",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def scenario_estimate(request: Request, scenario_id: int) -> Response:
    scenario = scenario_for_user(request.user, scenario_id)
    try:
        exchange = project_exchange(scenario.project)
    except EstimateInputError as error:
        raise ValidationError(error_texts(error.errors)) from None
    return Response(estimate_response(scenario.inputs, exchange))
