"""What a saved version, a submission or a share link keeps of the engine's answers, as one
object each, for the record codec (apps.estimates.record) to store and load again."""

from dataclasses import dataclass, field
from datetime import date

from apps.estimates.budget.results import Budget
from apps.estimates.currency import ExchangeRate
from apps.estimates.options import ApiPricing, OptionsComparison, OptionsUncertainty
from apps.estimates.results import EstimateResult
from apps.estimates.uncertainty import UncertaintyResult


@dataclass(frozen=True)
class KeptEstimate:
    """An estimate as saved: the catalogue's notes first in each section's assumptions, and
    with ranges on its inputs the percentiles of its figures (with the cost fan)."""

    result: EstimateResult
    ranges: UncertaintyResult | None = None
    # The rate its prices were converted at (value, date, source), pinned; None: not converted.
    exchange: ExchangeRate | None = None


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
    exchange: ExchangeRate | None = None  # the rate prices were converted at, pinned
    # The other rates used, pinned: each fiscal year's own rate, each cost line's currency's.
    rates: tuple[ExchangeRate, ...] = ()


@dataclass(frozen=True)
class KeptOptions:
    """The decision view as compared when saved: the options (without the lines their ranges
    were worked out from), on the planning period and discount rate (a fraction a year) they
    were compared on, in the project's currency; the catalogue price each external API option
    was costed at and the default options that could not be estimated with why (each by option
    key, the reasons by input); with ranges, the options' percentiles and how often each is
    the cheapest."""

    currency: str
    comparison: OptionsComparison
    period_start: date
    period_end: date
    discount_rate: float
    api_prices: dict[str, ApiPricing] = field(default_factory=dict)
    unavailable: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    ranges: OptionsUncertainty | None = None
    exchange: ExchangeRate | None = None  # the rate prices were converted at, pinned
