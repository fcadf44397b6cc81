"""Lines people add, and the rows below them: classes, escalation, contingency, indirect, NPV."""

from datetime import date
from decimal import Decimal

import pytest

from apps.estimates.budget import (
    BudgetInputError,
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    budget,
)

# October–September fiscal years; the period starts mid-year, so the first year is partial.
OCTOBER = FiscalCalendar(10, "end_year", date(2026, 1, 1), date(2028, 6, 30))
RULES = BudgetRules()


def line(**fields) -> CostLineInput:
    defaults = {
        "name": "Line",
        "kind": "other",
        "quantity": 1,
        "unit": "item",
        "unit_price": Decimal("100"),
        "recurrence": "monthly",
        "start": date(2026, 1, 1),
    }
    return CostLineInput(**(defaults | fields))


def only_line(calendar: FiscalCalendar = OCTOBER, rules: BudgetRules = RULES, **fields):
    return budget(calendar, rules, [line(**fields)]).lines[0]


def test_a_monthly_line_falls_due_every_month_from_its_start_to_the_period_end():
    staff = only_line(
        kind="staff", quantity=Decimal("1.5"), unit="FTE-month", unit_price=Decimal("9000")
    )
    # FY2026: January–September 2026, 9 months; FY2027: 12; FY2028: October 2027 – June 2028.
    assert staff.amounts == (Decimal("121500.00"), Decimal("162000.00"), Decimal("121500.00"))
    assert staff.total == Decimal("405000.00")
    assert staff.budget_class == "opex"


def test_a_monthly_line_stops_at_its_end_month():
    amounts = only_line(start=date(2026, 8, 20), end=date(2026, 11, 3)).amounts
    # August and September in FY2026, October and November in FY2027.
    assert amounts == (Decimal("200.00"), Decimal("200.00"), Decimal("0.00"))


def test_escalation_steps_up_on_each_anniversary_of_the_start_month():
    amounts = only_line(start=date(2026, 4, 1), annual_escalation=0.1).amounts
    # April–September 2026: 6 × 100; October 2026 – March 2027 at 100, April–September at 110;
    # October 2027 – March 2028 at 110, April–June 2028 at 121.
    assert amounts == (
        Decimal("600.00"),
        Decimal("1260.00"),
        Decimal("1023.00"),
    )


def test_a_yearly_line_falls_due_in_its_start_month_each_year_escalated():
    licence = only_line(
        kind="licence",
        recurrence="yearly",
        start=date(2026, 11, 1),
        unit_price=Decimal("1200"),
        annual_escalation=0.05,
    )
    # November 2026 (FY2027) and November 2027 (FY2028, 5 % more).
    assert licence.amounts == (Decimal("0.00"), Decimal("1200.00"), Decimal("1260.00"))


def test_a_one_off_line_falls_due_once_in_its_month():
    one_off = only_line(recurrence="one_off", start=date(2027, 10, 31), unit_price=Decimal(400))
    assert one_off.amounts == (Decimal("0.00"), Decimal("0.00"), Decimal("400.00"))


def test_each_month_is_rounded_to_the_cent_half_up_once():
    # 3 × 33.335 = 100.005 a month rounds to 100.01; 12 months make 1,200.12, not 1,200.06.
    amounts = only_line(quantity=3, unit_price=Decimal("33.335"), end=date(2026, 12, 31)).amounts
    assert amounts == (Decimal("900.09"), Decimal("300.03"), Decimal("0.00"))


def test_a_one_off_at_or_above_the_threshold_is_capex_and_below_it_opex():
    rules = BudgetRules(capitalisation_threshold=Decimal(5000))
    at = only_line(rules=rules, recurrence="one_off", quantity=2, unit_price=Decimal(2500))
    below = only_line(rules=rules, recurrence="one_off", unit_price=Decimal("4999.99"))
    assert (at.budget_class, below.budget_class) == ("capex", "opex")


def test_a_recurring_line_is_opex_whatever_its_size():
    assert only_line(unit_price=Decimal(1_000_000)).budget_class == "opex"
    assert only_line(recurrence="yearly", unit_price=Decimal(10**6)).budget_class == "opex"


def test_the_class_set_on_a_line_overrides_the_threshold_rule():
    big = only_line(recurrence="one_off", unit_price=Decimal(90_000), budget_class="opex")
    small = only_line(recurrence="monthly", unit_price=Decimal(10), budget_class="capex")
    assert (big.budget_class, small.budget_class) == ("opex", "capex")


def test_contingency_by_class_then_indirect_costs_on_everything_before_them():
    rules = BudgetRules(contingency_capex=0.1, contingency_opex=0.05, indirect_rate=0.07)
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2027, 12, 31))
    result = budget(
        calendar,
        rules,
        [
            line(name="GPU server", recurrence="one_off", unit_price=Decimal(30_000)),
            line(name="Storage", quantity=10, unit="TB-month", unit_price=Decimal("20.5")),
        ],
    )
    totals = result.totals
    assert totals.capex == (Decimal("30000.00"), Decimal("0.00"))
    assert totals.opex == (Decimal("2460.00"), Decimal("2460.00"))
    assert totals.contingency_capex == (Decimal("3000.00"), Decimal("0.00"))
    assert totals.contingency_opex == (Decimal("123.00"), Decimal("123.00"))
    assert totals.contingency == (Decimal("3123.00"), Decimal("123.00"))
    # 7 % of 30,000 + 2,460 + 3,123 = 35,583 → 2,490.81; of 2,460 + 123 = 2,583 → 180.81.
    assert totals.indirect == (Decimal("2490.81"), Decimal("180.81"))
    assert totals.total == (Decimal("38073.81"), Decimal("2763.81"))
    assert result.summary.total == Decimal("40837.62")
    assert result.summary.upfront == Decimal("30000.00")


