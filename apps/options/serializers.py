"""API shapes of the decision view: the options request and its response (for the schema)."""

from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import serializers

from apps.api.fields import ChoiceField, FiniteFloatField, MoneyField, StrictIntegerField
from apps.api.serializers import (
    MODEL_SLUG,
    CommitmentResultSerializer,
    EstimateRequestSerializer,
    StrictSerializer,
    TrainingRequestSerializer,
    number,
)
from apps.apiprices.models import PriceTier
from apps.catalogue.models import PRECISIONS, CommitmentDiscount
from apps.core.planning_dates import PlanningDateField
from apps.estimates.options import OPTION_KEYS
from apps.exchange.serializers import ExchangeRateSerializer
from apps.options.services import HOSTING, period_start_on
from apps.projects.models import FiscalYearLabel

STAFF_BASES = ("given", "not_included")


class OptionChoiceSerializer(StrictSerializer):
    """One option and what the user picks for it; the rest comes from the estimate request."""

    key = ChoiceField(choices=OPTION_KEYS)
    api_model = serializers.SlugField(
        required=False, help_text="external_api: slug of the API price catalogue [gpt-4o-mini]."
    )
    api_price_tier = ChoiceField(
        choices=PriceTier.values,
        required=False,
        help_text="external_api: the price tier of the API model (default: the request's, else "
        "standard); GET /api/v1/api-prices/ lists each model's tiers.",
    )
    input_tokens = number("Input tokens per request, when the request has none.")
    cached_input_tokens = number(
        "Input tokens per request served from a cache: billed at the cached rate by an API, "
        "without prefill compute when self-hosted."
    )
    output_tokens = number("Output tokens per request, when the request has none.")
    reasoning_tokens = number("Reasoning tokens per request, decoded and billed as output.")
    price_per_million_input_tokens = number("external_api: USD; overrides the catalogue.")
    price_per_million_cached_input_tokens = number("external_api: USD; overrides the catalogue.")
    price_per_million_output_tokens = number("external_api: USD; overrides the catalogue.")
    batch_discount = number("external_api: share taken off for batch processing.")
    accelerator = serializers.SlugField(required=False, help_text="Self-hosting: catalogue slug.")
    precision = ChoiceField(choices=PRECISIONS, required=False)
    parameters = number("Self-hosting: active parameters of the model served.")
    model = serializers.RegexField(
        MODEL_SLUG,
        required=False,
        help_text="Self-hosting: model catalogue slug; its memory and speed size the replicas.",
    )
    accelerator_seconds_per_request = number("Self-hosting: accelerator-seconds per request.")
    price_per_accelerator_hour = number("Rented: USD; overrides the catalogue.")
    purchase_price = number("Owned: USD per accelerator; overrides the catalogue.")
    lifetime_years = number("Owned: years written off over.")
    hosting = ChoiceField(
        choices=HOSTING, required=False, help_text="fine_tune, build: how the model is hosted."
    )
    commitment_years = number(
        "rent_committed: the term, 1 or 3 years (default: the request's when it is committed, "
        "else 1).",
        min_value=1,
        max_value=3,
    )
    upfront_share = number(
        "rent_committed: the share of each term paid at its start, 0 (all monthly) to 1 (all "
        "upfront) [0].",
        min_value=0,
        max_value=1,
    )
    commitment_discount = number(
        "rent_committed: the share taken off the on-demand price, e.g. 0.4; by default "
        "`commitment_provider`'s published one, else the median of the providers' for the "
        "term and payment (GET /api/v1/commitment-discounts/).",
        min_value=0,
        max_value=0.99,
    )
    commitment_provider = ChoiceField(
        choices=CommitmentDiscount.Provider.choices,
        required=False,
        help_text="rent_committed: whose published discount to use when none is given.",
    )
    committed_accelerators = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=10**6,
        help_text="rent_committed: accelerators committed [what the peak needs]; busy hours "
        "beyond what they serve are paid on demand.",
    )
    staff_fte = number(
        "Staff the option needs to run, in full-time equivalents (none assumed by default: no "
        "published figure gives it).",
        min_value=0,
    )
    staff_cost_per_fte_year = number(
        "USD a year for one full-time equivalent of that staff.", min_value=0
    )
    # The schema says so too (apps.api.schema).
    given_together = (("staff_fte", "staff_cost_per_fte_year"),)

    def validate(self, attrs):
        if (attrs.get("staff_fte") is None) != (attrs.get("staff_cost_per_fte_year") is None):
            raise serializers.ValidationError(
                {
                    "staff_cost_per_fte_year": [
                        gettext("Give the staff and its cost a year together.")
                    ]
                }
            )
        return attrs

    training = TrainingRequestSerializer(
        required=False, help_text="fine_tune, build: the training (default: the request's)."
    )


