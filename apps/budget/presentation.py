"""The budget as the pages draw it: the table's rows, the chart's data, the summary strip."""

from dataclasses import dataclass
from decimal import Decimal
from itertools import groupby

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.budget.fiscal_labels import fiscal_year_text
from apps.budget.kept import drawn_up_from_record, version_budget
from apps.budget.line_templates import LINE_TEMPLATES
from apps.budget.models import BudgetClass, Category, CostLine, Kind
from apps.budget.ranges import budget_ranges, chart_range
from apps.budget.selectors import BudgetUnavailable, ScenarioBudget, cost_lines_of, scenario_budget
from apps.catalogue.snapshot import Catalogue
from apps.projects.models import Scenario, ScenarioVersion
from apps.words.currencies import rate_text
from apps.words.messages import message_text, message_texts

COMPUTED_KIND_LABELS = {
    "training_compute": gettext_lazy("Training compute"),
    "inference_compute": gettext_lazy("Inference compute"),
    "hardware_purchase": gettext_lazy("Owned accelerators"),
    "hardware_power": gettext_lazy("Power and cooling of owned hardware"),
}
KIND_LABELS = {**COMPUTED_KIND_LABELS, **dict(Kind.choices)}
CLASS_LABELS = {"capex": gettext_lazy("Capex"), "opex": gettext_lazy("Opex")}


@dataclass(frozen=True)
class Row:
    """One row of the budget table: a line, or a subtotal, contingency, indirect or total."""

    label: str
    amounts: tuple[Decimal, ...]
    total: Decimal
    share: float | None = None
    budget_class: str = ""
    category: str = ""  # its UNDG number and name
    basis: str = ""
    kind: str = ""  # "line", "subtotal", "total"
    entered: str = ""  # a line entered in another currency: which, and the rate it is at


def rates_by_currency(drawn_up: ScenarioBudget) -> dict[str, str]:
    """The sentence of the rate each currency a line may be entered in is converted at, by
    its code: the prices' rate for US dollars, each other currency's rate."""
    rates = (
        {} if drawn_up.exchange is None else {drawn_up.exchange.from_currency: drawn_up.exchange}
    )
    rates.update({rate.from_currency: rate for rate in drawn_up.rates if rate.fiscal_year is None})
    return {code: rate_text(rate) for code, rate in rates.items()}


def rate_sentences(drawn_up: ScenarioBudget) -> list[str]:
    """Every rate the budget's amounts were converted at, as the page says them: the prices'
    rate, each fiscal year's own ("FY2028: 1 USD = 0.9500 EUR (…)"), each line currency's."""
    sentences = [] if drawn_up.exchange is None else [rate_text(drawn_up.exchange)]
    for rate in drawn_up.rates:
        if rate.fiscal_year is None:
            sentences.append(rate_text(rate))
        else:
            sentences.append(
                _("%(year)s: %(rate)s")
                % {"year": fiscal_year_text(rate.fiscal_year), "rate": rate_text(rate)}
            )
    return sentences


def _entered(currency: str | None, rates: dict[str, str]) -> str:
    if currency is None:
        return ""
    return _("Entered in %(currency)s: %(rate)s") % {
        "currency": currency,
        "rate": rates.get(currency, ""),
    }


def _share(amount: Decimal, grand_total: Decimal) -> float | None:
    return float(amount / grand_total) if grand_total else None


def table(drawn_up: ScenarioBudget) -> dict:
    """The rows of the budget table: lines grouped by kind, then the rows below them."""
    budget = drawn_up.budget
    grand_total = budget.summary.total
    rates = rates_by_currency(drawn_up)
    groups = []
    for kind, lines in groupby(budget.lines, key=lambda line: line.kind):
        groups.append(
            {
                "kind": kind,
                "label": KIND_LABELS.get(kind, kind),
                "rows": [
                    Row(
                        label=message_text(line.name) if line.computed else line.name,
                        amounts=line.amounts,
                        total=line.total,
                        share=line.share,
                        budget_class=CLASS_LABELS[line.budget_class],
                        category=Category(line.category).label,
                        basis=message_text(line.basis) if line.computed else line.basis,
                        kind="line",
                        entered=_entered(line.currency, rates),
                    )
                    for line in lines
                ],
            }
        )
    totals = budget.totals

    def row(label: str, amounts: tuple[Decimal, ...], kind: str = "subtotal") -> Row:
        total = sum(amounts, Decimal("0.00"))
        return Row(label, amounts, total, _share(total, grand_total), kind=kind)

    below = [
        row(_("Subtotal capex"), totals.capex),
        row(_("Subtotal opex"), totals.opex),
        row(_("Contingency on capex"), totals.contingency_capex),
        row(_("Contingency on opex"), totals.contingency_opex),
        row(_("Indirect support costs"), totals.indirect),
        row(_("Total"), totals.total, kind="total"),
    ]
    memo = budget.memo
    return {
        "groups": groups,
        "below": below,
        "rates": rate_sentences(drawn_up),
        "notes": message_texts(budget.notes),
        "memo": {
            "depreciation": memo.depreciation,
            "depreciation_total": sum(memo.depreciation, Decimal("0.00")),
            "energy_kwh": memo.energy_kwh,
            "energy_total": sum(memo.energy_kwh) if memo.energy_kwh is not None else None,
            "emissions": memo.emissions_kg_co2e,
            "emissions_total": (
                sum(memo.emissions_kg_co2e) if memo.emissions_kg_co2e is not None else None
            ),
            "embodied": memo.embodied_kg_co2e,
            "embodied_total": None if memo.embodied_kg_co2e is None else sum(memo.embodied_kg_co2e),
            "water": memo.water_litres,
            "water_total": None if memo.water_litres is None else sum(memo.water_litres),
            "idle_commitment": memo.idle_commitment,
            "idle_commitment_total": None
            if memo.idle_commitment is None
            else sum(memo.idle_commitment, Decimal("0.00")),
        },
    }


