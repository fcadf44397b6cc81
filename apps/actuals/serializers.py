"""Serializers of the actuals API: imports, mapping rules, and plan against actual."""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.actuals.currency import rates_of
from apps.actuals.models import (
    MAX_PERCENTAGE,
    MAX_THRESHOLDS,
    ActualsImport,
    AlertThresholds,
    MappingRule,
)
from apps.actuals.variance import Figures, Period, Variance
from apps.api.strict import StrictTypes
from apps.estimates.budget import KINDS
from apps.exchange.serializers import ExchangeRateSerializer, exchange_rate_representation


class ImportUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="A FOCUS 1.0–1.4 export (CSV, gzipped CSV or Parquet) or the plain CSV."
    )
    source = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Where the bill comes from; a new file from the same source for a billing "
        "period already imported replaces that period. Default: the invoice issuer and "
        'billing account of a FOCUS export, "csv" for the plain CSV.',
    )


class ImportQueuedSerializer(serializers.ModelSerializer):
    class Meta:
        model = ActualsImport
        fields = ["id", "status"]


class ImportErrorSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    message = serializers.CharField()


class ImportSerializer(serializers.ModelSerializer):
    amount_unmatched = serializers.DecimalField(
        max_digits=20, decimal_places=2, coerce_to_string=True
    )
    errors = ImportErrorSerializer(many=True)
    exchange_rates = serializers.SerializerMethodField(
        help_text="The rates amounts in another currency were converted at, one per currency "
        "and charge day (a day without a rate, a weekend, takes the newest before it)."
    )

    class Meta:
        model = ActualsImport
        fields = [
            "id",
            "status",
            "source",
            "format",
            "file_name",
            "rows_read",
            "rows_matched",
            "rows_unmatched",
            "amount_unmatched",
            "errors",
            "error_count",
            "unchanged",
            "period_start",
            "period_end",
            "exchange_rates",
        ]
        read_only_fields = fields

    @extend_schema_field(ExchangeRateSerializer(many=True))
    def get_exchange_rates(self, record: ActualsImport) -> list[dict]:
        return [exchange_rate_representation(rate) for rate in rates_of(record.exchange_rates)]


class MappingRuleSerializer(StrictTypes, serializers.ModelSerializer):
    column = serializers.CharField(
        max_length=200,
        help_text='A FOCUS column ("ServiceName", "SkuId", "SubAccountName" …) or "Tags.<key>".',
    )
    value = serializers.CharField(max_length=500, allow_blank=True)
    kind = serializers.ChoiceField(choices=KINDS)
    position = serializers.IntegerField(read_only=True)

    class Meta:
        model = MappingRule
        fields = ["id", "position", "column", "value", "kind"]

    def validate_column(self, value: str) -> str:
        value = value.strip()
        if not value or value == "Tags.":
            raise serializers.ValidationError(gettext("Name a FOCUS column or Tags.<key>."))
        return value


class ThresholdsSerializer(StrictTypes, serializers.ModelSerializer):
    percentages = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_PERCENTAGE),
        min_length=1,
        max_length=MAX_THRESHOLDS,
        help_text="Whole percentages of a fiscal year's budget whose crossing raises an alert "
        "(once each, sorted); default [80, 100].",
    )
    on_actual = serializers.BooleanField(help_text="Alert when the year's actual reaches one.")
    on_forecast = serializers.BooleanField(
        help_text="Alert when the year's forecast outturn (actual + the plan for the months "
        "left) reaches one."
    )

    class Meta:
        model = AlertThresholds
        fields = ["percentages", "on_actual", "on_forecast"]

    def validate_percentages(self, value: list[int]) -> list[int]:
        return sorted(set(value))


def _money(value) -> str | None:
    return None if value is None else str(value)


def figures_json(figures: Figures) -> dict:
    return {
        "plan": str(figures.plan),
        "actual": str(figures.actual),
        "variance": str(figures.variance),
        "variance_share": figures.variance_share,
        "forecast": str(figures.forecast),
    }


def period_json(period: Period) -> dict:
    usage = period.usage
    answer = {
        "label": period.label,
        "start": period.start.isoformat(),
        "end": period.end.isoformat(),
        **figures_json(period.total),
        "kinds": [{"kind": kind, **figures_json(f)} for kind, f in period.kinds.items()],
        "accelerator_hours": {
            "plan": usage.accelerator_hours_plan,
            "actual": usage.accelerator_hours_actual,
        },
        "tokens": {
            "plan": None if usage.tokens_plan is None else dict(usage.tokens_plan),
            "actual": dict(usage.tokens_actual),
        },
    }
    if period.forecast is not None:
        outturn = period.forecast
        answer["forecast_run_rate"] = _money(outturn.by_run_rate)
        answer["run_rate"] = _money(outturn.run_rate)
        answer["budget_runs_out"] = None
        if outturn.runs_out is not None:
            answer["budget_runs_out"] = (
                f"{outturn.runs_out // 12:04d}-{outturn.runs_out % 12 + 1:02d}"
            )
        answer["months"] = [period_json(month) for month in period.months]
    return answer


def variance_json(
    currency: str, variance: Variance, unavailable: str, usage: list[dict], planned_model: str = ""
) -> dict:
    return {
        "currency": currency,
        "planned_model": planned_model or None,
        "through": None if variance.through is None else variance.through.strftime("%Y-%m"),
        "plan_unavailable": unavailable or None,
        "kinds": list(variance.kinds),
        "fiscal_years": [period_json(year) for year in variance.years],
        "usage": [
            {
                "accelerator": row["accelerator"] or None,
                "model": row["model"] or None,
                "token_type": row["token_type"] or None,
                "accelerator_hours": row["hours"],
                "tokens": row["tokens"],
            }
            for row in usage
        ],
    }