class BudgetSettingsSerializer(StrictSerializer):
    fiscal_year_start_month = serializers.IntegerField(min_value=1, max_value=12, default=1)
    fiscal_year_label = ChoiceField(
        choices=FiscalYearLabel.choices, default=FiscalYearLabel.END_YEAR
    )
    period_start = PlanningDateField(required=False)
    period_end = PlanningDateField(required=False)
    discount_rate = serializers.DecimalField(
        max_digits=7, decimal_places=6, min_value=0, max_value=1, default="0.035"
    )
    training_start = PlanningDateField(required=False)
    service_start = PlanningDateField(required=False)

    def validate(self, attrs):
        # Against the start the comparison takes: the one given, or this month's first day.
        start = period_start_on(attrs.get("period_start"), timezone.localdate())
        end = attrs.get("period_end")
        if end and end < start:
            raise serializers.ValidationError(
                {"period_end": [gettext("The end of the planning period is before its start.")]}
            )
        return attrs


class OptionsRequestSerializer(EstimateRequestSerializer):
    # The schema requires the demand to serve, as `validate` does.
    at_least_one_of = ("inference",)

    options = OptionChoiceSerializer(
        many=True,
        required=False,
        max_length=len(OPTION_KEYS),
        help_text="The options to compare (default: the five ways to serve the demand and the "
        "request's training route).",
    )
    budget = BudgetSettingsSerializer(
        required=False, help_text="Fiscal calendar and discount rate [January, 3.5 %]."
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not attrs.get("inference"):
            raise serializers.ValidationError(
                {"inference": [gettext("Give the demand to serve: an inference section.")]}
            )
        keys = [choice["key"] for choice in attrs.get("options", [])]
        if len(set(keys)) != len(keys):
            raise serializers.ValidationError({"options": [gettext("Give each option once.")]})
        if "options" in attrs and not keys:
            raise serializers.ValidationError({"options": [gettext("Choose at least one option.")]})
        return attrs


class FiscalYearAmountSerializer(serializers.Serializer):
    fiscal_year = serializers.CharField()
    amount = MoneyField()


class StaffSerializer(serializers.Serializer):
    fte = FiniteFloatField(
        allow_null=True, help_text="Full-time equivalents; null when none is assumed."
    )
    cost = MoneyField(allow_null=True, help_text="Their cost in the planning period (opex).")
    basis = serializers.ChoiceField(
        choices=STAFF_BASES,
        help_text="given: the request's staff_fte, in the totals; not_included: no staff in "
        "the totals (no published figure gives the staff each option needs).",
    )


class OptionApiPriceSerializer(serializers.Serializer):
    api_model = serializers.SlugField(help_text="Its slug in the API price catalogue.")
    tier = serializers.CharField(
        help_text="The price tier used: standard, off_peak or long_prompt (api_price_tier)."
    )
    valid_from = serializers.DateField(
        allow_null=True,
        help_text="The tier's price in force since (null: before the catalogue's history).",
    )
    as_of = serializers.DateField(help_text="When the provider's prices were last checked.")


class OptionFootprintSerializer(serializers.Serializer):
    energy_kwh = FiniteFloatField(allow_null=True, help_text="Facility energy, kWh.")
    emissions_kg_co2e = FiniteFloatField(
        allow_null=True, help_text="Emissions of that energy, kg CO2e."
    )
    embodied_kg_co2e = FiniteFloatField(
        allow_null=True, help_text="Emissions of making the hardware, kg CO2e."
    )
    water_litres = FiniteFloatField(
        allow_null=True, help_text="Water on site and at the power plant, litres."
    )


class OptionResultSerializer(serializers.Serializer):
    key = serializers.ChoiceField(choices=OPTION_KEYS)
    label = serializers.CharField()
    one_off = MoneyField()
    capex = MoneyField()
    opex = FiscalYearAmountSerializer(many=True)
    total = MoneyField()
    npv = MoneyField()
    cost_per_request = serializers.CharField(
        allow_null=True, help_text="USD per request, to a millionth (a decimal string)."
    )
    cost_per_million_output_tokens = MoneyField(allow_null=True)
    accelerators = serializers.IntegerField(allow_null=True)
    staff = StaffSerializer(help_text="The staff assumed to run the option.")
    flags = serializers.ListField(child=serializers.CharField())
    api_price = OptionApiPriceSerializer(
        required=False,
        help_text="external_api costed at the price catalogue's prices: which price it is.",
    )
    commitment = CommitmentResultSerializer(
        allow_null=True,
        help_text="rent_committed: its terms, payments, on-demand excess and the committed "
        "capacity left idle; null for the other options.",
    )
    footprint = OptionFootprintSerializer(
        allow_null=True,
        help_text="Training plus serving over the horizon; null in comparisons kept before it.",
    )


class CrossoverSerializer(serializers.Serializer):
    options = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    requests_per_month = FiniteFloatField(allow_null=True)


class CommitmentCrossoverSerializer(serializers.Serializer):
    discount = FiniteFloatField(help_text="Share off the on-demand price.")
    term_months = serializers.IntegerField()
    busy_share_over_pay_per_use = FiniteFloatField(
        help_text="The commitment beats renting the same accelerators per use above this busy "
        "share of its committed hours over the service (above 1: never)."
    )
    service_months_over_always_on = FiniteFloatField(
        help_text="The commitment beats keeping the same accelerators always on when the "
        "service runs more than this many months of each term."
    )


class ConditionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    options = serializers.ListField(child=serializers.CharField())
    value = FiniteFloatField(allow_null=True)
    text = serializers.CharField()


class OptionRangeSerializer(serializers.Serializer):
    p5 = serializers.CharField(help_text="5th percentile, a decimal string.")
    p50 = serializers.CharField(help_text="Median (central estimate), a decimal string.")
    p95 = serializers.CharField(help_text="95th percentile, a decimal string.")
    mean = serializers.CharField(help_text="Mean, a decimal string.")


class OptionsUncertaintySerializer(serializers.Serializer):
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()
    figures = serializers.DictField(
        child=OptionRangeSerializer(),
        help_text="Percentiles and mean of each option's total and NPV (USD to the cent) and, "
        "where it has requests, its cost per request (USD to a millionth, as the option's "
        'own), by dotted path ("options.own.npv", "options.own.cost_per_request").',
    )
    cheapest_share = serializers.DictField(
        child=FiniteFloatField(),
        help_text="By option key: the share of samples in which it has the lowest NPV.",
    )


class OptionsResponseSerializer(serializers.Serializer):
    currency = serializers.CharField()
    exchange_rates = ExchangeRateSerializer(
        many=True, help_text="The rates prices were converted at; empty in US dollars."
    )
    fiscal_years = serializers.ListField(child=serializers.CharField())
    period_start = serializers.DateField()
    period_end = serializers.DateField()
    discount_rate = serializers.FloatField()
    options = OptionResultSerializer(many=True)
    cheapest = serializers.ChoiceField(choices=OPTION_KEYS)
    condition = ConditionSerializer()
    crossovers = CrossoverSerializer(many=True)
    owning_beats_renting_utilisation = FiniteFloatField(allow_null=True)
    commitment_crossover = CommitmentCrossoverSerializer(
        allow_null=True,
        help_text="Where rent_committed beats paying per use and always on; null without it.",
    )
    uncertainty = OptionsUncertaintySerializer(
        required=False, help_text="With the request's ranges only (common random numbers)."
    )
    unavailable = serializers.DictField(
        child=serializers.DictField(child=serializers.ListField(child=serializers.CharField())),
        help_text="Default options that could not be estimated, with why, by key.",
    )
