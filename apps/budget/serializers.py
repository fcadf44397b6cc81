"""Serializers of the budget API: cost lines in, the budget out (money as decimal strings)."""

from django.core.exceptions import ValidationError as ModelValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.api.fields import MoneyField, rate
from apps.api.ranges import MoneyRangeSerializer, UncertaintyResultSerializer
from apps.api.strict import StrictTypes
from apps.budget.models import AMOUNT_DIGITS, AMOUNT_PLACES, BudgetClass, Category, CostLine
from apps.core.planning_dates import PlanningDateField
from apps.estimates.budget import KINDS
from apps.exchange.rates import has_any_rate, no_rate_message
from apps.exchange.serializers import ExchangeRateSerializer, exchange_rate_representation
from apps.words.currencies import active_currencies


class CostLineSerializer(StrictTypes, serializers.ModelSerializer):
    quantity = serializers.DecimalField(
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        min_value=0,
        coerce_to_string=False,
        help_text="How many units, e.g. 1.5 (FTE) or 20 (TB).",
    )
    unit_price = serializers.DecimalField(
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        min_value=0,
        help_text='In the project\'s currency per unit, as a decimal string ("90000.00"); per '
        "month or per year for a recurring line.",
    )
    annual_escalation = rate("Yearly rise of the unit price, 0.03 for 3 % [0].", required=False)
    budget_class = serializers.ChoiceField(
        choices=BudgetClass.choices,
        allow_null=True,
        required=False,
        help_text="capex or opex; null [the default] lets the capitalisation threshold decide.",
    )
    category = serializers.ChoiceField(
        choices=Category.choices, help_text="UNDG harmonised budget category, 1–7."
    )
    end = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="Last month of a recurring line (null: to the end of the planning period); "
        "null for a one-off line.",
    )
    currency = serializers.ChoiceField(
        choices=active_currencies(),
        required=False,
        help_text="ISO 4217 code the unit price is in [the project's currency]. Another "
        "currency is converted at the project's rate date (a fiscal year's own rate for US "
        "dollars), and the budget's `exchange_rates` lists the rate.",
    )

    class Meta:
        model = CostLine
        fields = (
            "id", "name", "kind", "quantity", "unit", "unit_price", "recurrence", "start", "end",
            "annual_escalation", "budget_class", "category", "basis", "currency",
        )  # fmt: skip

    def to_representation(self, line: CostLine) -> dict:
        data = super().to_representation(line)
        data["budget_class"] = line.budget_class or None
        scenario = self.context.get("scenario") or line.scenario
        data["currency"] = line.currency or scenario.project.currency
        return data

    def validate(self, attrs: dict) -> dict:
        """The model's own checks (full_clean), on the line as it would be saved."""
        if "budget_class" in attrs:
            attrs["budget_class"] = attrs["budget_class"] or ""
        scenario = self.context.get("scenario")
        currency = attrs.get("currency")
        foreign = scenario is not None and currency and currency != scenario.project.currency
        if foreign and not has_any_rate(currency, scenario.project.rate_table):
            raise serializers.ValidationError({"currency": no_rate_message(currency)})
        line = CostLine(scenario=scenario)
        if self.instance is not None:
            for name in self.Meta.fields:
                setattr(line, name, getattr(self.instance, name))
        for name, value in attrs.items():
            setattr(line, name, value)
        try:
            line.full_clean(exclude=["scenario"], validate_unique=False)
        except ModelValidationError as error:
            raise serializers.ValidationError(error.message_dict) from None
        return attrs


# The budget, read from apps.budget.selectors.ScenarioBudget and the engine's Budget.


class FiscalYearSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='"FY2026" or "2025/26", by the project\'s rule.')
    start = serializers.DateField()
    end = serializers.DateField()
    months = serializers.IntegerField(help_text="Months of the year within the period, 1–12.")


def per_year(help_text: str, **kwargs) -> serializers.ListField:
    return serializers.ListField(child=MoneyField(), help_text=help_text, **kwargs)


class BudgetLineSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    budget_class = serializers.ChoiceField(choices=BudgetClass.choices)
    category = serializers.IntegerField(help_text="UNDG harmonised budget category, 1–7.")
    basis = serializers.CharField(help_text="How the figures were arrived at, in words.")
    amounts = per_year("One amount per fiscal year.")
    total = MoneyField()
    currency = serializers.CharField(
        allow_null=True,
        help_text="The currency a line people add was entered in when not the budget's (its "
        "amounts here are converted, at the rate `exchange_rates` lists); null: the budget's.",
    )


