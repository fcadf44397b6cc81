"""A budget kept with a version or a submission, and drawn from it again to the cent.

A saved version and a submitted project are frozen: their budget is kept as it was drawn up
(`budget_record`, a record of apps.estimates.kept.KeptBudget), never drawn up again, so later
edits, catalogue prices or the calendar of today change nothing of what a diff, a share link,
an export or the portfolio shows. `drawn_up_from_record` gives back the same ScenarioBudget, so
the pages' presentation (apps.budget.presentation) and the API's serializer read it unchanged.
"""

from apps.budget.selectors import BudgetUnavailable, ScenarioBudget, scenario_budget
from apps.estimates.budget import Budget
from apps.estimates.kept import KeptBudget
from apps.estimates.record import dump, load
from apps.projects.models import Scenario


def budget_record(drawn_up: ScenarioBudget) -> dict:
    """The budget drawn up, with its currency, period and ranges, as a record."""
    return dump(
        KeptBudget(
            currency=drawn_up.currency,
            budget=drawn_up.budget,
            period_start=drawn_up.period_start,
            period_end=drawn_up.period_end,
            period_is_default=drawn_up.period_is_default,
            ranges=drawn_up.uncertainty,
        )
    )


def scenario_budget_record(scenario: Scenario) -> dict | None:
    """The scenario's budget drawn up now, as a record; None when it cannot be drawn up."""
    try:
        return budget_record(scenario_budget(scenario))
    except BudgetUnavailable:
        return None


def kept_budget(record: dict) -> KeptBudget:
    return load(record, KeptBudget)


def budget_from_record(record: dict) -> Budget:
    """The budget arithmetic's result, exactly as it was when `record` was kept."""
    return kept_budget(record).budget


def drawn_up_from_record(record: dict, scenario: Scenario | None = None) -> ScenarioBudget:
    """The ScenarioBudget a record was kept from (its scenario as given: it is not stored)."""
    kept = kept_budget(record)
    return ScenarioBudget(
        scenario=scenario,
        currency=kept.currency,
        budget=kept.budget,
        period_start=kept.period_start,
        period_end=kept.period_end,
        period_is_default=kept.period_is_default,
        uncertainty=kept.ranges,
    )
