"""API of actuals: imports of billing files, mapping rules, alert thresholds, plan against
actual. Managers work on their projects' actuals; the front office reads the variance of
workplans in review or cleared; everyone else gets 404."""

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.actuals import services
from apps.actuals.alerts import alerts_raise
from apps.actuals.models import MappingRule
from apps.actuals.selectors import (
    alert_thresholds,
    import_of,
    project_for_variance,
    project_variance,
    rules_of,
    usage_by_model,
    variance_stamp,
)
from apps.actuals.serializers import (
    ImportQueuedSerializer,
    ImportSerializer,
    ImportUploadSerializer,
    MappingRuleSerializer,
    ThresholdsSerializer,
    variance_json,
)
from apps.api.schema import error_response
from apps.catalogue.snapshot import Catalogue
from apps.core.fragments import cached_fragment, fragment_key
from apps.projects.models import ProjectFrozen
from apps.projects.selectors import project_for_user
from apps.projects.serializers import ScenarioSerializer

NOT_FOUND = error_response("No project (or import, or rule) of yours has this number.")


@extend_schema(
    request={"multipart/form-data": ImportUploadSerializer},
    responses={202: ImportQueuedSerializer, 404: NOT_FOUND},
    summary="Import a billing file (FOCUS export or plain CSV) into a project's actuals",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, FormParser])
