"""API for cost lines and budgets, with the pages' permissions: strangers get a 404."""

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
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
from apps.catalogue.resolve import Catalogue
from apps.core.fragments import cached_fragment
from apps.projects.api import RefusalsAsAnswers
from apps.projects.conditional import FROZEN_RESPONSE
from apps.projects.selectors import project_for_user, scenario_for_user

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
        responses={201: CostLineSerializer, 409: FROZEN_RESPONSE},
    ),
    retrieve=extend_schema(summary="Read a cost line"),
    update=extend_schema(
        summary="Replace a cost line (a new version of the scenario)",
        responses={200: CostLineSerializer, 409: FROZEN_RESPONSE},
    ),
    partial_update=extend_schema(
        summary="Change some of a cost line's fields (a new version of the scenario)",
        responses={200: CostLineSerializer, 409: FROZEN_RESPONSE},
    ),
    destroy=extend_schema(
        summary="Delete a cost line (a new version of the scenario)",
        responses={204: None, 409: FROZEN_RESPONSE},
    ),
)
class CostLineViewSet(RefusalsAsAnswers, viewsets.ModelViewSet):
    """Cost lines of one scenario, which the project's owner and collaborators may all change.

    Every change saves a new version of the scenario (its ETag changes); frozen projects
    answer 409.
    """

    queryset = CostLine.objects.all()
    serializer_class = CostLineSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None
    lookup_url_kwarg = "line_id"
    lookup_value_converter = "int"

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

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        context["scenario"] = getattr(self, "scenario", None)
        return context

    def perform_create(self, serializer: CostLineSerializer) -> None:
        serializer.instance = services.cost_line_create(
            scenario=self.scenario, fields=serializer.validated_data, user=self.request.user
        )

    def perform_update(self, serializer: CostLineSerializer) -> None:
        serializer.instance = services.cost_line_update(
            line=serializer.instance, fields=serializer.validated_data, user=self.request.user
        )

    def perform_destroy(self, instance: CostLine) -> None:
        services.cost_line_delete(line=instance, user=self.request.user)


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
            return {"unavailable": str(error)}
        return {"budget": dict(BudgetSerializer(drawn_up).data)}

    return cached_fragment(budget_cache_key(scenario, lines, catalogue), draw)


def budget_response(scenario) -> Response:
    payload = budget_payload(scenario)
    if "unavailable" in payload:
        raise BudgetNotDrawnUp(payload["unavailable"])
    return Response(payload["budget"])


@extend_schema(
    responses={200: BudgetSerializer, 409: UNAVAILABLE},
    summary="A scenario's budget: every line per fiscal year, totals, memo and summary",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def scenario_budget_view(request: Request, scenario_id: int) -> Response:
    return budget_response(scenario_for_user(request.user, scenario_id))


@extend_schema(
    responses={200: BudgetSerializer, 409: UNAVAILABLE},
    summary="A project's budget: its baseline scenario's",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def project_budget_view(request: Request, project_id: int) -> Response:
    baseline = baseline_of(project_for_user(request.user, project_id))
    if baseline is None:
        raise Http404("This project has no baseline scenario.")
    return budget_response(baseline)
