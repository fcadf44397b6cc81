"""The options comparison: crossovers, owning against renting, NPV ordering, the flipping condition."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
    evaluate,
)
from apps.estimates.budget import BudgetRules, FiscalCalendar
from apps.estimates.options import (
    OptionInput,
    compare_options,
    crossover_requests_per_month,
    monthly_cost_at,
    owning_beats_renting_utilisation,
)
from apps.estimates.units import HOURS_PER_MONTH, HOURS_PER_YEAR

H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15)
DEMAND = {"requests_per_month": 300_000, "months": 24, "input_tokens": 1000, "output_tokens": 500}
SELF_HOST = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2.0,
    "hardware": H100,
}
RENT = Pricing(price_per_accelerator_hour=3.0)
OWN = Pricing(mode="own", purchase_price=30_000.0, lifetime_years=5.0)
# Two fiscal years, January to December.
CALENDAR = FiscalCalendar(
    start_month=1,
    label_rule="end_year",
    period_start=date(2027, 1, 1),
    period_end=date(2028, 12, 31),
)
RULES = BudgetRules(discount_rate=0.035)


def option(key: str, training: TrainingInput | None = None, **inference) -> OptionInput:
    if key == "external_api":
        fields = {
            "method": "external_api",
            "price_per_million_input_tokens": 2.5,
            "price_per_million_output_tokens": 10.0,
        }
    else:
        fields = {
            **SELF_HOST,
            "pricing": OWN if key == "own" else RENT,
            "provisioning": "pay_per_use" if key == "rent_pay_per_use" else "always_on",
        }
    return OptionInput(
        key,
        EstimateInput(
            training=training,
            inference=InferenceInput(**{**DEMAND, **fields, **inference}),
            energy=ENERGY,
        ),
    )


FOUR = [option(key) for key in ("external_api", "rent_pay_per_use", "rent_always_on", "own")]


def by_key(comparison):
    return {result.key: result for result in comparison.options}


def test_crossover_volume_is_fixed_monthly_cost_over_per_use_cost_per_request():
    comparison = compare_options(FOUR, CALENDAR, RULES)
    crossovers = {c.options: c.requests_per_month for c in comparison.crossovers}
    always_on_month = 1 * HOURS_PER_MONTH * 3.0  # one accelerator at peak, every hour
    api_request = (1000 * 2.5 + 500 * 10.0) / 1e6  # 0.0075
    rented_request = 2.0 / 3600 * 3.0
    assert crossovers[("rent_always_on", "external_api")] == pytest.approx(
        always_on_month / api_request
    )
    assert crossovers[("rent_always_on", "rent_pay_per_use")] == pytest.approx(
        always_on_month / rented_request
    )
    owned_month = HOURS_PER_MONTH * (30_000 / (5 * HOURS_PER_YEAR) + 0.7 * 1.2 * 0.15)
    assert crossovers[("own", "external_api")] == pytest.approx(owned_month / api_request)
    assert set(crossovers) == {
        ("rent_always_on", "external_api"),
        ("rent_always_on", "rent_pay_per_use"),
        ("own", "external_api"),
        ("own", "rent_pay_per_use"),
    }


def test_at_the_crossover_volume_both_options_cost_the_same_a_month():
    volume = crossover_requests_per_month(HOURS_PER_MONTH * 3.0, 0.0075)
    api = option("external_api", requests_per_month=volume, months=1).estimate
    always_on = option("rent_always_on", requests_per_month=volume, months=1).estimate
    assert evaluate(api).inference_cost == pytest.approx(HOURS_PER_MONTH * 3.0)
    assert evaluate(always_on).peak_accelerators == 1  # the same capacity still serves it
    assert evaluate(always_on).inference_cost == pytest.approx(evaluate(api).inference_cost)
    assert crossover_requests_per_month(100.0, 0.0) is None


def test_owning_beats_renting_above_owned_hourly_cost_over_rented_price():
    own, rent = option("own").estimate, option("rent_pay_per_use").estimate
    owned_hour = 30_000 / (5 * HOURS_PER_YEAR) + 0.7 * 1.2 * 0.15
    utilisation = owning_beats_renting_utilisation(own, rent)
    assert utilisation == pytest.approx(owned_hour / 3.0)
    # Busy that share of every hour, renting per use costs what owning costs.
    busy_hours = utilisation * HOURS_PER_MONTH
    assert busy_hours * 3.0 == pytest.approx(owned_hour * HOURS_PER_MONTH)
    expensive = replace(own.inference.pricing, purchase_price=300_000.0)
    costly_own = replace(own, inference=replace(own.inference, pricing=expensive))
    assert owning_beats_renting_utilisation(costly_own, rent) > 1  # owning never wins


def test_npv_follows_the_budget_convention_and_the_cheapest_has_the_lowest():
    comparison = compare_options(FOUR, CALENDAR, RULES)
    results = by_key(comparison)
    api = results["external_api"]
    # 300,000 × 0.0075 = 2,250 a month: 27,000 a fiscal year, the second discounted once.
    assert api.opex == (Decimal("27000.00"), Decimal("27000.00"))
    assert api.total == Decimal("54000.00")
    assert api.npv == (Decimal(27000) + Decimal(27000) / Decimal("1.035")).quantize(Decimal("0.01"))
    assert api.cost_per_request == Decimal("0.007500")
    assert api.cost_per_million_output_tokens == Decimal("15.00")
    assert api.accelerators is None and "data_leaves_organisation" in api.flags
    own = results["own"]
    assert own.capex == Decimal("30000.00") and "hardware_lead_time" in own.flags
    npvs = sorted(comparison.options, key=lambda result: result.npv)
    assert comparison.cheapest == npvs[0].key == "rent_pay_per_use"
    assert [result.key for result in npvs] == [
        "rent_pay_per_use",
        "own",
        "rent_always_on",
        "external_api",
    ]


def test_always_on_cost_per_request_counts_the_idle_hours():
    results = by_key(compare_options(FOUR, CALENDAR, RULES))
    # One accelerator paid 730.5 h a month for 300,000 requests of 2 accelerator-seconds.
    expected = HOURS_PER_MONTH * 3.0 / 300_000
    assert float(results["rent_always_on"].cost_per_request) == pytest.approx(expected, abs=1e-6)
    assert results["rent_always_on"].cost_per_request > results["rent_pay_per_use"].cost_per_request


def test_the_condition_names_the_volume_that_flips_a_per_use_cheapest():
    comparison = compare_options(FOUR, CALENDAR, RULES)
    condition = comparison.condition
    assert (condition.kind, condition.options) == ("above", ("own", "rent_pay_per_use"))
    assert condition.value == pytest.approx(
        by_key(comparison)["own"].monthly_fixed_cost / (2 / 3600 * 3)
    )
    assert condition.text.startswith(
        "Owning the accelerators beats renting accelerators per use above"
    )
    assert "million requests a month" in condition.text or "requests a month" in condition.text


def test_owning_cheapest_is_flipped_by_utilisation_and_an_api_cheapest_by_volume():
    busy = [option(key, requests_per_month=1e7) for key in ("rent_pay_per_use", "own")]
    owned = compare_options(busy, CALENDAR, RULES)
    assert owned.cheapest == "own"
    assert owned.condition.kind == "utilisation"
    assert (
        owned.condition.text
        == f"Owning beats renting above {owned.owning_beats_renting_utilisation:.0%} utilisation."
    )
    quiet = [option(key, requests_per_month=1_000) for key in ("external_api", "rent_always_on")]
    api = compare_options(quiet, CALENDAR, RULES)
    assert api.cheapest == "external_api"
    assert api.condition.kind == "above"
    assert api.condition.text.startswith(
        "Renting always-on accelerators beats the external API above 292,200"
    )


def test_fine_tune_and_build_carry_their_one_off_training():
    fine_tune = TrainingInput(method="accelerator_hours", accelerator_hours=200.0, pricing=RENT)
    build = TrainingInput(
        method="parameters_tokens", hardware=H100, parameters=7e9, tokens=1e11, pricing=RENT
    )
    options = [
        option("fine_tune", training=fine_tune, provisioning="always_on"),
        option("build", training=build, provisioning="always_on"),
    ]
    results = by_key(compare_options(options, CALENDAR, RULES))
    assert results["fine_tune"].one_off == Decimal("600.00")  # 200 accelerator-hours × 3.00
    build_hours = 6 * 7e9 * 1e11 / (989.4e12 * 0.25) / 3600  # the default MFU
    assert float(results["build"].one_off) == pytest.approx(build_hours * 3.0, abs=0.01)
    # Both serve the same months, from the month after the longer training (build's) ends.
    assert results["build"].total - results["fine_tune"].total == (
        results["build"].one_off - results["fine_tune"].one_off
    )


def test_unknown_repeated_or_inference_free_options_are_refused():
    with pytest.raises(ValueError):
        compare_options([option("external_api"), option("external_api")], CALENDAR, RULES)
    with pytest.raises(ValueError):
        compare_options([OptionInput("lease", FOUR[0].estimate)], CALENDAR, RULES)
    with pytest.raises(ValueError):
        compare_options([OptionInput("own", EstimateInput(training=None))], CALENDAR, RULES)


def test_the_chart_cost_of_a_month_is_per_use_or_stepped_capacity_plus_spread_training():
    volumes = np.array([1e3, 1e6, 1e7])
    api = monthly_cost_at(option("external_api"), volumes)
    assert api == pytest.approx(volumes * 0.0075)
    always_on = monthly_cost_at(option("rent_always_on"), volumes)
    accelerators = [
        evaluate(
            option("rent_always_on", requests_per_month=v, months=1).estimate
        ).peak_accelerators
        for v in volumes
    ]
    assert accelerators[0] == 1 and accelerators[2] > accelerators[1]  # capacity steps up
    assert always_on == pytest.approx(np.array(accelerators) * HOURS_PER_MONTH * 3.0)
    fine_tune = TrainingInput(method="accelerator_hours", accelerator_hours=240.0, pricing=RENT)
    with_training = monthly_cost_at(option("rent_always_on", training=fine_tune), volumes)
    assert with_training == pytest.approx(always_on + 240 * 3.0 / 24)  # spread over 24 months


def test_the_engines_answers_given_once_give_the_same_comparison_without_working_them_out(
    monkeypatch,
):
    from apps.estimates import engine
    from apps.estimates.options import estimate_option

    worked = [estimate_option(o) for o in FOUR]
    expected = compare_options(FOUR, CALENDAR, RULES)
    runs = []
    monkeypatch.setattr(engine, "compute", lambda inp: runs.append(inp) or pytest.fail())
    assert compare_options(FOUR, CALENDAR, RULES, estimates=worked) == expected
    assert runs == []
    # The service start every option's budget was drawn up with, kept for the options' ranges.
    assert expected.service_start == CALENDAR.period_start
    assert len(expected.lines) == len(FOUR)
