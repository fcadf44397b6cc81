"""Fiscal calendar of a budget: the planning period in whole months, cut into fiscal years."""

from dataclasses import dataclass
from datetime import date, timedelta

from apps.estimates.messages import Message, _

LABEL_RULES = ("end_year", "start_end")


def month_index(day: date) -> int:
    """A calendar month as one integer (year × 12 + month − 1), so months add and subtract."""
    return day.year * 12 + day.month - 1


def month_start(index: int) -> date:
    """The first day of the month `index` (see `month_index`)."""
    return date(index // 12, index % 12 + 1, 1)


def month_end(index: int) -> date:
    """The last day of the month `index` (see `month_index`)."""
    return month_start(index + 1) - timedelta(days=1)


@dataclass(frozen=True)
class FiscalCalendar:
    """How an organisation cuts time into fiscal years, and the period a budget covers.

    start_month: the month (1 = January … 12 = December) in which each fiscal year begins.
    label_rule: "end_year" names a fiscal year by the calendar year in which it ends ("FY2026"
    for October 2025 – September 2026; a January-start year by its own year); "start_end" by the
    years it spans ("2025/26"; a January-start year by its own year alone, "2026").
    period_start, period_end: the planning period, in whole calendar months: a date in the middle
    of a month counts as that whole month, so 15 March – 10 June covers March to June.
    """

    start_month: int
    label_rule: str
    period_start: date
    period_end: date


@dataclass(frozen=True)
class FiscalYear:
    """One fiscal year within the planning period.

    start and end are the first and last day of the months it holds; a partial first or last
    year holds only its months within the period (months < 12), and its label is still that of
    the whole fiscal year.
    """

    label: str
    start: date
    end: date
    months: int


class CalendarError(ValueError):
    """A calendar no fiscal year can be drawn from; `errors` maps its fields to plain messages,
    which the edges translate."""

    def __init__(self, errors: dict[str, list[Message]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(m)}" for key, m in errors.items()))


def calendar_errors(calendar: FiscalCalendar) -> dict[str, list[Message]]:
    """Plain-language problems of a calendar, by field name; empty when it is valid."""
    errors: dict[str, list[Message]] = {}
    if type(calendar.start_month) is not int or not 1 <= calendar.start_month <= 12:
        errors["start_month"] = [_("The fiscal year starts in a month from 1 (January) to 12.")]
    if calendar.label_rule not in LABEL_RULES:
        errors["label_rule"] = [
            _("Choose how fiscal years are named: %(rules)s.", rules=", ".join(LABEL_RULES))
        ]
    for field in ("period_start", "period_end"):
        if not isinstance(getattr(calendar, field), date):
            errors[field] = [_("The planning period needs a start and an end date.")]
    dated = "period_start" not in errors and "period_end" not in errors
    if dated and month_index(calendar.period_end) < month_index(calendar.period_start):
        errors["period_end"] = [_("The planning period must end after it starts.")]
    return errors


def fiscal_year_start(calendar: FiscalCalendar, index: int) -> int:
    """The first month (as a `month_index`) of the whole fiscal year holding month `index`."""
    return index - (index % 12 - (calendar.start_month - 1)) % 12


def fiscal_year_label(calendar: FiscalCalendar, first_month: int) -> str:
    """The label of the fiscal year whose first month is `first_month` (a `month_index`)."""
    start_year = month_start(first_month).year
    end_year = month_start(first_month + 11).year
    if calendar.label_rule == "end_year":
        return f"FY{end_year}"
    if start_year == end_year:
        return str(end_year)
    return f"{start_year}/{end_year % 100:02d}"


def fiscal_years(calendar: FiscalCalendar) -> tuple[FiscalYear, ...]:
    """The fiscal years of the planning period, in order; raises CalendarError on a bad one."""
    errors = calendar_errors(calendar)
    if errors:
        raise CalendarError(errors)
    first, last = month_index(calendar.period_start), month_index(calendar.period_end)
    years = []
    year_start = fiscal_year_start(calendar, first)
    while year_start <= last:
        start, end = max(first, year_start), min(last, year_start + 11)
        years.append(
            FiscalYear(
                label=fiscal_year_label(calendar, year_start),
                start=month_start(start),
                end=month_end(end),
                months=end - start + 1,
            )
        )
        year_start += 12
    return tuple(years)


class PeriodMonths:
    """The planning period's months (as `month_index`) and the fiscal year each one falls in."""

    def __init__(self, years: tuple[FiscalYear, ...]) -> None:
        self.first = month_index(years[0].start)
        self.last = month_index(years[-1].end)
        self.year_count = len(years)
        self.year_of = {
            month: position
            for position, year in enumerate(years)
            for month in range(month_index(year.start), month_index(year.end) + 1)
        }

    def __contains__(self, month: int) -> bool:
        return self.first <= month <= self.last
