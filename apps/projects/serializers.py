"""Serializers of the project and scenario API: a project's details, and a scenario whose inputs
are an estimate request that both the request serializer and the engine accept."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import append_meta
from rest_framework import serializers

from apps.api.errors import nest_errors
from apps.api.estimate import ESTIMATE_REQUEST
from apps.api.fields import SafeSlugRelatedField, rate
from apps.api.serializers import EstimateRequestSerializer
from apps.api.strict import StrictTypes
from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.uncertainty import RangesError, check_request_ranges
from apps.core.planning_dates import PlanningDateField
from apps.estimates import EstimateInputError
from apps.exchange.rates import has_any_rate, no_rate_message
from apps.exchange.serializers import RateTableField
from apps.projects.models import (
    RATE_DIGITS,
    RATE_MIN,
    RATE_PLACES,
    FiscalYearLabel,
    Project,
    Scenario,
    fiscal_year_rates_record,
    rate_range_errors,
)
from apps.projects.presets import DEFAULT_PRESET, PRESETS
from apps.words.currencies import active_currencies
from apps.words.messages import error_texts

User = get_user_model()


def as_sent(validated: dict, sent: dict) -> dict:
    """The validated values of the fields the client sent: defaults stay implicit, so a scenario
    reads back exactly as it was written and later default changes still reach it."""
    return {
        key: as_sent(value, sent[key]) if isinstance(value, dict) else _number(value, sent[key])
        for key, value in validated.items()
        if key in sent
    }


def _number(value, sent):
    """A whole number sent stays whole (200, not 200.0): JSON keeps the difference, and so do
    the exports that show a scenario's inputs, so an imported scenario reads as its original."""
    if type(sent) is int and isinstance(value, float) and value == sent:
        return sent
    return value


class EstimateRequestField(serializers.Field):
    """An estimate request that both the request serializer and the engine accept."""

    def to_internal_value(self, data):
        # The estimate endpoint's fast path first; the serializer (built afresh, a few hundred
        # fields deep-copied) only for a body the fast path does not accept, to say why.
        validated = ESTIMATE_REQUEST.validated_data(data)
        if validated is None:
            request = EstimateRequestSerializer(data=data)
            if not request.is_valid():
                raise serializers.ValidationError(request.errors)
            validated = request.validated_data
        try:
            estimate_from_request(validated)
            check_request_ranges(validated)
        except RangesError as error:
            raise serializers.ValidationError({"ranges": error_texts(error.errors)}) from None
        except EstimateInputError as error:
            raise serializers.ValidationError(nest_errors(error_texts(error.errors))) from None
        return as_sent(validated, data)

    def to_representation(self, value: dict) -> dict:
        return value


class EstimateRequestFieldSchema(OpenApiSerializerFieldExtension):
    """Documents a scenario's inputs by the estimate request's own component, when read and when
    written alike: one shape, one schema (a response copy would duplicate its enums)."""

    target_class = EstimateRequestField

    def map_serializer_field(self, auto_schema, direction):
        component = auto_schema.resolve_serializer(EstimateRequestSerializer, "request")
        return append_meta(component.ref, {"description": self.target.help_text})


def exchange_rate_field(**kwargs) -> serializers.DecimalField:
    """An exchange rate as a project keeps it (1 US dollar in the project's currency): a decimal
    string more than 0, with the model's digits."""
    return serializers.DecimalField(
        max_digits=RATE_DIGITS,
        decimal_places=RATE_PLACES,
        min_value=RATE_MIN,
        # DRF's own words would name RATE_MIN as 1E-10.
        error_messages={"min_value": gettext_lazy("An exchange rate must be more than 0.")},
        **kwargs,
    )


def fiscal_year_rates_field(**kwargs) -> serializers.DictField:
    """A project's own exchange rates for some fiscal years, by the year's label."""
    return serializers.DictField(child=exchange_rate_field(), **kwargs)


def validate_project_details(attrs: dict, project: Project | None = None) -> dict:
    """A project's details as the API and an import take them, each one not sent read from
    `project` (a change): its planning period, a currency some rate converts into, the rate's
    range and its fiscal years' rates (then kept as `fiscal_year_rates_record` keeps them).
    Raises the 400 of the first rule broken."""

    def given(name: str, default=None):
        return attrs.get(name, getattr(project, name, default))

    start, end = given("period_start"), given("period_end")
    if start and end and end < start:
        raise serializers.ValidationError(
            {"period_end": gettext("The end of the planning period is before its start.")}
        )
    currency = given("currency", "USD")
    if not has_any_rate(currency, given("rate_table")):
        raise serializers.ValidationError({"currency": no_rate_message(currency)})
    errors = rate_range_errors(currency, given("rate_low"), given("rate_high"))
    if errors:
        raise serializers.ValidationError(errors)
    if "fiscal_year_rates" in attrs:
        try:
            attrs["fiscal_year_rates"] = fiscal_year_rates_record(
                currency, attrs["fiscal_year_rates"]
            )
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from None
    return attrs