def _above_subtotals(drawn_up: ScenarioBudget) -> list[Decimal]:
    """Each fiscal year's contingency and indirect costs: what its total adds to capex + opex."""
    totals = drawn_up.budget.totals
    return [
        contingency + indirect
        for contingency, indirect in zip(totals.contingency, totals.indirect, strict=True)
    ]


def chart(drawn_up: ScenarioBudget) -> dict:
    """The stacked bar chart's data: capex and opex per fiscal year (as numbers, for Chart.js),
    then contingency and indirect costs when there are any, so that each bar is the year's
    total; with its labels, and the whiskers of the years' totals when there are ranges. The
    page's data tables give the same figures."""
    budget = drawn_up.budget
    above = _above_subtotals(drawn_up)
    return {
        "labels": [fiscal_year_text(year.label) for year in budget.fiscal_years],
        "capex": [float(amount) for amount in budget.totals.capex],
        "opex": [float(amount) for amount in budget.totals.opex],
        "above": [float(amount) for amount in above] if any(above) else None,
        "capex_label": str(BudgetClass.CAPEX.label),
        "opex_label": str(BudgetClass.OPEX.label),
        "above_label": _("Contingency and indirect costs"),
        "unit": drawn_up.currency,
        "range": chart_range(drawn_up),
    }


def chart_rows(drawn_up: ScenarioBudget) -> list[dict]:
    """The chart's table: capex, opex, contingency and indirect costs, and the year's total."""
    budget = drawn_up.budget
    return [
        {
            "label": fiscal_year_text(year.label),
            "capex": capex,
            "opex": opex,
            "above": above,
            "total": total,
        }
        for year, capex, opex, above, total in zip(
            budget.fiscal_years,
            budget.totals.capex,
            budget.totals.opex,
            _above_subtotals(drawn_up),
            budget.totals.total,
            strict=True,
        )
    ]


def budget_section(
    scenario: Scenario,
    *,
    catalogue: Catalogue | None = None,
    lines: list[CostLine] | None = None,
    origin: str = "scenario",
    ranges: bool = True,
    version: ScenarioVersion | None = None,
) -> dict:
    """Everything the budget section of a page needs: the budget (or why there is none), its
    table and chart, the cost lines and the templates to add more from; with the ranges of its
    figures when the scenario's inputs carry some (and `ranges` is left on). The budget is the
    one `version` kept, when it is given (the scenario's latest, still current: see
    apps.projects.versions.current_version) and kept one; else it is drawn up now."""
    lines = cost_lines_of(scenario) if lines is None else lines
    context = {
        "scenario": scenario,
        "project": scenario.project,
        "cost_lines": lines,
        "line_templates": list(LINE_TEMPLATES.values()),
        "origin": origin,
        "show_lines": True,
        "show_chart": True,
    }
    kept = version_budget(version) if version is not None and ranges else None
    try:
        drawn_up = (
            drawn_up_from_record(kept, scenario)
            if kept
            else scenario_budget(scenario, catalogue=catalogue, lines=lines, ranges=ranges)
        )
    except BudgetUnavailable as error:
        context["budget_error"] = error.reason()
        return context
    rates = rates_by_currency(drawn_up)
    for line in lines:
        # Beside a price quoted in its own currency, the rate it is converted at.
        line.rate_sentence = rates.get(line.currency, "") if line.currency else ""
    context.update(
        budget=drawn_up,
        table=table(drawn_up),
        budget_chart=chart(drawn_up),
        budget_chart_rows=chart_rows(drawn_up),
        budget_ranges=budget_ranges(drawn_up),
    )
    return context


def scenario_totals(scenarios: list[Scenario]) -> dict:
    """Set each scenario's `budget_total` (None when its budget cannot be drawn up) and return
    the baseline's budget section without its line forms, for the project page. The scenarios
    come with their project and their cost lines prefetched (`prefetch_related("cost_lines")`)."""
    catalogue = Catalogue.load()
    baseline: dict = {}
    for scenario in scenarios:
        # The project page shows the baseline's budget, so only its ranges are sampled.
        section = budget_section(
            scenario,
            catalogue=catalogue,
            lines=list(scenario.cost_lines.all()),
            ranges=scenario.is_baseline,
        )
        drawn_up = section.get("budget")
        scenario.budget_total = drawn_up.budget.summary.total if drawn_up else None
        if scenario.is_baseline:
            baseline = {**section, "show_lines": False, "show_chart": False}
    return baseline
