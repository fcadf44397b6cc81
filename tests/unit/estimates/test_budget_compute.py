"""The lines an estimate adds to a budget equal the engine's monthly figures, to the cent."""

from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal

import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
)
from apps.estimates.budget import (
    Asset,
    BudgetInputError,
    BudgetRules,
    ComputedLines,
    FiscalCalendar,
    budget,
    compute_lines,
    default_service_start,
    spread,
    training_end,
)
from apps.estimates.budget.fiscal import month_index
from apps.estimates.money import to_money

H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15)
RENT = Pricing(mode="rent", price_per_accelerator_hour=2.5)
OWN = Pricing(mode="own", purchase_price=30_000.0, lifetime_years=4.0)
# 7B parameters on 2T tokens over 32 H100s at the default MFU 0.25: 94,333.3 accelerator-hours,
# 2,947.9 wall-clock hours, about 123 days.
TRAINING = TrainingInput(
    method="parameters_tokens",
    hardware=H100,
    parameters=7e9,
    tokens=2e12,
    accelerator_count=32,
    pricing=RENT,
)
SERVING = InferenceInput(
    method="accelerator_seconds",
    hardware=H100,
    accelerator_seconds_per_request=2.0,
    requests_per_month=150_000,
    monthly_growth=0.05,
    months=24,
    pricing=RENT,
)
# October and April fiscal years, each with partial first and last years around the scenario.
OCTOBER = FiscalCalendar(10, "end_year", date(2026, 1, 1), date(2028, 12, 31))
APRIL = FiscalCalendar(4, "start_end", date(2026, 1, 15), date(2028, 8, 31))
RULES = BudgetRules()


def scenario(pricing: Pricing, provisioning: str = "pay_per_use") -> EstimateInput:
    return EstimateInput(
        training=replace(TRAINING, pricing=pricing),
        inference=replace(SERVING, pricing=pricing, provisioning=provisioning),
        energy=ENERGY,
    )


def budget_of(inp: EstimateInput, calendar: FiscalCalendar, **timing):
    result = estimate(inp)
    computed = compute_lines(inp, result, calendar, **timing)
    return result, budget(calendar, RULES, computed=computed)


def line(result, kind: str):
    (found,) = [row for row in result.lines if row.kind == kind]
    return found


def engine_months_by_fiscal_year(months, service_start: date, calendar: FiscalCalendar, amount):
    """The engine's months summed into fiscal years by hand: month k at service start + k − 1."""
    sums = {}
    for index, month in enumerate(months):
        place = month_index(service_start) + index
        offset = (place % 12 - (calendar.start_month - 1)) % 12
        sums[place - offset] = sums.get(place - offset, Decimal(0)) + amount(month)
    return [sums.get(first, Decimal(0)) for first in sorted(sums)]


@pytest.mark.parametrize(
    ("calendar", "provisioning"),
    [
        (OCTOBER, "pay_per_use"),
        (APRIL, "pay_per_use"),
        (OCTOBER, "always_on"),
        (APRIL, "always_on"),
    ],
)
def test_rented_compute_lines_equal_the_engine_figures_to_the_cent(calendar, provisioning):
    result, table = budget_of(
        scenario(RENT, provisioning), calendar, training_start=date(2026, 2, 10)
    )
    training, inference = line(table, "training_compute"), line(table, "inference_compute")
    assert training.total == result.training.cost
    assert inference.total == sum(month.cost for month in result.inference.monthly)
    # From 10 February 2026 training ends on 12 June 2026, so the service starts on 1 July 2026.
    by_year = engine_months_by_fiscal_year(
        result.inference.monthly, date(2026, 7, 1), calendar, lambda month: month.cost
    )
    assert [amount for amount in inference.amounts if amount] == by_year
    assert table.summary.total == result.training.cost + inference.total
    assert table.notes == ()


@pytest.mark.parametrize("calendar", [OCTOBER, APRIL])
@pytest.mark.parametrize("provisioning", ["pay_per_use", "always_on"])
def test_owned_hardware_replaces_compute_with_purchase_and_power(calendar, provisioning):
    result, table = budget_of(
        scenario(OWN, provisioning), calendar, training_start=date(2026, 2, 10)
    )
    kinds = [row.kind for row in table.lines]
    assert kinds == ["hardware_purchase", "hardware_purchase", "hardware_power", "hardware_power"]
    training_kit, serving_kit, training_power, serving_power = table.lines
    # 32 accelerators at 30,000 in February 2026; the serving peak in July 2026.
    assert training_kit.total == Decimal("960000.00")
    assert serving_kit.total == result.inference.peak_accelerators * Decimal(30_000)
    assert (training_kit.budget_class, training_kit.category) == ("capex", 3)
    assert training_power.total == to_money(result.training.energy_kwh * 0.15)
    expected = engine_months_by_fiscal_year(
        result.inference.monthly,
        date(2026, 7, 1),
        calendar,
        lambda month: to_money(month.energy_kwh * 0.15),
    )
    assert [amount for amount in serving_power.amounts if amount] == expected
    assert (serving_power.budget_class, serving_power.category) == ("opex", 7)
    assert sum(table.totals.capex) == training_kit.total + serving_kit.total
    assert any("not counted again" in note for note in table.notes)