def imports_view(request: Request, project_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    upload = ImportUploadSerializer(data=request.data)
    upload.is_valid(raise_exception=True)
    record = services.actuals_import_create(
        project=project,
        user=request.user,
        upload=upload.validated_data["file"],
        source=upload.validated_data.get("source", ""),
    )
    record.refresh_from_db(fields=["status"])
    return Response(ImportQueuedSerializer(record).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(
    responses={200: ImportSerializer, 404: NOT_FOUND},
    summary="An import's status, counts, refused rows and period",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def import_view(request: Request, project_id: int, import_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    return Response(ImportSerializer(import_of(project, import_id)).data)


@extend_schema(
    methods=["GET"],
    responses={200: MappingRuleSerializer(many=True), 404: NOT_FOUND},
    summary="A project's mapping rules, first match first",
)
@extend_schema(
    methods=["POST"],
    request=MappingRuleSerializer,
    responses={201: MappingRuleSerializer, 404: NOT_FOUND},
    summary="Add a mapping rule (last in order)",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def rules_view(request: Request, project_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    if request.method == "GET":
        return Response(MappingRuleSerializer(rules_of(project), many=True).data)
    given = MappingRuleSerializer(data=request.data)
    given.is_valid(raise_exception=True)
    rule = services.mapping_rule_create(project=project, **given.validated_data)
    return Response(MappingRuleSerializer(rule).data, status=status.HTTP_201_CREATED)


def _rule(project, rule_id: int) -> MappingRule:
    rule = MappingRule.objects.filter(project=project, pk=rule_id).first()
    if rule is None:
        raise Http404(gettext("This project has no rule with this number."))
    return rule


@extend_schema(
    methods=["PATCH"],
    request=MappingRuleSerializer,
    responses={200: MappingRuleSerializer, 404: NOT_FOUND},
    summary="Change a mapping rule",
)
@extend_schema(methods=["DELETE"], responses={204: None, 404: NOT_FOUND}, summary="Delete a rule")
@api_view(["PATCH", "DELETE"])
@permission_classes([IsAuthenticated])
def rule_view(request: Request, project_id: int, rule_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    rule = _rule(project, rule_id)
    if request.method == "DELETE":
        services.mapping_rule_delete(rule=rule)
        return Response(status=status.HTTP_204_NO_CONTENT)
    given = MappingRuleSerializer(rule, data=request.data, partial=True)
    given.is_valid(raise_exception=True)
    rule = services.mapping_rule_update(rule=rule, fields=given.validated_data)
    return Response(MappingRuleSerializer(rule).data)


@extend_schema(
    methods=["GET"],
    responses={200: ThresholdsSerializer, 404: NOT_FOUND},
    summary="When a project's budget alerts are raised",
)
@extend_schema(
    methods=["PATCH"],
    request=ThresholdsSerializer,
    responses={200: ThresholdsSerializer, 404: NOT_FOUND},
    summary="Change the alert thresholds (alerts they newly cross are raised at once)",
)
@api_view(["GET", "PATCH"])
@permission_classes([IsAuthenticated])
def thresholds_view(request: Request, project_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    thresholds = alert_thresholds(project)
    if request.method == "GET":
        return Response(ThresholdsSerializer(thresholds).data)
    given = ThresholdsSerializer(thresholds, data=request.data, partial=True)
    given.is_valid(raise_exception=True)
    fields = {name: getattr(thresholds, name) for name in ThresholdsSerializer.Meta.fields}
    thresholds = services.alert_thresholds_update(
        project=project, **(fields | given.validated_data)
    )
    alerts_raise(project=project)
    return Response(ThresholdsSerializer(thresholds).data)


_FIGURES = {
    "label": serializers.CharField(),
    "plan": serializers.CharField(),
    "actual": serializers.CharField(),
    "variance": serializers.CharField(),
    "variance_share": serializers.FloatField(allow_null=True),
    "forecast": serializers.CharField(),
}
_TOKENS = {name: serializers.IntegerField() for name in ("input", "cached", "output")}
_USAGE = {
    "accelerator_hours": inline_serializer(
        "VarianceHours",
        {
            "plan": serializers.FloatField(allow_null=True),
            "actual": serializers.FloatField(),
        },
    ),
    "tokens": inline_serializer(
        "VarianceTokens",
        {
            "plan": inline_serializer("VarianceTokensPlanned", _TOKENS, allow_null=True),
            "actual": inline_serializer("VarianceTokensActual", _TOKENS),
        },
    ),
}
VARIANCE = inline_serializer(
    "Variance",
    {
        "currency": serializers.CharField(),
        "through": serializers.CharField(allow_null=True),
        "plan_unavailable": serializers.CharField(allow_null=True),
        "planned_model": serializers.CharField(
            allow_null=True, help_text="The external API model the planned tokens are for."
        ),
        "kinds": serializers.ListField(child=serializers.CharField()),
        "fiscal_years": inline_serializer(
            "VarianceYear",
            {
                **_FIGURES,
                **_USAGE,
                "forecast_run_rate": serializers.CharField(allow_null=True),
                "budget_runs_out": serializers.CharField(allow_null=True),
                "months": inline_serializer("VarianceMonth", {**_FIGURES, **_USAGE}, many=True),
            },
            many=True,
        ),
    },
)


@extend_schema(
    responses={200: OpenApiResponse(VARIANCE), 404: NOT_FOUND},
    summary="Plan against actual: by fiscal year and month, per kind of line, with forecasts",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def variance_view(request: Request, project_id: int) -> Response | HttpResponse:
    """The JSON bytes straight from the cache while nothing the variance is drawn from has
    changed (one light query and a cache read), else drawn up and rendered."""
    stamp = variance_stamp(request.user, project_id)
    if stamp is None:
        raise Http404(gettext("No project of yours has this number."))

    def answer() -> dict:
        project = project_for_variance(request.user, project_id)
        plan, variance = project_variance(project)
        return variance_json(
            project.currency, variance, plan.unavailable, usage_by_model(project), plan.model
        )

    if request.accepted_renderer.format != "json":  # the browsable API: the usual way
        return Response(answer())
    key = fragment_key("variance-json", *stamp, Catalogue.load().digest)
    rendered = cached_fragment(key, lambda: JSONRenderer().render(answer()))
    return HttpResponse(rendered, content_type="application/json")


@extend_schema(
    request=None,
    responses={
        201: ScenarioSerializer,
        400: error_response("No baseline serving requests, or no usage billed in a full month."),
        404: NOT_FOUND,
        409: error_response("The project is submitted or cleared: nothing can be added."),
    },
    summary="Re-plan from actuals: a new scenario whose demand starts from the usage measured",
    description="Requests per month in the latest full month of the actuals (tokens billed ÷ "
    "a planned request's tokens, else inference accelerator-hours billed ÷ a planned "
    "request's), growing by the geometric mean of the last three month-on-month ratios; the "
    "rest copied from the baseline.",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def replan_view(request: Request, project_id: int) -> Response:
    project = project_for_user(request.user, project_id)
    try:
        scenario = services.scenario_replan(
            project=project, user=request.user, today=timezone.localdate()
        )
    except services.ReplanRefused as refused:
        return Response({"detail": str(refused)}, status=status.HTTP_400_BAD_REQUEST)
    except ProjectFrozen as frozen:
        return Response({"detail": str(frozen)}, status=status.HTTP_409_CONFLICT)
    answer = ScenarioSerializer(scenario, context={"request": request})
    return Response(answer.data, status=status.HTTP_201_CREATED)