class BudgetSettingsSerializer(serializers.Serializer):
    """The project's fields that set how its budgets are drawn up (models.BUDGET_SETTINGS),
    each optional: one left out keeps its value, or the default on a new project."""

    fiscal_year_start_month = serializers.IntegerField(
        min_value=1, max_value=12, required=False, help_text="1 for January … 12 [1]."
    )
    fiscal_year_label = serializers.ChoiceField(
        choices=FiscalYearLabel.choices,
        required=False,
        help_text="How fiscal years are named: by the calendar year in which each ends (FY2026) "
        "or by both calendar years (2025/26) [end_year].",
    )
    capitalisation_threshold = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        min_value=0,
        required=False,
        help_text="In the project's currency, a decimal string: a line of at least this much "
        'is capex unless its class is set ["5000.00"].',
    )
    discount_rate = rate("A year, real, as a fraction [0.035].", required=False)
    contingency_capex = rate("On capex, as a fraction [0].", required=False)
    contingency_opex = rate("On opex, as a fraction [0].", required=False)
    indirect_rate = rate(
        "Indirect support costs on direct costs and contingency, as a fraction [0].",
        required=False,
    )


class ProjectSerializer(StrictTypes, BudgetSettingsSerializer, serializers.ModelSerializer):
    currency = serializers.ChoiceField(
        choices=active_currencies(),
        default="USD",
        help_text="Any active ISO 4217 code. Every amount of the project is in it: catalogue "
        "prices, in US dollars, are converted at the rate of `rate_date` from `rate_table`; a "
        "currency no rate converts into is refused.",
    )
    rate_table = RateTableField(
        required=False,
        help_text="Id of an organisation's exchange rate table; null: the ECB's euro reference "
        "rates.",
    )
    rate_date = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="The day whose rate converts prices; null: the date of the catalogue's prices.",
    )
    rate_low = exchange_rate_field(
        allow_null=True,
        required=False,
        help_text="Optional 90 % range of the rate, its low end: 1 US dollar in the project's "
        "currency, as a decimal string more than 0; the ranges' percentiles sample it as one "
        "driver of every converted price. Null (both ends): the rate is fixed. Both ends or "
        "neither, the low end at most the high end, and none on a project in US dollars (no "
        "rate converts them): each refused otherwise with a 400.",
    )
    rate_high = exchange_rate_field(
        allow_null=True,
        required=False,
        help_text="The high end of the rate's 90 % range, more than 0 and at least the low end "
        "(see `rate_low`).",
    )
    fiscal_year_rates = fiscal_year_rates_field(
        required=False,
        help_text="A rate of its own for some fiscal years, by the year's label "
        '({"FY2028": "0.95"}: 1 US dollar in the project\'s currency that year, more than 0); '
        "every other year uses the rate of `rate_date`. {} [the default]: none. A label is at "
        "most 20 characters, and a project in US dollars has none (400).",
    )
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True)
    collaborators = SafeSlugRelatedField(
        slug_field="username",
        queryset=User.objects.filter(is_active=True),
        many=True,
        required=False,
        error_messages={"does_not_exist": gettext_lazy("No active user named {value}.")},
        help_text="Usernames of colleagues who may read the project and change its scenarios.",
    )
    hosting_warning = serializers.SerializerMethodField()
    scenarios_url = serializers.HyperlinkedIdentityField(
        view_name="api:project-scenario-list", lookup_url_kwarg="project_id"
    )

    class Meta:
        model = Project
        fields = (
            "id", "title", "unit", "description", "currency", "rate_table", "rate_date",
            "rate_low", "rate_high", "fiscal_year_rates", "classification", "status",
            "owner", "collaborators", "period_start", "period_end", "fiscal_year_start_month",
            "fiscal_year_label", "capitalisation_threshold", "discount_rate", "contingency_capex",
            "contingency_opex", "indirect_rate", "hosting_warning",
            "created_at", "updated_at", "scenarios_url",
        )  # fmt: skip
        read_only_fields = ("status",)

    def get_hosting_warning(self, project: Project) -> str | None:
        """Set when a scenario rents hosting that the project's data classification rules out."""
        return project.hosting_warning(scenario.inputs for scenario in project.scenarios.all())

    def validate(self, attrs: dict) -> dict:
        return validate_project_details(attrs, self.instance)


class ProjectCreateSerializer(ProjectSerializer):
    preset = serializers.ChoiceField(
        choices=[(preset.slug, preset.name) for preset in PRESETS],
        default=DEFAULT_PRESET.slug,
        write_only=True,
        help_text="The figures the first scenario, the baseline, starts from.",
    )

    class Meta(ProjectSerializer.Meta):
        fields = (*ProjectSerializer.Meta.fields, "preset")


class ScenarioSerializer(StrictTypes, serializers.ModelSerializer):
    inputs = EstimateRequestField(
        help_text="An estimate request, as POST /api/v1/estimate/ takes it; stored as sent."
    )
    is_baseline = serializers.BooleanField(
        required=False,
        help_text="Send true to make this scenario the project's baseline in place of the "
        "current one; a baseline stops being one only when another takes its place.",
    )
    training_start = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="When training starts [the planning period's start].",
    )
    service_start = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="When serving starts [the first of the month after training ends].",
    )
    estimate_url = serializers.HyperlinkedIdentityField(
        view_name="api:scenario-estimate", lookup_url_kwarg="scenario_id"
    )

    class Meta:
        model = Scenario
        fields = (
            "id", "project", "name", "is_baseline", "inputs", "training_start", "service_start",
            "version", "created_at", "updated_at", "estimate_url",
        )  # fmt: skip
        read_only_fields = ("project", "version")

    def validate_is_baseline(self, value: bool) -> bool:
        if not value and self.instance is not None and self.instance.is_baseline:
            raise serializers.ValidationError(
                gettext("Make another scenario the baseline instead; this one then stops being it.")
            )
        return value
