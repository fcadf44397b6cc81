"""Fiscal years of a planning period: labels, partial first and last years, whole months."""

from datetime import date

import pytest

from apps.estimates.budget import FiscalCalendar, FiscalYear, fiscal_years


def labels(start_month: int, rule: str, start: date, end: date) -> list[str]:
    return [year.label for year in fiscal_years(FiscalCalendar(start_month, rule, start, end))]


def test_an_october_year_is_named_by_the_calendar_year_in_which_it_ends():
    years = fiscal_years(FiscalCalendar(10, "end_year", date(2025, 10, 1), date(2027, 9, 30)))
    assert years == (
        FiscalYear("FY2026", date(2025, 10, 1), date(2026, 9, 30), 12),
        FiscalYear("FY2027", date(2026, 10, 1), date(2027, 9, 30), 12),
    )


def test_an_april_year_spans_two_calendar_years_in_the_start_end_rule():
    assert labels(4, "start_end", date(2025, 4, 1), date(2027, 3, 31)) == ["2025/26", "2026/27"]
    assert labels(4, "end_year", date(2025, 4, 1), date(2027, 3, 31)) == ["FY2026", "FY2027"]


def test_a_january_year_is_named_by_its_own_year_in_both_rules():
    assert labels(1, "end_year", date(2026, 1, 1), date(2027, 12, 31)) == ["FY2026", "FY2027"]
    assert labels(1, "start_end", date(2026, 1, 1), date(2027, 12, 31)) == ["2026", "2027"]


def test_the_century_turn_keeps_two_digits_in_the_start_end_rule():
    assert labels(7, "start_end", date(2099, 7, 1), date(2100, 6, 30)) == ["2099/00"]


def test_partial_first_and_last_years_hold_only_their_months_in_the_period():
    years = fiscal_years(FiscalCalendar(4, "end_year", date(2026, 1, 1), date(2027, 5, 31)))
    assert years == (
        FiscalYear("FY2026", date(2026, 1, 1), date(2026, 3, 31), 3),
        FiscalYear("FY2027", date(2026, 4, 1), date(2027, 3, 31), 12),
        FiscalYear("FY2028", date(2027, 4, 1), date(2027, 5, 31), 2),
    )


def test_a_mid_month_start_and_end_count_as_whole_months():
    years = fiscal_years(FiscalCalendar(1, "end_year", date(2026, 3, 15), date(2026, 6, 10)))
    assert years == (FiscalYear("FY2026", date(2026, 3, 1), date(2026, 6, 30), 4),)


def test_a_period_within_one_month_is_one_partial_year():
    years = fiscal_years(FiscalCalendar(10, "end_year", date(2026, 2, 3), date(2026, 2, 20)))
    assert years == (FiscalYear("FY2026", date(2026, 2, 1), date(2026, 2, 28), 1),)


def test_leap_february_ends_on_the_29th():
    years = fiscal_years(FiscalCalendar(3, "end_year", date(2027, 3, 1), date(2028, 2, 1)))
    assert years == (FiscalYear("FY2028", date(2027, 3, 1), date(2028, 2, 29), 12),)


@pytest.mark.parametrize(
    ("calendar", "message"),
    [
        (FiscalCalendar(13, "end_year", date(2026, 1, 1), date(2026, 12, 31)), "start_month"),
        (FiscalCalendar(1, "fiscal", date(2026, 1, 1), date(2026, 12, 31)), "label_rule"),
        (FiscalCalendar(1, "end_year", date(2026, 5, 1), date(2026, 4, 30)), "period_end"),
        (FiscalCalendar(1, "end_year", None, date(2026, 4, 30)), "period_start"),
    ],
)
def test_a_bad_calendar_is_refused_naming_its_field(calendar: FiscalCalendar, message: str):
    with pytest.raises(ValueError, match=message):
        fiscal_years(calendar)
