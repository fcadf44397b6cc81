"""Properties of random budgets: every total is the sum of its cells, NPV at 0 % is the total."""

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from apps.estimates import EstimateInput, InferenceInput, Pricing, TrainingInput, estimate
from apps.estimates.budget import (
    RECURRENCES,
    USER_KINDS,
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    budget,
    compute_lines,
    spread,
)
from apps.estimates.money import to_money

ZERO = Decimal("0.00")
days = st.dates(date(2024, 1, 1), date(2032, 12, 31))
rates = st.decimals(Decimal(0), Decimal("0.5"), places=3)


@st.composite
def calendars(draw: st.DrawFn) -> FiscalCalendar:
    start, end = sorted([draw(days), draw(days)])
    rule = draw(st.sampled_from(["end_year", "start_end"]))
    return FiscalCalendar(draw(st.integers(1, 12)), rule, start, end)


@st.composite
def cost_lines(draw: st.DrawFn) -> CostLineInput:
    recurrence = draw(st.sampled_from(RECURRENCES))
    start = draw(days)
    end = None if recurrence == "one_off" else draw(st.none() | st.dates(start, date(2033, 12, 31)))
    return CostLineInput(
        name="Line",
        kind=draw(st.sampled_from(USER_KINDS)),
        quantity=draw(st.decimals(Decimal(0), Decimal(1000), places=2)),
        unit="unit",
        unit_price=draw(st.decimals(Decimal(0), Decimal(100_000), places=4)),
        recurrence=recurrence,
        start=start,
        end=end,
        annual_escalation=draw(st.floats(-0.5, 0.5)),
        budget_class=draw(st.sampled_from([None, "capex", "opex"])),
        category=draw(st.integers(1, 7)),
    )


rules = st.builds(
    BudgetRules,
    capitalisation_threshold=st.decimals(Decimal(0), Decimal(100_000), places=2),
    discount_rate=rates,
    contingency_capex=rates,
    contingency_opex=rates,
    indirect_rate=rates,
)


@given(calendars(), rules, st.lists(cost_lines(), max_size=6))
def test_every_total_is_the_sum_of_the_cells_shown(calendar, budget_rules, lines):
    table = budget(calendar, budget_rules, lines)
    size = len(table.fiscal_years)
    assert sum(year.months for year in table.fiscal_years) == (
        (calendar.period_end.year - calendar.period_start.year) * 12
        + calendar.period_end.month
        - calendar.period_start.month
        + 1
    )
    for row in table.lines:
        assert len(row.amounts) == size
        assert row.total == sum(row.amounts, ZERO)
        assert all(amount == amount.quantize(Decimal("0.01")) for amount in row.amounts)
    totals = table.totals
    for year in range(size):
        for budget_class, subtotal in (("capex", totals.capex), ("opex", totals.opex)):
            of_class = [
                row.amounts[year] for row in table.lines if row.budget_class == budget_class
            ]
            assert subtotal[year] == sum(of_class, ZERO)
        assert (
            totals.contingency[year]
            == totals.contingency_capex[year] + totals.contingency_opex[year]
        )
        assert totals.total[year] == (
            totals.capex[year]
            + totals.opex[year]
            + totals.contingency[year]
            + totals.indirect[year]
        )
    assert table.summary.total == sum(totals.total, ZERO)
    assert table.summary.upfront == sum(totals.capex, ZERO)


@given(calendars(), st.lists(cost_lines(), max_size=4))
def test_npv_at_a_zero_rate_is_the_total(calendar, lines):
    table = budget(calendar, BudgetRules(discount_rate=0), lines)
    assert table.summary.npv == table.summary.total


@given(st.decimals(Decimal(0), Decimal(10**9), places=2), st.lists(st.floats(0, 1e6), min_size=1))
def test_spread_keeps_every_cent(amount, weights):
    parts = spread(amount, weights)
    assert sum(parts, ZERO) == amount
    assert all(part >= 0 and part == part.quantize(Decimal("0.01")) for part in parts)


@given(
    calendar_start=st.integers(1, 12),
    training_start=st.dates(date(2026, 1, 1), date(2026, 12, 31)),
    accelerator_hours=st.floats(0, 1e6),
    accelerator_count=st.integers(1, 4096),
    requests=st.floats(0, 1e8),
    growth=st.floats(-0.2, 0.3),
    months=st.integers(1, 60),
    price=st.floats(0.01, 20),
    provisioning=st.sampled_from(["pay_per_use", "always_on"]),
)
def test_rented_compute_lines_add_up_to_the_engine_totals(
    calendar_start,
    training_start,
    accelerator_hours,
    accelerator_count,
    requests,
    growth,
    months,
    price,
    provisioning,
):
    pricing = Pricing(mode="rent", price_per_accelerator_hour=price)
    inp = EstimateInput(
        training=TrainingInput(
            method="accelerator_hours",
            accelerator_hours=accelerator_hours,
            accelerator_count=accelerator_count,
            pricing=pricing,
        ),
        inference=InferenceInput(
            method="accelerator_seconds",
            accelerator_seconds_per_request=1.5,
            requests_per_month=requests,
            monthly_growth=growth,
            months=months,
            provisioning=provisioning,
            pricing=pricing,
        ),
    )
    result = estimate(inp)
    # A period from the training start to well after the last month of service.
    calendar = FiscalCalendar(calendar_start, "end_year", training_start, date(2150, 12, 31))
    computed = compute_lines(inp, result, calendar, training_start=training_start)
    table = budget(calendar, BudgetRules(), computed=computed)
    by_kind = {row.kind: row.total for row in table.lines}
    # The budget is a ledger: the engine's figures below a cent come in rounded to the cent.
    assert by_kind["training_compute"] == to_money(result.training.cost)
    assert by_kind["inference_compute"] == sum(to_money(m.cost) for m in result.inference.monthly)
    assert table.notes == (
        "Energy and emissions exclude training: its power is unknown.",
        "Energy and emissions exclude inference: its power is unknown.",
    )
    assert table.summary.total == to_money(result.training.cost) + by_kind["inference_compute"]
