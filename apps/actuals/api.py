"""API of actuals: imports of billing files, mapping rules, alert thresholds, plan against
actual. Managers work on their projects' actuals; the front office reads the variance of
workplans in review or cleared; everyone else gets 404."""

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
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
from apps.projects.selectors import project_for_user

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
VARIANCE = inline_serializer(
    "Variance",
    {
        "currency": serializers.CharField(),
        "through": serializers.CharField(allow_null=True),
        "plan_unavailable": serializers.CharField(allow_null=True),
        "kinds": serializers.ListField(child=serializers.CharField()),
        "fiscal_years": inline_serializer(
            "VarianceYear",
            {
                **_FIGURES,
                "forecast_run_rate": serializers.CharField(allow_null=True),
                "budget_runs_out": serializers.CharField(allow_null=True),
                "months": inline_serializer("VarianceMonth", _FIGURES, many=True),
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
def variance_view(request: Request, project_id: int) -> Response:
    project = project_for_variance(request.user, project_id)
    plan, variance = project_variance(project)
    return Response(
        variance_json(project.currency, variance, plan.unavailable, usage_by_model(project))
    )
