"""Sweep API, with the scenario pages' permissions: strangers get a 404, whatever they send."""

import dataclasses

from django.http import StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.errors import nest_errors
from apps.api.schema import error_response
from apps.core.api_pages import page_of, page_parameters
from apps.projects.selectors import scenario_for_user
from apps.sweeps import background, services
from apps.sweeps.allowance import SweepLimitReached
from apps.sweeps.definition import DefinitionError
from apps.sweeps.export import csv_pieces
from apps.sweeps.metrics import metrics_in
from apps.sweeps.models import Sweep
from apps.sweeps.selectors import sweep_for_user, sweep_rows, sweep_summary
from apps.sweeps.serializers import (
    ResultsPageSerializer,
    SummarySerializer,
    SweepCreateSerializer,
    SweepSerializer,
)

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
NO_RESULTS = error_response(
    "No results: the sweep is queued or running, or it failed or was cancelled."
)


class SweepNotQueued(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = services.QueueUnavailable.message
    default_code = "queue_unavailable"
    wait = services.QUEUE_RETRY_AFTER_SECONDS  # sent as Retry-After


class SweepLimited(APIException):
    """A person's limit on running sweeps or points a day: 429, Retry-After when it lifts."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "sweep_limit"

    def __init__(self, reached: SweepLimitReached) -> None:
        super().__init__(reached.message)
        self.wait = reached.retry_after_seconds  # sent as Retry-After


@extend_schema(
    methods=["GET"],
    summary="List a scenario's sweeps, newest first",
    responses={200: SweepSerializer(many=True)},
)
@extend_schema(
    methods=["POST"],
    summary="Define a sweep of a scenario and queue it",
    description="Checks the definition, stores the sweep and queues its chunks on the Celery "
    "workers (without a broker, a sweep of more than SWEEP_BACKGROUND_POINTS points is computed "
    "in a thread of the server: read its progress at `sweeps/{id}/`). A definition that cannot "
    "run (over 1,000,000 points, a value out of range, an input the scenario does not use) gets "
    "a 400 with a message at each field, and nothing is queued. A person with "
    "SWEEP_MAX_ACTIVE_PER_USER sweeps queued or running, or whose sweeps of the last 24 hours "
    "would pass SWEEP_MAX_POINTS_PER_DAY points with this one, gets a 429 with Retry-After.",
    request=SweepCreateSerializer,
    responses={
        201: SweepSerializer,
        429: error_response(
            "Too many requests, or a limit on the person's sweeps reached: retry after "
            "Retry-After seconds."
        ),
        503: error_response(
            "The task queue is not answering: the sweep is stored as failed, nothing of it "
            "runs; try again after Retry-After seconds."
        ),
    },
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def scenario_sweeps(request: Request, scenario_id: int) -> Response:
    scenario = scenario_for_user(request.user, scenario_id)
    if request.method == "GET":
        background.sweeps_resume_abandoned(scenario.sweeps.all())
        return Response(SweepSerializer(scenario.sweeps.all(), many=True).data)
    serializer = SweepCreateSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    try:
        sweep = services.sweep_create(
            scenario=scenario,
            created_by=request.user,
            definition=serializer.definition(),
            name=serializer.validated_data.get("name", ""),
        )
    except DefinitionError as error:
        raise serializers.ValidationError(nest_errors(error.errors)) from None
    except SweepLimitReached as reached:
        raise SweepLimited(reached) from None
    except services.QueueUnavailable as error:
        raise SweepNotQueued() from error
    return Response(SweepSerializer(sweep).data, status=status.HTTP_201_CREATED)


@extend_schema(summary="Read a sweep: its status and progress", responses={200: SweepSerializer})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def sweep_detail(request: Request, sweep_id: int) -> Response:
    sweep = sweep_for_user(request.user, sweep_id)
    background.sweeps_resume_abandoned(Sweep.objects.filter(pk=sweep.pk))
    return Response(SweepSerializer(sweep).data)


@extend_schema(
    summary="Cancel a queued or running sweep",
    request=None,
    responses={
        200: SweepSerializer,
        409: error_response("The sweep has ended already."),
    },
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def sweep_cancel(request: Request, sweep_id: int) -> Response:
    sweep = sweep_for_user(request.user, sweep_id)
    if not services.sweep_cancel(sweep=sweep):
        return Response(
            {
                "detail": gettext("The sweep has ended (%(status)s).")
                % {"status": sweep.get_status_display().lower()}
            },
            status=status.HTTP_409_CONFLICT,
        )
    return Response(SweepSerializer(sweep).data)


WHY_NO_RESULTS = {
    "queued": gettext_lazy("The sweep has no results yet: it is queued."),
    "running": gettext_lazy("The sweep has no results yet: it is running."),
    "failed": gettext_lazy("The sweep has no results yet: it failed."),
    "cancelled": gettext_lazy("The sweep has no results yet: it was cancelled."),
}


def _no_results(sweep) -> Response:
    return Response({"detail": str(WHY_NO_RESULTS[sweep.status])}, status=status.HTTP_409_CONFLICT)


@extend_schema(
    summary="Read a sweep's points and figures, a page at a time",
    parameters=page_parameters("Points", MAX_PAGE_SIZE),
    responses={200: ResultsPageSerializer, 409: NO_RESULTS},
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def sweep_results(request: Request, sweep_id: int) -> Response:
    sweep = sweep_for_user(request.user, sweep_id)
    if not sweep.has_results:
        return _no_results(sweep)
    rows, head = page_of(
        request, sweep.total_points, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, fewest_pages=0
    )
    return Response(
        {
            **head,
            "stale_since": sweep.stale_since,
            "results": [
                dataclasses.asdict(row) for row in sweep_rows(sweep, rows.start, rows.stop)
            ],
        }
    )


@extend_schema(
    summary="Read a sweep's summary: statistics of every figure and the best configurations",
    responses={200: SummarySerializer, 409: NO_RESULTS},
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def sweep_summary_view(request: Request, sweep_id: int) -> Response:
    sweep = sweep_for_user(request.user, sweep_id)
    summary = sweep_summary(sweep)
    if summary is None:
        return _no_results(sweep)
    by_name = metrics_in(sweep.currency)
    figures = {
        name: {"label": by_name[name].label, "unit": by_name[name].unit, **figure}
        for name, figure in summary.figures.items()
    }
    for figure in figures.values():
        figure.setdefault("min", None)
        figure.setdefault("max", None)
    return Response(
        {
            "status": sweep.status,
            "stale_since": sweep.stale_since,
            "total_points": sweep.total_points,
            "figures": figures,
            "rankings": {
                name: [dataclasses.asdict(row) for row in rows]
                for name, rows in summary.rankings.items()
            },
        }
    )


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return str(data).encode() if data else b""


def csv_response(sweep) -> StreamingHttpResponse:
    """The CSV with its header in the request's language, kept while it streams."""
    pieces = csv_pieces(sweep, translation.get_language())
    response = StreamingHttpResponse(pieces, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sweep-{sweep.pk}.csv"'
    return response


@extend_schema(
    summary="Download every point of a sweep as CSV (streamed)",
    operation_id="v1_sweeps_results_csv",
    description="One row a point: its number, accelerator and varied inputs, then every figure. "
    "The header is in the language of Accept-Language, each figure with its unit "
    '("Total cost (training + inference) [USD]"); a varied input is in the units of the '
    "scenario form (a percentage in percent). Numbers are never localised; an empty cell is a "
    "figure that cannot be computed. Use `results/` for machine names.",
    responses={(200, "text/csv"): OpenApiTypes.STR, 409: NO_RESULTS},
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, CSVRenderer])
def sweep_csv(request: Request, sweep_id: int):
    # Errors are JSON whatever format was asked for, as the schema says: DRF would otherwise
    # render {"detail": …} with the CSV renderer, as a text/csv of Python's repr.
    request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
    sweep = sweep_for_user(request.user, sweep_id)
    if not sweep.has_results:
        return _no_results(sweep)
    return csv_response(sweep)