def test_npv_discounts_fiscal_year_k_by_the_rate_to_the_power_k():
    calendar = FiscalCalendar(4, "start_end", date(2026, 4, 1), date(2029, 3, 31))
    rules = BudgetRules(discount_rate=0.035)
    result = budget(calendar, rules, [line(unit_price=Decimal(1000))])
    assert result.totals.total == (Decimal("12000.00"),) * 3
    # 12,000 + 12,000 / 1.035 + 12,000 / 1.035² = 12,000 + 11,594.2029 + 11,202.1284.
    assert result.summary.npv == Decimal("34796.33")
    assert result.summary.discount_rate == 0.035


def test_npv_counts_a_partial_first_year_as_year_zero():
    calendar = FiscalCalendar(10, "end_year", date(2026, 7, 1), date(2027, 9, 30))
    result = budget(calendar, BudgetRules(discount_rate=0.1), [line(unit_price=Decimal(1100))])
    # FY2026: July–September, 3,300 undiscounted; FY2027: 13,200 / 1.1 = 12,000.
    assert result.summary.npv == Decimal("15300.00")


def test_the_run_rate_is_the_opex_of_the_last_twelve_months():
    result = budget(
        OCTOBER,
        RULES,
        [
            line(name="Hosting", start=date(2026, 1, 1), annual_escalation=0.1),
            line(name="Servers", recurrence="one_off", unit_price=Decimal(80_000)),
            line(name="Launch", recurrence="one_off", unit_price=Decimal(300)),
        ],
    )
    # July 2027 – June 2028: July–December at 110, January–June 2028 at 121. The one-off launch
    # in January 2026 is not in the last twelve months, and the servers are capex.
    assert result.summary.annual_run_rate == Decimal("1386.00")


def test_a_period_shorter_than_a_year_scales_its_opex_to_twelve_months():
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2026, 3, 31))
    result = budget(calendar, RULES, [line(), line(recurrence="one_off", unit_price=Decimal(30))])
    # 3 × 100 + 30 = 330 over 3 months → 1,320 a year.
    assert result.summary.annual_run_rate == Decimal("1320.00")


def test_each_line_has_its_share_of_the_total_with_contingency_included():
    rules = BudgetRules(contingency_opex=0.25)
    result = budget(
        FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2026, 12, 31)),
        rules,
        [line(name="A", unit_price=Decimal(300)), line(name="B", unit_price=Decimal(100))],
    )
    assert [row.share for row in result.lines] == [pytest.approx(0.6), pytest.approx(0.2)]


def test_lines_are_grouped_by_kind_keeping_their_order_within_a_kind():
    result = budget(
        OCTOBER,
        RULES,
        [
            line(name="Licence", kind="licence"),
            line(name="Staff 1", kind="staff"),
            line(name="Other", kind="other"),
            line(name="Staff 2", kind="staff"),
        ],
    )
    assert [row.name for row in result.lines] == ["Staff 1", "Staff 2", "Licence", "Other"]


def test_months_outside_the_planning_period_are_left_out_with_a_note():
    result = budget(
        OCTOBER, RULES, [line(name="Hosting", start=date(2025, 11, 1), end=date(2028, 9, 30))]
    )
    # November and December 2025 before the period, July–September 2028 after it.
    assert result.lines[0].total == Decimal("3000.00")
    assert result.notes == ("Hosting: 5 month(s) outside the planning period left out (500.00).",)


def test_an_empty_budget_is_all_zeros():
    result = budget(OCTOBER, RULES)
    assert result.lines == ()
    assert result.totals.total == (Decimal("0.00"),) * 3
    assert (result.summary.total, result.summary.npv) == (Decimal("0.00"), Decimal("0.00"))


def test_bad_lines_and_rules_are_refused_with_a_message_per_field():
    with pytest.raises(BudgetInputError) as raised:
        budget(
            OCTOBER,
            BudgetRules(discount_rate=-1.5, contingency_opex=-0.1),
            [
                line(kind="travel", category=8, unit_price=Decimal(-1)),
                line(recurrence="one_off", end=date(2026, 5, 1)),
                line(start=date(2026, 5, 1), end=date(2026, 4, 1), budget_class="asset"),
            ],
        )
    assert set(raised.value.errors) == {
        "rules.discount_rate",
        "rules.contingency_opex",
        "lines.0.kind",
        "lines.0.category",
        "lines.0.unit_price",
        "lines.1.end",
        "lines.2.end",
        "lines.2.budget_class",
    }
