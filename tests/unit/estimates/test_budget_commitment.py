"""A commitment's payments in the budget: the upfront part in the fiscal year it falls in, the
monthly part over the term split across fiscal years, capex or opex by the capitalisation
threshold, and the committed capacity left idle (issue 23). Every figure is worked by hand."""

from datetime import date
from decimal import Decimal

import pytest

from apps.estimates import EstimateInput, InferenceInput, Pricing, estimate
from apps.estimates.budget import BudgetRules, FiscalCalendar, budget, compute_lines

# Fiscal years from October, named by the year they end in: FY2027 (Oct 2026 – Sep 2027),
# FY2028, FY2029 (to Sep 2029). The service starts in January 2027.
CALENDAR = FiscalCalendar(10, "end_year", date(2026, 10, 1), date(2029, 9, 30))
SERVICE_START = date(2027, 1, 1)
# 300,000 requests a month × 2 accelerator-seconds = 166.67 busy accelerator-hours a month;
# the peak needs 1 accelerator. On demand 3.00 an accelerator-hour.
SERVING = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2.0,
    "requests_per_month": 300_000.0,
    "months": 12,
    "pricing": Pricing(price_per_accelerator_hour=3.0),
    "provisioning": "committed",
}


def committed_budget(years=1, share=0.0, discount=0.4, threshold=5000):
    inp = EstimateInput(
        inference=InferenceInput(
            **SERVING,
            commitment_years=years,
            upfront_share=share,
            commitment_discount=discount,
        )
    )
    computed = compute_lines(inp, estimate(inp), CALENDAR, service_start=SERVICE_START)
    return budget(CALENDAR, BudgetRules(capitalisation_threshold=threshold), computed=computed)


def amounts(table, name):
    (line,) = [line for line in table.lines if line.name == name]
    return line.budget_class, line.amounts


UPFRONT = "Committed capacity paid upfront"
MONTHLY = "Committed capacity, monthly payments"


def test_no_upfront_pays_the_whole_term_monthly_across_two_fiscal_years():
    # One month of 1 accelerator: 730.5 h × 3.00 × (1 − 0.4) = 1,314.90.
    # January–September 2027 (FY2027): 9 × 1,314.90 = 11,834.10;
    # October–December 2027 (FY2028): 3 × 1,314.90 = 3,944.70.
    table = committed_budget(share=0.0)
    assert amounts(table, MONTHLY) == (
        "opex",
        (Decimal("11834.10"), Decimal("3944.70"), Decimal("0.00")),
    )
    assert [line.name for line in table.lines] == [MONTHLY]
    assert table.totals.capex == (Decimal("0.00"),) * 3
    assert table.summary.total == Decimal("15778.80")  # 12 × 1,314.90


def test_half_upfront_falls_in_the_first_months_fiscal_year_and_the_rest_over_the_term():
    # Upfront: 0.5 × 1,314.90 × 12 = 7,889.40 in January 2027 (FY2027), at or above the
    # threshold of 5,000: capex. Monthly: 0.5 × 1,314.90 = 657.45;
    # FY2027: 9 × 657.45 = 5,917.05; FY2028: 3 × 657.45 = 1,972.35.
    table = committed_budget(share=0.5)
    assert amounts(table, UPFRONT) == (
        "capex",
        (Decimal("7889.40"), Decimal("0.00"), Decimal("0.00")),
    )
    assert amounts(table, MONTHLY) == (
        "opex",
        (Decimal("5917.05"), Decimal("1972.35"), Decimal("0.00")),
    )
    assert table.totals.capex[0] == Decimal("7889.40")
    assert table.totals.opex == (Decimal("5917.05"), Decimal("1972.35"), Decimal("0.00"))
    assert table.summary.upfront == Decimal("7889.40")
    assert table.summary.total == Decimal("15778.80")  # 7,889.40 + 12 × 657.45
    assert any("counts it as capex" in note for note in table.notes)


@pytest.mark.parametrize(
    ("threshold", "budget_class"),
    # All upfront: 1,314.90 × 12 = 15,778.80 in January 2027, capex at a threshold of 5,000,
    # opex at 20,000 (the organisation's rule decides).
    [(5000, "capex"), (20000, "opex")],
)
def test_all_upfront_is_paid_in_the_first_month_and_classed_by_the_threshold(
    threshold, budget_class
):
    table = committed_budget(share=1.0, threshold=threshold)
    assert amounts(table, UPFRONT) == (
        budget_class,
        (Decimal("15778.80"), Decimal("0.00"), Decimal("0.00")),
    )
    assert [line.name for line in table.lines] == [UPFRONT]
    assert table.summary.total == Decimal("15778.80")


def test_a_three_year_term_runs_past_the_service_and_the_planning_period():
    # 3 years at 60 % off: 730.5 × 3.00 × 0.4 = 876.60 a month. Half upfront: 0.5 × 876.60 ×
    # 36 = 15,778.80 in January 2027 (capex); monthly 438.30 from January 2027 to December
    # 2029: FY2027 9 × 438.30 = 3,944.70, FY2028 and FY2029 12 × 438.30 = 5,259.60 each; the
    # last three months (October–December 2029) fall after the period and are left out.
    table = committed_budget(years=3, share=0.5, discount=0.6)
    assert amounts(table, UPFRONT) == (
        "capex",
        (Decimal("15778.80"), Decimal("0.00"), Decimal("0.00")),
    )
    assert amounts(table, MONTHLY) == (
        "opex",
        (Decimal("3944.70"), Decimal("5259.60"), Decimal("5259.60")),
    )
    notes = "\n".join(table.notes)
    assert "24 month(s) past the end of the service" in notes
    assert "1,314.90 falls outside the planning period" in notes  # 3 × 438.30


def test_the_committed_capacity_left_idle_is_a_memo_row_by_fiscal_year():
    # Each month 730.5 committed hours, 166.67 busy: (730.5 − 166.667) × 1.80 = 1,014.90 idle.
    # FY2027: 9 × 1,014.90 = 9,134.10; FY2028: 3 × 1,014.90 = 3,044.70.
    table = committed_budget(share=0.0)
    assert table.memo.idle_commitment == (
        Decimal("9134.10"),
        Decimal("3044.70"),
        Decimal("0.00"),
    )
    # After a 12-month service, a 3-year term's 24 idle months each cost 730.5 × 1.20 = 876.60.
    three_years = committed_budget(years=3, discount=0.6)
    # FY2027: 9 × (730.5 − 166.667) × 1.20 = 9 × 676.60 = 6,089.40;
    # FY2028: 3 × 676.60 + 9 × 876.60 = 2,029.80 + 7,889.40 = 9,919.20;
    # FY2029: 12 × 876.60 = 10,519.20.
    assert three_years.memo.idle_commitment == (
        Decimal("6089.40"),
        Decimal("9919.20"),
        Decimal("10519.20"),
    )


def test_a_budget_without_a_commitment_has_no_idle_memo():
    inp = EstimateInput(inference=InferenceInput(**{**SERVING, "provisioning": "always_on"}))
    computed = compute_lines(inp, estimate(inp), CALENDAR, service_start=SERVICE_START)
    assert budget(CALENDAR, BudgetRules(), computed=computed).memo.idle_commitment is None
