"""What a saved version, a submission or a share link keeps of the engine's answers, as one
object each, for the record codec (apps.estimates.record) to store and load again."""

from dataclasses import dataclass
from datetime import date

from apps.estimates.budget.results import Budget
from apps.estimates.results import EstimateResult
from apps.estimates.uncertainty import UncertaintyResult


@dataclass(frozen=True)
class KeptEstimate:
    """An estimate as saved: the catalogue's notes first in each section's assumptions, and
    with ranges on its inputs the percentiles of its figures (with the cost fan)."""

    result: EstimateResult
    ranges: UncertaintyResult | None = None


@dataclass(frozen=True)
class KeptBudget:
    """A budget as drawn up when saved or submitted, with its currency and planning period
    (`period_is_default`: the project set none) and, with ranges, its figures' percentiles
    (money, by their path in the budget API's answer: "summary.total", "totals.total.0")."""

    currency: str
    budget: Budget
    period_start: date | None
    period_end: date | None
    period_is_default: bool
    ranges: UncertaintyResult | None = None
