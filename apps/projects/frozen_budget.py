"""A budget kept as JSON with a version or a submission, and drawn from it again to the cent.

A saved version and a submitted project are frozen: their budget is kept as it was drawn up
(`budget_record`), never drawn up again, so later edits, catalogue prices or the calendar of
today change nothing of what a diff, a share link, an export or the portfolio shows. The record
holds every field of the budget arithmetic's result (apps.estimates.budget.Budget), the currency,
the planning period and, with ranges, the percentiles of its figures and their seed;
`drawn_up_from_record` gives back the same ScenarioBudget, so the pages' presentation
(apps.budget.presentation) and the API's serializer read it unchanged.
"""

from datetime import date
from decimal import Decimal

from apps.api.representation import uncertainty_representation
from apps.budget.selectors import BudgetUnavailable, ScenarioBudget, scenario_budget
from apps.estimates.budget import Budget, BudgetLine, FiscalYear, Memo, Summary, Totals
from apps.projects.models import Scenario
from apps.projects.range_results import uncertainty_from_response

_TOTALS = ("capex", "opex", "contingency_capex", "contingency_opex", "contingency", "indirect")


def _money(values) -> list[str]:
    return [f"{value:.2f}" for value in values]


def _floats(values) -> list[float] | None:
    return None if values is None else [float(value) for value in values]


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def budget_record(drawn_up: ScenarioBudget) -> dict:
    """The budget as plain JSON: money as decimal strings, dates as ISO strings; with its
    ranges' percentiles and seed (as the budget API's `uncertainty`) when it has some."""
    budget = drawn_up.budget
    ranges = drawn_up.uncertainty
    return {
        "currency": drawn_up.currency,
        "period_start": _day(drawn_up.period_start),
        "period_end": _day(drawn_up.period_end),
        "period_is_default": drawn_up.period_is_default,
        "fiscal_years": [
            {"label": y.label, "start": _day(y.start), "end": _day(y.end), "months": y.months}
            for y in budget.fiscal_years
        ],
        "lines": [
            {
                "name": line.name,
                "kind": line.kind,
                "budget_class": line.budget_class,
                "category": line.category,
                "basis": line.basis,
                "amounts": _money(line.amounts),
                "total": f"{line.total:.2f}",
                "share": line.share,
                "computed": line.computed,
            }
            for line in budget.lines
        ],
        "totals": {
            **{name: _money(getattr(budget.totals, name)) for name in _TOTALS},
            "total": _money(budget.totals.total),
        },
        "memo": {
            "depreciation": _money(budget.memo.depreciation),
            "energy_kwh": _floats(budget.memo.energy_kwh),
            "emissions_kg_co2e": _floats(budget.memo.emissions_kg_co2e),
        },
        "summary": {
            "upfront": f"{budget.summary.upfront:.2f}",
            "annual_run_rate": f"{budget.summary.annual_run_rate:.2f}",
            "total": f"{budget.summary.total:.2f}",
            "npv": f"{budget.summary.npv:.2f}",
            "discount_rate": budget.summary.discount_rate,
            "prices_as_of": _day(budget.summary.prices_as_of),
        },
        "notes": list(budget.notes),
        **({} if ranges is None else {"uncertainty": uncertainty_representation(ranges)}),
    }


def scenario_budget_record(scenario: Scenario) -> dict | None:
    """The scenario's budget drawn up now, as a record; None when it cannot be drawn up."""
    try:
        return budget_record(scenario_budget(scenario))
    except BudgetUnavailable:
        return None


def _amounts(values: list[str]) -> tuple[Decimal, ...]:
    return tuple(Decimal(value) for value in values)


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def budget_from_record(record: dict) -> Budget:
    """The budget arithmetic's result, exactly as it was when `record` was kept."""
    totals, memo, summary = record["totals"], record["memo"], record["summary"]
    return Budget(
        fiscal_years=tuple(
            FiscalYear(y["label"], _date(y["start"]), _date(y["end"]), y["months"])
            for y in record["fiscal_years"]
        ),
        lines=tuple(
            BudgetLine(
                name=line["name"],
                kind=line["kind"],
                budget_class=line["budget_class"],
                category=line["category"],
                basis=line["basis"],
                amounts=_amounts(line["amounts"]),
                total=Decimal(line["total"]),
                share=line["share"],
                computed=line["computed"],
            )
            for line in record["lines"]
        ),
        totals=Totals(
            **{name: _amounts(totals[name]) for name in _TOTALS},
            total=_amounts(totals["total"]),
        ),
        memo=Memo(
            depreciation=_amounts(memo["depreciation"]),
            energy_kwh=None if memo["energy_kwh"] is None else tuple(memo["energy_kwh"]),
            emissions_kg_co2e=(
                None if memo["emissions_kg_co2e"] is None else tuple(memo["emissions_kg_co2e"])
            ),
        ),
        summary=Summary(
            upfront=Decimal(summary["upfront"]),
            annual_run_rate=Decimal(summary["annual_run_rate"]),
            total=Decimal(summary["total"]),
            npv=Decimal(summary["npv"]),
            discount_rate=summary["discount_rate"],
            prices_as_of=_date(summary["prices_as_of"]),
        ),
        notes=tuple(record["notes"]),
    )


def drawn_up_from_record(record: dict, scenario: Scenario | None = None) -> ScenarioBudget:
    """The ScenarioBudget a record was kept from (its scenario as given: it is not stored)."""
    return ScenarioBudget(
        scenario=scenario,
        currency=record["currency"],
        budget=budget_from_record(record),
        period_start=_date(record["period_start"]),
        period_end=_date(record["period_end"]),
        period_is_default=record["period_is_default"],
        uncertainty=uncertainty_from_response(record, is_money=lambda path: True),
    )