def test_training_is_spread_over_its_wall_clock_in_proportion_to_hours():
    # 96 accelerator-hours on 2 accelerators: 48 wall-clock hours from 31 January, half in
    # January (fiscal year from February 2025) and half in February (the next one).
    training = TrainingInput(
        method="accelerator_hours", accelerator_hours=96.0, accelerator_count=2, pricing=RENT
    )
    calendar = FiscalCalendar(2, "end_year", date(2026, 1, 1), date(2026, 12, 31))
    _, table = budget_of(
        EstimateInput(training=training), calendar, training_start=date(2026, 1, 31)
    )
    assert [year.label for year in table.fiscal_years] == ["FY2026", "FY2027"]
    assert line(table, "training_compute").amounts == (Decimal("120.00"), Decimal("120.00"))


def test_the_real_calendar_decides_a_month_s_hours():
    # 24 × 29 + 24 × 31 hours from 1 February 2028 (a leap year): 29/60 in February.
    training = TrainingInput(
        method="accelerator_hours", accelerator_hours=1440.0, accelerator_count=1, pricing=RENT
    )
    calendar = FiscalCalendar(3, "end_year", date(2028, 1, 1), date(2028, 12, 31))
    _, table = budget_of(
        EstimateInput(training=training), calendar, training_start=date(2028, 2, 1)
    )
    # 1,440 h × 2.50 = 3,600: February 1,740, March 1,860.
    assert line(table, "training_compute").amounts == (Decimal("1740.00"), Decimal("1860.00"))


def test_spread_splits_cents_by_largest_remainder_and_keeps_the_sum():
    assert spread(Decimal("0.10"), [1.0, 1.0, 1.0]) == [
        Decimal("0.04"),
        Decimal("0.03"),
        Decimal("0.03"),
    ]
    assert spread(Decimal("100.00"), [0.2, 0.5, 0.3]) == [
        Decimal("20.00"),
        Decimal("50.00"),
        Decimal("30.00"),
    ]
    assert spread(Decimal("5.00"), [0.0, 0.0]) == [Decimal("5.00"), Decimal("0.00")]


def test_the_service_starts_the_month_after_training_ends_by_default():
    assert training_end(date(2026, 1, 30), 36.0) == datetime(2026, 1, 31, 12)
    assert default_service_start(date(2026, 1, 30), 36.0) == date(2026, 2, 1)
    assert default_service_start(date(2026, 1, 30), 48.0) == date(2026, 2, 1)  # midnight 1 Feb
    assert default_service_start(date(2026, 1, 30), 49.0) == date(2026, 3, 1)
    assert default_service_start(date(2026, 1, 30), None) == date(2026, 1, 30)
    assert default_service_start(date(2026, 1, 30), 1e12) is None


def test_a_given_service_start_places_month_one_of_the_engine_there():
    inp = EstimateInput(inference=SERVING)
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2029, 12, 31))
    result, table = budget_of(inp, calendar, service_start=date(2027, 11, 20))
    months = result.inference.monthly
    # November and December 2027 in FY2027, the next 12 in FY2028, the last 10 in FY2029.
    assert line(table, "inference_compute").amounts == (
        Decimal("0.00"),
        sum(month.cost for month in months[:2]),
        sum(month.cost for month in months[2:14]),
        sum(month.cost for month in months[14:]),
    )


def test_months_beyond_the_planning_period_are_dropped_with_a_note():
    inp = EstimateInput(inference=SERVING)
    calendar = FiscalCalendar(10, "end_year", date(2026, 1, 1), date(2026, 12, 31))
    result, table = budget_of(inp, calendar)
    months = result.inference.monthly
    assert line(table, "inference_compute").total == sum(month.cost for month in months[:12])
    dropped = sum(month.cost for month in months[12:])
    assert table.notes == (
        f"Inference compute: {dropped:,.2f} falls outside the planning period and is left out.",
    )


def test_training_before_the_period_is_dropped_with_a_note():
    training = TrainingInput(
        method="accelerator_hours", accelerator_hours=96.0, accelerator_count=2, pricing=RENT
    )
    calendar = FiscalCalendar(1, "end_year", date(2026, 2, 1), date(2026, 12, 31))
    _, table = budget_of(
        EstimateInput(training=training), calendar, training_start=date(2026, 1, 31)
    )
    assert line(table, "training_compute").total == Decimal("120.00")
    assert table.notes == (
        "Training compute: 120.00 falls outside the planning period and is left out.",
        "Energy and emissions exclude training: its power is unknown.",
    )


