"""Forecast of a fiscal year's outturn from actuals and plan: pure arithmetic, no Django.

Months are `month_index` numbers (year × 12 + month − 1, apps.estimates.budget.fiscal); money is
Decimal in the project's currency, summed exactly and rounded to the cent once, at the edge.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.estimates.money import to_money

ZERO = Decimal(0)
# The run rate is the mean of the last months with actuals, at most this many.
RUN_RATE_MONTHS = 3


@dataclass(frozen=True)
class YearForecast:
    """One fiscal year's outturn forecast.

    actual_to_date: the actuals of the year's months up to and including `through`.
    by_plan: actual_to_date + the plan of the year's months after `through`.
    run_rate: the mean monthly actual of the last `RUN_RATE_MONTHS` months up to `through`
    (fewer where fewer months have passed); None without any month of actuals.
    by_run_rate: actual_to_date + run_rate × the year's months after `through`; None without a
    run rate. runs_out: the first month (month_index) in which the year's cumulative spend,
    actuals then the run rate, exceeds the year's budget; None if it does not within the year.
    """

    actual_to_date: Decimal
    by_plan: Decimal
    run_rate: Decimal | None
    by_run_rate: Decimal | None
    runs_out: int | None


def run_rate(actual: Mapping[int, Decimal], through: int, first: int) -> Decimal | None:
    """Mean monthly actual over the last RUN_RATE_MONTHS months up to `through`, none before
    `first` (the first month of the project's actuals); None when `through` < `first`."""
    if through < first:
        return None
    months = range(max(first, through - RUN_RATE_MONTHS + 1), through + 1)
    return sum((actual.get(month, ZERO) for month in months), ZERO) / len(months)


def year_forecast(
    months: Sequence[int],
    plan: Mapping[int, Decimal],
    actual: Mapping[int, Decimal],
    *,
    through: int | None,
    first_actual: int | None,
    budget: Decimal,
) -> YearForecast:
    """The outturn of the fiscal year made of `months` (in order), two ways (see YearForecast).

    through: the last month the actuals cover (None: no actuals yet, so the forecast is the
    plan); first_actual: the first month with actuals; budget: the year's planned total.
    """
    through = months[0] - 1 if through is None else through
    passed = [month for month in months if month <= through]
    left = [month for month in months if month > through]
    to_date = sum((actual.get(month, ZERO) for month in passed), ZERO)
    by_plan = to_date + sum((plan.get(month, ZERO) for month in left), ZERO)
    rate = None if first_actual is None else run_rate(actual, through, first_actual)
    by_rate = None if rate is None else to_date + rate * len(left)
    runs_out = None
    cumulative = ZERO
    for month in months:
        if month <= through:
            cumulative += actual.get(month, ZERO)
        elif rate is not None:
            cumulative += rate
        else:
            break
        if cumulative > budget:
            runs_out = month
            break
    return YearForecast(
        actual_to_date=to_money(to_date),
        by_plan=to_money(by_plan),
        run_rate=None if rate is None else to_money(rate),
        by_run_rate=None if by_rate is None else to_money(by_rate),
        runs_out=runs_out,
    )


def variance_share(plan: Decimal, actual: Decimal) -> float | None:
    """(actual − plan) / plan: 0.1 is 10 % over plan; None where nothing was planned."""
    return None if plan == 0 else float((actual - plan) / plan)
