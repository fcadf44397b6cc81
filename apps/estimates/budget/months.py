"""When an estimate's costs fall in a budget: training's end, the service's start, training's
hours in each month, and an amount split over months in whole cents."""

import math
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from decimal import ROUND_FLOOR, Decimal

from apps.estimates.budget.fiscal import PeriodMonths, month_index, month_start
from apps.estimates.budget.lines import decimal
from apps.estimates.money import CENT

ZERO = Decimal("0.00")
_HOUR = timedelta(hours=1)


def training_end(training_start: date, wall_clock_hours: float) -> datetime | None:
    """When training ends: `wall_clock_hours` after midnight of its start day; None past 9999."""
    try:
        return datetime(training_start.year, training_start.month, training_start.day) + (
            wall_clock_hours * _HOUR
        )
    except OverflowError:
        return None


def default_service_start(training_start: date, wall_clock_hours: float | None) -> date | None:
    """The service starts on the first day of the month after training ends (None past 9999).

    Without training (wall_clock_hours None) it starts on `training_start`, the start of work.
    """
    if wall_clock_hours is None:
        return training_start
    ends = training_end(training_start, wall_clock_hours)
    if ends is None or (ends.year, ends.month) == (9999, 12):
        return None
    # A training that ends at midnight on the 1st is over before that month begins.
    last_month = month_index(ends.date()) - (ends.day == 1 and ends.time() == datetime.min.time())
    return month_start(max(last_month, month_index(training_start)) + 1)


def training_hours_by_month(
    start: date, wall_clock_hours: float, period: PeriodMonths
) -> tuple[list[tuple[int, float]], float]:
    """Wall-clock hours of training in each month of the period, and the hours outside it.

    Hours count from midnight of the start day on the real calendar (a February has 672 h). A
    training of no hours counts as one hour in its start month, so its (zero) cost has a place.
    """
    first_month = month_index(start)
    if wall_clock_hours == 0:
        return ([(first_month, 1.0)], 0.0) if first_month in period else ([], 1.0)
    origin = datetime(start.year, start.month, start.day)

    def hours_to(month: int) -> float:
        # Hours from the start to the first moment of `month`; negative before the start.
        if month // 12 > 9999:
            return math.inf
        return (datetime(month // 12, month % 12 + 1, 1) - origin) / _HOUR

    inside = []
    for month in range(max(period.first, first_month), period.last + 1):
        begins = max(hours_to(month), 0.0)
        if begins >= wall_clock_hours:
            break
        inside.append((month, min(hours_to(month + 1), wall_clock_hours) - begins))
    return inside, max(wall_clock_hours - sum(hours for _, hours in inside), 0.0)


def spread(amount: Decimal, weights: Sequence[float]) -> list[Decimal]:
    """Split an amount in cents in proportion to weights, by largest remainder.

    Each part is a whole number of cents and the parts add up to `amount` exactly; the cents
    left after rounding every part down go to the parts with the largest remainders (the
    earliest first on a tie). All of it goes to the first part when the weights are all zero.
    """
    cents = int((amount / CENT).to_integral_value())
    scaled = [decimal(weight) for weight in weights]
    whole = sum(scaled, Decimal(0))
    if whole == 0:
        return [amount if index == 0 else ZERO for index in range(len(weights))]
    exact = [cents * weight / whole for weight in scaled]
    parts = [int(share.to_integral_value(rounding=ROUND_FLOOR)) for share in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (parts[i] - exact[i], i))
    for index in by_remainder[: cents - sum(parts)]:
        parts[index] += 1
    return [part * CENT for part in parts]
