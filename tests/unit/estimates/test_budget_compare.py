"""A budget's changes between versions, and budgets summed into a portfolio."""

from datetime import date
from decimal import Decimal

from apps.estimates.budget import (
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    budget,
    budget_diff,
    portfolio,
)

CALENDAR = FiscalCalendar(4, "start_end", date(2026, 4, 1), date(2028, 3, 31))


def line(name: str, kind: str = "staff", price: str = "100", **fields) -> CostLineInput:
    defaults = {
        "quantity": 1,
        "unit": "FTE-month",
        "recurrence": "monthly",
        "start": date(2026, 4, 1),
        "category": 1,
    }
    return CostLineInput(name, kind, unit_price=Decimal(price), **(defaults | fields))


def test_the_diff_shows_previous_new_and_difference_per_line_and_fiscal_year():
    previous = budget(CALENDAR, BudgetRules(), [line("Engineer"), line("Seats", "licence")])
    new = budget(
        CALENDAR,
        BudgetRules(contingency_opex=0.1),
        [line("Engineer", price="110"), line("Storage", "storage", price="5")],
    )
    diff = budget_diff(previous, new)
    assert diff.fiscal_years == ("2026/27", "2027/28")
    engineer, storage, seats = diff.lines
    assert (engineer.name, engineer.changed) == ("Engineer", True)
    assert engineer.previous == (Decimal("1200.00"), Decimal("1200.00"))
    assert engineer.new == (Decimal("1320.00"), Decimal("1320.00"))
    assert engineer.difference == (Decimal("120.00"), Decimal("120.00"))
    assert engineer.difference_total == Decimal("240.00")
    # A new line has no previous amounts; a removed one no new ones.
    assert (storage.previous, storage.new_total) == (None, Decimal("120.00"))
    assert (seats.new, seats.difference_total) == (None, Decimal("-2400.00"))
    totals = {row.name: row for row in diff.totals}
    assert list(totals) == ["capex", "opex", "contingency", "indirect", "total"]
    # Opex 2,400 + 2,400 → 1,380 + 1,380, plus 10 % contingency on it.
    assert totals["contingency"].difference == (Decimal("138.00"), Decimal("138.00"))
    assert totals["total"].previous_total == Decimal("4800.00")
    assert totals["total"].new_total == Decimal("3036.00")
    assert totals["total"].difference_total == Decimal("-1764.00")


def test_the_diff_aligns_fiscal_years_when_the_period_moved():
    later = FiscalCalendar(4, "start_end", date(2027, 4, 1), date(2029, 3, 31))
    previous = budget(CALENDAR, BudgetRules(), [line("Engineer")])
    new = budget(later, BudgetRules(), [line("Engineer", start=date(2027, 4, 1))])
    diff = budget_diff(previous, new)
    assert diff.fiscal_years == ("2026/27", "2027/28", "2028/29")
    (engineer,) = diff.lines
    assert engineer.previous == (Decimal("1200.00"), Decimal("1200.00"), Decimal("0.00"))
    assert engineer.new == (Decimal("0.00"), Decimal("1200.00"), Decimal("1200.00"))
    assert engineer.changed


def test_lines_of_the_same_kind_and_name_are_matched_in_order():
    lines = [line("Engineer", price="100"), line("Engineer", price="200")]
    same = budget(CALENDAR, BudgetRules(), lines)
    diff = budget_diff(same, same)
    assert [row.changed for row in diff.lines] == [False, False]
    assert [row.new_total for row in diff.lines] == [Decimal("2400.00"), Decimal("4800.00")]


def test_the_portfolio_sums_budgets_by_fiscal_year_class_and_category():
    rules = BudgetRules(contingency_capex=0.1, indirect_rate=0.07)
    first = budget(
        CALENDAR,
        rules,
        [
            line("Engineer"),
            line("Server", "other", price="9000", recurrence="one_off", category=3),
        ],
    )
    second = budget(
        FiscalCalendar(4, "start_end", date(2027, 4, 1), date(2028, 3, 31)),
        rules,
        [line("Analyst", price="50", start=date(2027, 4, 1))],
    )
    summed = portfolio([first, second])
    assert summed.fiscal_years == ("2026/27", "2027/28")
    assert summed.budgets == 2
    rows = {(row.budget_class, row.category): row.amounts for row in summed.rows}
    assert list(rows) == [("capex", 3), ("opex", 1)]
    assert rows["capex", 3] == (Decimal("9000.00"), Decimal("0.00"))
    assert rows["opex", 1] == (Decimal("1200.00"), Decimal("1800.00"))
    assert summed.contingency_capex == (Decimal("900.00"), Decimal("0.00"))
    # Each cell is the sum of the budgets' own cells: (9,000 + 900 contingency + 1,200) × 1.07
    # = 11,877, then (1,200 + 600) × 1.07 = 1,926.
    assert summed.total == (
        first.totals.total[0],
        first.totals.total[1] + second.totals.total[0],
    )
    assert summed.total == (Decimal("11877.00"), Decimal("1926.00"))


def test_an_empty_portfolio_has_no_fiscal_years():
    summed = portfolio([])
    assert (summed.fiscal_years, summed.rows, summed.total, summed.budgets) == ((), (), (), 0)
