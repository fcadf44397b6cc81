"""API for cost lines and budgets, with the pages' permissions: strangers get a 404."""

from django.db import connection
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.schema import error_response
from apps.budget import services
from apps.budget.models import CostLine
from apps.budget.selectors import (
    BudgetUnavailable,
    baseline_of,
    budget_cache_key,
    cost_lines_of,
    scenario_budget,
)
from apps.budget.serializers import BudgetSerializer, CostLineSerializer
from apps.catalogue.snapshot import Catalogue
from apps.core.fragments import cached_fragment, fragment_key
from apps.projects.api import RefusalsAsAnswers
from apps.projects.conditional import (
    ETAG_HEADER,
    FROZEN_RESPONSE,
    ETagMixin,
    cost_line_etag,
    write_schemas,
)
from apps.projects.models import Project, Scenario
from apps.projects.selectors import is_member_of, project_for_user, scenario_for_user

UNAVAILABLE = error_response(
    "The budget cannot be drawn up: the saved inputs no longer fit the catalogue, or the "
    "planning period does not (the detail says what)."
)


class BudgetNotDrawnUp(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "budget_unavailable"


@extend_schema_view(
    list=extend_schema(summary="List a scenario's cost lines, in the budget table's order"),
    create=extend_schema(
        summary="Add a cost line to a scenario (a new version of the scenario)",
        parameters=[ETAG_HEADER],
        responses={201: CostLineSerializer, 409: FROZEN_RESPONSE},
    ),
    retrieve=extend_schema(summary="Read a cost line", parameters=[ETAG_HEADER]),
    **write_schemas(
        CostLineSerializer,
        required=True,
        update="Replace a cost line (a new version of the scenario)",
        partial_update="Change some of a cost line's fields (a new version of the scenario)",
        destroy="Delete a cost line (a new version of the scenario)",
    ),
)
class CostLineViewSet(RefusalsAsAnswers, ETagMixin, viewsets.ModelViewSet):
    """Cost lines of one scenario, which the project's owner and collaborators may all change.

    Every change saves a new version of the scenario. A line's ETag names that version: a
    change or deletion must send it back as If-Match (428 without it, 412 when the scenario
    was saved since, a change to another of its lines included). Frozen projects answer 409.
    """

    queryset = CostLine.objects.all()
    serializer_class = CostLineSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None
    lookup_url_kwarg = "line_id"
    lookup_value_converter = "id"
    if_match_required = True

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        # Before the body is read, so a stranger learns nothing but 404 whatever they send.
        self.scenario = scenario_for_user(request.user, kwargs["scenario_id"])

    def get_queryset(self):
        return CostLine.objects.filter(scenario=self.scenario).order_by("kind", "name", "pk")

    def get_object(self) -> CostLine:
        line = super().get_object()
        line.scenario = self.scenario  # with its project, as fetched for this user
        return line

    def etag(self, line: CostLine) -> str:
        return cost_line_etag(line.pk, self.scenario)

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        context["scenario"] = getattr(self, "scenario", None)
        return context

    def perform_create(self, serializer: CostLineSerializer) -> None:
        serializer.instance = self.shown = services.cost_line_create(
            scenario=self.scenario, fields=serializer.validated_data, user=self.request.user
        )

    def perform_update(self, serializer: CostLineSerializer) -> None:
        # The version If-Match named, checked again under the scenario's lock when it is saved.
        serializer.instance = services.cost_line_update(
            line=serializer.instance,
            fields=serializer.validated_data,
            user=self.request.user,
            expected_version=self.scenario.version,
        )

    def perform_destroy(self, instance: CostLine) -> None:
        services.cost_line_delete(
            line=instance, user=self.request.user, expected_version=self.scenario.version
        )


def budget_payload(scenario) -> dict:
    """The budget's JSON (or why it cannot be drawn up), from the cache while nothing it is
    drawn from has changed: one query for the cost lines, then a cache read (see
    `budget_cache_key`)."""
    catalogue = Catalogue.load()
    lines = cost_lines_of(scenario)

    def draw() -> dict:
        try:
            drawn_up = scenario_budget(scenario, catalogue=catalogue, lines=lines)
        except BudgetUnavailable as error:
            return {"unavailable": error.reason()}
        return {"budget": dict(BudgetSerializer(drawn_up).data)}

    return cached_fragment(budget_cache_key(scenario, lines, catalogue), draw)


def budget_response(scenario) -> Response:
    payload = budget_payload(scenario)
    if "unavailable" in payload:
        raise BudgetNotDrawnUp(payload["unavailable"])
    return Response(payload["budget"])


_STAMP_SQL = (
    f"SELECT s.version, s.updated_at, s.project_id, p.owner_id, p.updated_at"
    f" FROM {Scenario._meta.db_table} s JOIN {Project._meta.db_table} p ON p.id = s.project_id"
    f" WHERE s.id = %s"
)


def _stamp(user, scenario_id: int) -> list | None:
    """What says whether a scenario's budget may have changed, read in one light query (no
    inputs decoded): its version and when it and its project were last saved (every change of
    inputs, timing, cost lines or project settings saves one of them; see apps.budget.wiring),
    with the month (a defaulted period starts from it). None when the user may not see it."""
    # Raw SQL: this runs on every request of a hot endpoint, and the ORM's compilation of it
    # cost more than the query itself (profiled); the tables are the models' own.
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_SQL, [scenario_id])
        row = cursor.fetchone()
    if row is None:
        return None
    version, updated, project_id, owner_id, project_updated = row
    if not is_member_of(user, owner_id=owner_id, project_id=project_id):
        return None
    month = timezone.localdate().strftime("%Y-%m")
    return [scenario_id, version, str(updated), str(project_updated), month]


def scenario_budget_http(request: Request, scenario_id: int) -> Response | HttpResponse:
    """The scenario's budget; its JSON bytes straight from the cache while nothing it is drawn
    from has changed (one light query and a cache read), else drawn up and rendered."""
    stamp = _stamp(request.user, scenario_id)
    if stamp is None:
        raise Http404(gettext("No scenario of yours has this number."))
    if request.accepted_renderer.format != "json":  # the browsable API: the usual way
        return budget_response(scenario_for_user(request.user, scenario_id))
    key = fragment_key("budget-json", *stamp, Catalogue.load().digest)

    def render() -> dict:
        payload = budget_payload(scenario_for_user(request.user, scenario_id))
        if "unavailable" in payload:
            return payload
        return {"json": JSONRenderer().render(payload["budget"])}

    answer = cached_fragment(key, render)
    if "unavailable" in answer:
        raise BudgetNotDrawnUp(answer["unavailable"])
    return HttpResponse(answer["json"], content_type="application/json")


@extend_schema(
    responses={200: BudgetSerializer, 409: UNAVAILABLE},
    summary="A scenario's budget: every line per fiscal year, totals, memo and summary",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def scenario_budget_view(request: Request, scenario_id: int) -> Response:
    return scenario_budget_http(request, scenario_id)


@extend_schema(
    responses={200: BudgetSerializer, 409: UNAVAILABLE},
    summary="A project's budget: its baseline scenario's",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def project_budget_view(request: Request, project_id: int) -> Response:
    baseline = baseline_of(project_for_user(request.user, project_id))
    if baseline is None:
        raise Http404(gettext("This project has no baseline scenario."))
    return budget_response(baseline)