class BudgetTotalsSerializer(serializers.Serializer):
    capex = per_year("Capital expenditure, per fiscal year.")
    opex = per_year("Operating expenditure, per fiscal year.")
    contingency = per_year("Contingency on capex and opex, per fiscal year.")
    indirect = per_year("Indirect support costs, per fiscal year.")
    total = per_year("Capex + opex + contingency + indirect, per fiscal year.")


class BudgetMemoSerializer(serializers.Serializer):
    depreciation = per_year("Straight-line depreciation of owned hardware (not cash).")
    energy_kwh = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="Facility energy per fiscal year, kWh; null when power is unknown.",
    )
    emissions_kg_co2e = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="Operational emissions per fiscal year, kg CO2e; null when unknown.",
    )
    embodied_kg_co2e = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="The hardware's embodied emissions spread over each fiscal year's "
        "accelerator-hours, kg CO2e; null when not published for the accelerator.",
    )
    water_litres = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="Water on site and at the power plant per fiscal year, litres; null when not "
        "published for the energy profile.",
    )
    idle_commitment = serializers.ListField(
        child=MoneyField(),
        allow_null=True,
        help_text="Cost of the capacity rented on commitment left idle per fiscal year (inside "
        "its lines already, not added to the totals); null without a commitment.",
    )


class BudgetSummarySerializer(serializers.Serializer):
    upfront = MoneyField(help_text="All capex of the period.")
    annual_run_rate = MoneyField(help_text="Steady-state opex: the last 12 months' opex.")
    total = MoneyField(help_text="Everything over the period.")
    npv = MoneyField(
        help_text="Net present value of the fiscal years' totals: the first fiscal year is "
        "year 0, undiscounted; year k is divided by (1 + discount_rate)^k."
    )
    discount_rate = serializers.FloatField(help_text="A year, as a fraction.")
    prices_as_of = serializers.DateField(
        allow_null=True, help_text="The date of the newest catalogue price used."
    )


class BudgetUncertaintySerializer(UncertaintyResultSerializer):
    """The budget's ranges, in the shape of the estimate's `uncertainty`."""

    figures = serializers.DictField(
        child=MoneyRangeSerializer(),
        help_text="Percentiles of each figure's samples, by its path in this answer: "
        '"summary.total", "summary.upfront", "summary.annual_run_rate", "summary.npv"; '
        '"totals.capex", "totals.opex", "totals.contingency", "totals.indirect" over the '
        'period; "totals.capex.<i>", "totals.opex.<i>", "totals.total.<i>" for fiscal year i '
        "(0: the first). Each sample's budget is drawn up from its own inputs, so a total's "
        "range is never the sum of its parts' ranges.",
    )


class BudgetSerializer(serializers.Serializer):
    """The budget of a scenario; reads a ScenarioBudget."""

    currency = serializers.CharField()
    exchange_rates = serializers.SerializerMethodField(
        help_text="The rates amounts were converted at: the prices' rate (of every fiscal year "
        "without one of its own), then one entry per fiscal year with a rate of its own "
        "(`fiscal_year` names it), then one per other currency a cost line is entered in; "
        "empty when nothing was converted."
    )
    fiscal_years = FiscalYearSerializer(many=True, source="budget.fiscal_years")
    lines = BudgetLineSerializer(many=True, source="budget.lines")
    totals = BudgetTotalsSerializer(source="budget.totals")
    memo = BudgetMemoSerializer(source="budget.memo")
    summary = BudgetSummarySerializer(source="budget.summary")
    notes = serializers.ListField(
        child=serializers.CharField(),
        source="budget.notes",
        help_text="What the budget leaves out and why (training not priced, power unknown…).",
    )
    uncertainty = BudgetUncertaintySerializer(
        source="ranges",
        required=False,
        help_text="Only when the scenario's inputs carry ranges: P5, P50, P95 and mean of the "
        "budget's figures from the scenario's Monte Carlo samples and seed.",
    )

    @extend_schema_field(ExchangeRateSerializer(many=True))
    def get_exchange_rates(self, drawn_up) -> list[dict]:
        exchange = getattr(drawn_up, "exchange", None)
        rates = (*([] if exchange is None else [exchange]), *getattr(drawn_up, "rates", ()))
        return [exchange_rate_representation(rate) for rate in rates]

    def to_representation(self, instance) -> dict:
        data = super().to_representation(instance)
        if data.get("uncertainty") is None:
            del data["uncertainty"]  # without ranges, the answer is as it always was
        return data
