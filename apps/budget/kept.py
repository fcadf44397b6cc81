"""A budget kept with a version or a submission, and read back from it to the cent.

A saved version and a submitted project are frozen: their budget is kept as it was drawn up
(`drawn_up_record`, a record of apps.estimates.kept.KeptBudget), never drawn up again, so later
edits, catalogue prices or the calendar of today change nothing of what a diff, a share link, an
export or the portfolio shows. `drawn_up_from_record` gives back the same ScenarioBudget, so the
pages' presentation (apps.budget.presentation) and the API's serializer read it unchanged.
"""

from dataclasses import fields

from apps.budget.ranges import RangePair, range_pairs
from apps.budget.records import budget_record
from apps.budget.selectors import BudgetUnavailable, ScenarioBudget, scenario_budget
from apps.estimates import EstimateResult
from apps.estimates.budget import Budget, BudgetDiff, budget_diff
from apps.estimates.kept import KeptBudget, KeptEstimate
from apps.estimates.record import dump, load

# What a ScenarioBudget keeps: every field of the same name but its scenario.
KEPT_FIELDS = tuple(field.name for field in fields(KeptBudget))


def drawn_up_record(drawn_up: ScenarioBudget) -> dict:
    """The budget drawn up, with its currency, period and ranges, as a record."""
    return dump(KeptBudget(**{name: getattr(drawn_up, name) for name in KEPT_FIELDS}))


def version_part(scenario, kept: KeptEstimate) -> dict:
    """What a version keeps of the budget (apps.projects.versions): its inputs, and the budget
    drawn up now from the estimate it keeps (None when it cannot be)."""
    return {**budget_record(scenario), "drawn_up": scenario_budget_record(scenario, kept.result)}


def versions_context(old, new) -> dict:
    """The budget's part of the page that compares two versions."""
    old_budget, new_budget = version_budget(old), version_budget(new)
    return {
        "budget_diff": budget_changes(old_budget, new_budget),
        "budget_ranges": budget_range_changes(old_budget, new_budget),
    }


def scenario_budget_record(scenario, result: EstimateResult | None = None) -> dict | None:
    """The scenario's budget drawn up now (from `result`, its estimate, when given), as a
    record; None when it cannot be drawn up."""
    try:
        return drawn_up_record(scenario_budget(scenario, result=result))
    except BudgetUnavailable:
        return None


def kept_budget(record: dict) -> KeptBudget:
    return load(record, KeptBudget)


def budget_from_record(record: dict) -> Budget:
    """The budget arithmetic's result, exactly as it was when `record` was kept."""
    return kept_budget(record).budget


def drawn_up_from_record(record: dict, scenario=None) -> ScenarioBudget:
    """The ScenarioBudget a record was kept from (its scenario as given: it is not stored)."""
    kept = kept_budget(record)
    return ScenarioBudget(scenario=scenario, **{name: getattr(kept, name) for name in KEPT_FIELDS})


def version_budget(version) -> dict | None:
    """The budget record saved with a version (None before versions kept one)."""
    return (version.budget or {}).get("drawn_up")


def budget_changes(old: dict | None, new: dict | None) -> BudgetDiff | None:
    """Previous / new / difference per budget line and fiscal year, from two budget records
    (`drawn_up_record`: a version's `budget["drawn_up"]`, a snapshot's `budget`); None
    when either has no budget (it could not be drawn up, or was saved before budgets were)."""
    if not old or not new:
        return None
    return budget_diff(budget_from_record(old), budget_from_record(new))


def budget_range_changes(old: dict | None, new: dict | None) -> list[RangePair]:
    """The budget's headline ranges as two budget records kept them (their percentiles and
    seed, never sampled again); empty when neither has ranges."""
    return range_pairs(*(drawn_up_from_record(record) if record else None for record in (old, new)))
