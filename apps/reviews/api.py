"""API of the review, with the pages' rules: managers submit their projects, the front office
sees every project in review and returns or clears it, and both comment. Anyone else gets 404;
a manager who tries to return or clear gets 403; a move the workflow does not allow gets 409."""

from collections.abc import Callable

from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.api.strict import StrictTypes
from apps.projects.api import RefusalsAsAnswers
from apps.projects.conditional import ERROR
from apps.projects.models import Project, ReviewComment, StatusChange
from apps.projects.selectors import project_for_user
from apps.projects.version_diff import total_cost
from apps.projects.versions import version_estimate
from apps.reviews import services
from apps.reviews.forms import SORT_LABELS, STATUSES
from apps.reviews.selectors import (
    can_review,
    fiscal_year_sort,
    project_for_review,
    review_fiscal_years,
    review_queue,
    with_latest_submission,
)

NOT_FOUND = OpenApiResponse(ERROR, description="Not your project, and not in review for you.")
REFUSED = OpenApiResponse(ERROR, description="The project's status does not allow this move.")
REVIEWERS_ONLY = OpenApiResponse(ERROR, description="Only the front office (or a superuser) may.")


class StatusChangeSerializer(serializers.ModelSerializer):
    changed_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = StatusChange
        fields = ("from_status", "to_status", "comment", "changed_by", "changed_at")


class SubmittedScenarioSerializer(serializers.Serializer):
    scenario = serializers.IntegerField(source="scenario_id")
    version = serializers.IntegerField(source="number")
    name = serializers.CharField()
    total_cost = serializers.SerializerMethodField(
        help_text="Training plus inference over the horizon, as worked out when it was saved."
    )

    @extend_schema_field(serializers.DecimalField(max_digits=20, decimal_places=2))
    def get_total_cost(self, version) -> str:
        return f"{total_cost(version_estimate(version).result):.2f}"


class FiscalYearTotalSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='"FY2026" or "2025/26", by the project\'s rule.')
    start = serializers.DateField()
    total = serializers.DecimalField(max_digits=20, decimal_places=2)


class ReviewSerializer(serializers.ModelSerializer):
    """A project in review with its latest submission (from `with_latest_submission`)."""

    owner = serializers.SlugRelatedField(slug_field="username", read_only=True)
    submitted_at = serializers.DateTimeField(help_text="When it was last submitted.")
    submission = serializers.IntegerField(help_text="How many times it has been submitted.")
    total_cost = serializers.DecimalField(
        max_digits=20,
        decimal_places=2,
        allow_null=True,
        help_text="The latest submission's budget total: its baseline scenario's over the "
        "planning period (null when it had none). Scenarios are alternatives: not added up.",
    )
    fiscal_years = serializers.SerializerMethodField(
        help_text="The latest submission's budget total per fiscal year, oldest first (empty "
        "when it had no budget)."
    )
    url = serializers.HyperlinkedIdentityField(
        view_name="api:review-detail", lookup_url_kwarg="project_id"
    )

    class Meta:
        model = Project
        fields = (
            "id", "title", "unit", "owner", "classification", "status", "currency",
            "submitted_at", "submission", "total_cost", "fiscal_years", "url",
        )  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(FiscalYearTotalSerializer(many=True))
    def get_fiscal_years(self, project: Project) -> list[dict]:
        years = project.fiscal_year_totals or {}
        return [
            {"label": label, "start": year["start"], "total": year["total"]}
            for label, year in sorted(years.items(), key=lambda item: item[1]["start"])
        ]


class ReviewDetailSerializer(ReviewSerializer):
    scenarios = serializers.SerializerMethodField(
        help_text="The scenario versions of the latest submission, the baseline first."
    )
    history = StatusChangeSerializer(
        source="status_changes", many=True, read_only=True, help_text="Every status change."
    )
    comments_url = serializers.HyperlinkedIdentityField(
        view_name="api:project-comments", lookup_url_kwarg="project_id"
    )

    class Meta(ReviewSerializer.Meta):
        fields = (*ReviewSerializer.Meta.fields, "scenarios", "history", "comments_url")
        read_only_fields = fields

    @extend_schema_field(SubmittedScenarioSerializer(many=True))
    def get_scenarios(self, project: Project) -> list[dict]:
        snapshot = project.snapshots.order_by("-number").first()
        if snapshot is None:
            return []
        versions = snapshot.scenario_versions.order_by("-scenario__is_baseline", "name", "pk")
        return SubmittedScenarioSerializer(versions, many=True).data


def review_detail_data(request: Request, project: Project) -> dict:
    project = with_latest_submission(Project.objects.filter(pk=project.pk)).get()
    return ReviewDetailSerializer(project, context={"request": request}).data


class ReviewQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=STATUSES, default="submitted", help_text="What awaits review unless told."
    )
    unit = serializers.CharField(required=False, default="", help_text="The exact unit.")
    submitted_from = serializers.DateField(
        required=False, default=None, help_text="Last submitted on or after this day (UTC)."
    )
    submitted_to = serializers.DateField(
        required=False, default=None, help_text="Last submitted on or before this day (UTC)."
    )
    sort = serializers.CharField(
        default="submitted",
        help_text=f"One of {', '.join(SORT_LABELS)}; or a fiscal year's budget total: "
        '"-fy:FY2026" highest first, "fy:FY2026" lowest first (a label of a submission in '
        "review).",
    )

    def validate_sort(self, sort: str) -> str:
        if sort in SORT_LABELS:
            return sort
        by_year = fiscal_year_sort(sort)
        if by_year is None or by_year[0] not in review_fiscal_years():
            raise serializers.ValidationError(
                gettext(
                    "Sort by one of %(sorts)s, or by a fiscal year in review "
                    '("-fy:FY2026" or "fy:FY2026").'
                )
                % {"sorts": ", ".join(SORT_LABELS)}
            )
        return sort


class ReturnSerializer(StrictTypes, serializers.Serializer):
    comment = serializers.CharField(
        max_length=5000, help_text="Required: what needs to change; the managers see it."
    )


class ClearSerializer(StrictTypes, serializers.Serializer):
    comment = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class CommentSerializer(StrictTypes, serializers.ModelSerializer):
    author = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = ReviewComment
        fields = ("id", "author", "body", "created_at")
        extra_kwargs = {"body": {"max_length": 5000}}


class ReviewView(RefusalsAsAnswers, APIView):
    permission_classes = (IsAuthenticated,)

    def check_reviewer(self, request: Request) -> None:
        if not can_review(request.user):
            raise PermissionDenied(gettext("Only the front office reviews workplans."))


class ReviewListView(ReviewView):
    @extend_schema(
        summary="The review queue: projects in review, filtered and sorted (front office only)",
        parameters=[ReviewQuerySerializer],
        responses={200: ReviewSerializer(many=True), 403: REVIEWERS_ONLY},
        tags=["reviews"],
    )
    def get(self, request: Request) -> Response:
        self.check_reviewer(request)
        # A plain dict, not the QueryDict: a parameter given empty ("?sort=") is then refused as
        # its schema says, instead of taken as left out.
        query = ReviewQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        filters = dict(query.validated_data)
        if filters["status"] == "all":
            filters["status"] = ""
        projects = review_queue(**filters)
        return Response(ReviewSerializer(projects, many=True, context={"request": request}).data)


class ReviewDetailView(ReviewView):
    @extend_schema(
        summary="A project's review: its latest submission and status history",
        responses={200: ReviewDetailSerializer, 404: NOT_FOUND},
        tags=["reviews"],
    )
    def get(self, request: Request, project_id: int) -> Response:
        project = project_for_review(request.user, project_id)
        return Response(review_detail_data(request, project))


class ProjectSubmitView(ReviewView):
    @extend_schema(
        summary="Submit a project for review: freeze its scenarios as the next submission",
        request=None,
        responses={200: ReviewDetailSerializer, 404: NOT_FOUND, 409: REFUSED},
        tags=["reviews"],
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = project_for_user(request.user, project_id)
        services.project_submit(project=project, user=request.user)
        return Response(review_detail_data(request, project))


class StatusChangeView(ReviewView):
    # A front office's move of a project in review: `change` with the body's comment.

    body_class: type[serializers.Serializer]
    change: Callable[..., object]  # a staticmethod of apps.reviews.services

    def post(self, request: Request, project_id: int) -> Response:
        project = project_for_review(request.user, project_id)
        self.check_reviewer(request)
        body = self.body_class(data=request.data)
        body.is_valid(raise_exception=True)
        self.change(project=project, user=request.user, comment=body.validated_data["comment"])
        return Response(review_detail_data(request, project))


def _status_change_schema(summary: str, description: str, body_class: type[serializers.Serializer]):
    return extend_schema_view(
        post=extend_schema(
            summary=summary,
            description=description,
            request=body_class,
            responses={
                200: ReviewDetailSerializer,
                403: REVIEWERS_ONLY,
                404: NOT_FOUND,
                409: REFUSED,
            },
            tags=["reviews"],
        )
    )


@_status_change_schema(
    "Return a submitted project to its managers for changes (front office only)",
    "The managers can change the project and submit it again; the comment (required) says why.",
    ReturnSerializer,
)
class ProjectReturnView(StatusChangeView):
    body_class = ReturnSerializer
    change = staticmethod(services.project_return)


@_status_change_schema(
    "Clear a submitted project: the review is done (front office only)",
    "The project can no longer change; the comment is optional.",
    ClearSerializer,
)
class ProjectClearView(StatusChangeView):
    body_class = ClearSerializer
    change = staticmethod(services.project_clear)


class ProjectCommentsView(ReviewView):
    @extend_schema(
        summary="The comments on a project in review, oldest first",
        responses={200: CommentSerializer(many=True), 404: NOT_FOUND},
        tags=["reviews"],
    )
    def get(self, request: Request, project_id: int) -> Response:
        project = project_for_review(request.user, project_id)
        comments = project.comments.select_related("author")
        return Response(CommentSerializer(comments, many=True).data)

    @extend_schema(
        summary="Comment on a project in review (front office, owner or collaborators)",
        request=CommentSerializer,
        responses={201: CommentSerializer, 404: NOT_FOUND},
        tags=["reviews"],
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = project_for_review(request.user, project_id)
        body = CommentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        comment = services.comment_create(
            project=project, author=request.user, body=body.validated_data["body"]
        )
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)