def test_energy_and_emissions_memo_follow_the_engine():
    result, table = budget_of(scenario(RENT), OCTOBER, training_start=date(2026, 2, 10))
    engine_kwh = result.training.energy_kwh + sum(m.energy_kwh for m in result.inference.monthly)
    assert sum(table.memo.energy_kwh) == pytest.approx(engine_kwh, rel=1e-12)
    assert table.memo.emissions_kg_co2e == pytest.approx(
        [kwh * 0.4 for kwh in table.memo.energy_kwh]
    )
    assert sum(table.memo.depreciation) == 0  # rented: nothing to depreciate


def test_without_power_there_is_no_energy_memo_nor_power_line():
    no_power = replace(H100, power_watts=None)
    inp = EstimateInput(inference=replace(SERVING, hardware=no_power, pricing=OWN), energy=ENERGY)
    _, table = budget_of(inp, OCTOBER)
    assert [row.kind for row in table.lines] == ["hardware_purchase"]
    assert (table.memo.energy_kwh, table.memo.emissions_kg_co2e) == (None, None)
    assert "Energy and emissions exclude inference: its power is unknown." in table.notes


def test_owned_hardware_depreciates_straight_line_to_its_residual_value():
    inp = scenario(OWN)
    result = estimate(inp)
    computed = compute_lines(
        inp, result, OCTOBER, training_start=date(2026, 1, 20), residual_share=0.1
    )
    table = budget(OCTOBER, RULES, computed=computed)
    peak = result.inference.peak_accelerators
    # Training kit: (960,000 − 96,000) / 48 months = 18,000 a month from January 2026; serving
    # kit: (30,000 − 3,000) × peak / 48 = 562.50 × peak a month from June 2026 (training ends on
    # 22 May 2026).
    serving = Decimal("562.5") * peak
    assert table.memo.depreciation == (
        9 * Decimal(18_000) + 4 * serving,
        12 * (Decimal(18_000) + serving),
        12 * (Decimal(18_000) + serving),
        # Training kit's 48 months end in December 2029; October–December 2028 here.
        3 * (Decimal(18_000) + serving),
    )


def test_depreciation_stops_when_the_lifetime_is_used_up_part_way_through_a_month():
    asset = Asset(
        "Server", date(2026, 1, 10), Decimal(10_000), Decimal(1_000), lifetime_years=1.125
    )
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2028, 12, 31))
    table = budget(calendar, RULES, computed=ComputedLines(assets=(asset,)))
    # 9,000 over 13.5 months: 12 months in 2026, 1.5 in 2027, nothing after.
    assert table.memo.depreciation == (Decimal("8000.00"), Decimal("1000.00"), Decimal("0.00"))


def test_a_residual_value_above_the_price_is_refused():
    inp = EstimateInput(inference=replace(SERVING, pricing=OWN))
    with pytest.raises(BudgetInputError, match="residual"):
        compute_lines(inp, estimate(inp), OCTOBER, residual_share=1.5)


def test_embodied_and_water_memo_follow_the_engine():
    # 985.5 kg per H100 over 3 years, rented; 1.8 L/kWh on site and 3.908 L/kWh at the grid.
    hardware = replace(H100, embodied_kg_co2e=985.5, embodied_lifetime_years=3)
    energy = replace(ENERGY, wue_litres_per_kwh=1.8, grid_water_litres_per_kwh=3.908)
    inp = EstimateInput(
        training=replace(TRAINING, hardware=hardware),
        inference=replace(SERVING, hardware=hardware),
        energy=energy,
    )
    result, table = budget_of(inp, OCTOBER, training_start=date(2026, 2, 10))
    # Every hour of the period is in a fiscal year, so the memo adds up to the engine's totals.
    engine_embodied = result.training.embodied_kg_co2e + result.inference.total.embodied_kg_co2e
    assert sum(table.memo.embodied_kg_co2e) == pytest.approx(engine_embodied, rel=1e-9)
    # Water per kWh: 1.8 / 1.2 + 3.908 = 5.408 L.
    assert table.memo.water_litres == pytest.approx([kwh * 5.408 for kwh in table.memo.energy_kwh])
    assert result.training.embodied_kg_co2e == pytest.approx(
        985.5 / (3 * 8766) * result.training.accelerator_hours
    )


def test_without_life_cycle_or_water_figures_the_memo_rows_stay_empty():
    _, table = budget_of(scenario(RENT), OCTOBER, training_start=date(2026, 2, 10))
    assert (table.memo.embodied_kg_co2e, table.memo.water_litres) == (None, None)
