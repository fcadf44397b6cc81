"""Demand measured from actuals, for a scenario re-planned from them: pure arithmetic, no Django.

Requests per month are measured as the usage billed divided by what one planned request uses:
tokens billed (input, cached and output together) ÷ a planned request's tokens where the plan
counts tokens, else inference accelerator-hours billed ÷ a planned request's accelerator-hours.
The new demand starts from the latest full month's requests; its growth per month is the
geometric mean of the last month-on-month ratios (at most GROWTH_RATIOS of them, over
consecutive months with usage): (requests of the latest month ÷ requests n months before)^(1/n)
− 1, and 0 with a single month.
"""

from collections.abc import Mapping
from dataclasses import dataclass

GROWTH_RATIOS = 3
TOKENS, ACCELERATOR_HOURS = "tokens", "accelerator_hours"


@dataclass(frozen=True)
class MeasuredDemand:
    """month: the latest full month with usage (month_index); requests_per_month in that
    month; monthly_growth, compound, fitted over `ratios` month-on-month ratios; basis: what
    the requests were measured from (TOKENS or ACCELERATOR_HOURS)."""

    month: int
    requests_per_month: float
    monthly_growth: float
    ratios: int
    basis: str


def requests_by_month(usage: Mapping[int, float], per_request: float) -> dict[int, float]:
    """Requests each month: the usage billed that month ÷ what one request uses."""
    return {month: used / per_request for month, used in usage.items() if used > 0}


def fitted_growth(requests: Mapping[int, float], latest: int) -> tuple[float, int]:
    """The growth per month and the number of month-on-month ratios it is fitted over (see the
    module): the ratios run back from `latest` over consecutive months with requests."""
    first = latest
    while latest - first < GROWTH_RATIOS and requests.get(first - 1, 0) > 0:
        first -= 1
    ratios = latest - first
    if ratios == 0:
        return 0.0, 0
    return (requests[latest] / requests[first]) ** (1 / ratios) - 1, ratios


def measured_demand(
    usage: Mapping[int, float], per_request: float, *, before: int, basis: str
) -> MeasuredDemand | None:
    """The demand measured from `usage` by month (tokens or accelerator-hours) and what one
    planned request uses of it, from the latest month before `before` (the month in progress,
    not full yet); None without usage in such a month."""
    if per_request <= 0:
        return None
    requests = requests_by_month(
        {month: used for month, used in usage.items() if month < before}, per_request
    )
    if not requests:
        return None
    latest = max(requests)
    growth, ratios = fitted_growth(requests, latest)
    return MeasuredDemand(latest, requests[latest], growth, ratios, basis)
