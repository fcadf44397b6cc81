"""Behaviour of `estimate` and `evaluate`: methods, pricing, capacity, series and comparison."""

import math
from dataclasses import replace
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    ENGINE_VERSION,
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
    evaluate,
)
from apps.estimates.units import HOURS_PER_YEAR

H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15)
RENT = Pricing(mode="rent", price_per_accelerator_hour=2.5)
EU_AI_ACT = Threshold(name="EU AI Act Art. 51(2)", flop=1e25)

TRAINING_7B = TrainingInput(
    method="parameters_tokens",
    hardware=H100,
    parameters=7e9,
    tokens=2e12,
    accelerator_count=1024,
    pricing=RENT,
)
SERVING = InferenceInput(
    method="accelerator_seconds",
    accelerator_seconds_per_request=2.0,
    requests_per_month=15_000,
    pricing=RENT,
)


def test_training_from_parameters_and_tokens_on_rented_h100s():
    result = estimate(EstimateInput(training=TRAINING_7B, energy=ENERGY, thresholds=(EU_AI_ACT,)))
    training = result.training
    # 6 · 7e9 · 2e12 = 8.4e22 FLOP; / (989.4e12 · 0.25, the default MFU) / 3600 = 94,333.27 a-h.
    assert training.flop == pytest.approx(8.4e22)
    assert training.petaflop_s_days == pytest.approx(972.2222, rel=1e-6)
    assert training.accelerator_hours == pytest.approx(94_333.26595, rel=1e-9)
    # 1024 accelerators in parallel: 94,333.27 / 1024 = 92.12 h of waiting.
    assert training.wall_clock_hours == pytest.approx(92.122330, rel=1e-6)
    # 94,333.27 · 2.50 = 235,833.16; 94,333.27 · 0.7 kW · 1.2 = 79,239.94 kWh; · 0.4 kg.
    assert training.cost == Decimal("235833.16")
    assert training.energy_kwh == pytest.approx(79_239.943400, rel=1e-9)
    assert training.emissions_kg_co2e == pytest.approx(31_695.977360, rel=1e-9)
    assert training.thresholds[0].exceeded is False
    assert result.engine_version == ENGINE_VERSION
    assert result.inference is None and result.comparison is None


def test_the_default_mfu_is_explained_only_where_it_is_used():
    def notes(training: TrainingInput) -> list[str]:
        return [
            note
            for note in estimate(EstimateInput(training=training)).training.assumptions
            if "is the default" in note
        ]

    (note,) = notes(TRAINING_7B)
    assert note.startswith("MFU 0.25 is the default: the geometric mean")
    assert note.msgid  # an engine Message, translated at the edge
    assert notes(replace(TRAINING_7B, mfu=0.4)) == []
    # Accelerator-hours without an accelerator: no FLOP, so the MFU is not used.
    hours_only = TrainingInput(method="accelerator_hours", accelerator_hours=200.0, pricing=RENT)
    assert notes(hours_only) == []


def test_threshold_is_exceeded_only_above_the_exact_flop():
    def exceeded(total_flop: float) -> bool:
        training = TrainingInput(
            method="total_flop", hardware=H100, total_flop=total_flop, pricing=RENT
        )
        result = estimate(EstimateInput(training=training, thresholds=(EU_AI_ACT,)))
        return result.training.thresholds[0].exceeded

    assert exceeded(1e25) is False
    assert exceeded(1.0000001e25) is True


def test_accelerator_hours_with_an_accelerator_give_flop_back():
    # 200 h · 3600 · 989.4e12 · 0.25 (the default MFU) = 1.78092e20 FLOP.
    training = TrainingInput(
        method="accelerator_hours", hardware=H100, accelerator_hours=200.0, pricing=RENT
    )
    assert estimate(EstimateInput(training=training)).training.flop == pytest.approx(1.78092e20)


def test_accelerator_hours_without_an_accelerator_leave_flop_energy_and_thresholds_out():
    training = TrainingInput(method="accelerator_hours", accelerator_hours=200.0, pricing=RENT)
    result = estimate(EstimateInput(training=training, energy=ENERGY, thresholds=(EU_AI_ACT,)))
    assert result.training.flop is None
    assert result.training.petaflop_s_days is None
    assert result.training.thresholds == ()
    assert result.training.energy_kwh is None
    assert result.training.cost == Decimal("500.00")
    figures = evaluate(EstimateInput(training=training))
    assert math.isnan(figures.training_flop) and math.isnan(figures.training_energy_kwh)


def test_owned_training_costs_write_off_plus_electricity_per_busy_hour():
    # 30,000 / (5 · 8766 · 0.7) + 0.7 kW · 1.2 · 0.15 = 1.103804 per busy hour.
    owned = Pricing(mode="own", purchase_price=30_000.0)
    training = TrainingInput(
        method="accelerator_hours", hardware=H100, accelerator_hours=1000.0, pricing=owned
    )
    result = estimate(EstimateInput(training=training, energy=ENERGY)).training
    assert result.price_per_accelerator_hour == pytest.approx(1.1038038525)
    assert result.cost == Decimal("1103.80")


def test_owned_cost_leaves_electricity_out_when_its_price_is_unknown():
    owned = Pricing(mode="own", purchase_price=30_000.0)
    training = TrainingInput(
        method="accelerator_hours", hardware=H100, accelerator_hours=1000.0, pricing=owned
    )
    energy = EnergyProfile(pue=1.2)
    result = estimate(EstimateInput(training=training, energy=energy)).training
    assert result.price_per_accelerator_hour == pytest.approx(30_000 / (5 * HOURS_PER_YEAR * 0.7))
    assert any("Electricity not included" in note for note in result.assumptions)


def test_inference_from_tokens_uses_flop_and_roofline_latency():
    inference = InferenceInput(
        method="tokens",
        hardware=H100,
        parameters=7e9,
        input_tokens=1000,
        output_tokens=500,
        requests_per_month=1_000_000,
        pricing=RENT,
    )
    per_request = estimate(EstimateInput(inference=inference)).inference.per_request
    # 2 · 7e9 · 1500 = 2.1e13 FLOP; / (989.4e12 · 0.3) = 0.07075 s; roofline 2.1367 s.
    assert per_request.flop == 2.1e13
    assert per_request.accelerator_seconds == pytest.approx(0.0707499495)
    assert per_request.latency_method == "roofline"
    assert per_request.latency_seconds == pytest.approx(2.1367188718)
    # 0.07075 s / 3600 · 2.50 = 0.00004913 (four significant figures below a cent); per
    # 1,000 requests 0.049 → 0.05.
    assert per_request.cost == Decimal("0.00004913")
    assert per_request.cost_per_1000 == Decimal("0.05")


def test_given_latency_wins_and_without_bandwidth_latency_is_the_accelerator_time():
    given = estimate(EstimateInput(inference=replace(SERVING, latency_seconds=0.8)))
    assert given.inference.per_request.latency_method == "given"
    assert given.inference.per_request.latency_seconds == 0.8
    plain = estimate(EstimateInput(inference=SERVING)).inference.per_request
    assert (plain.latency_method, plain.latency_seconds) == ("accelerator_seconds", 2.0)


def test_capacity_at_peak_follows_littles_law():
    # 2,629,800 requests a month = 1/s on average, 3/s at peak; 3 · 2 s / 0.7 = 8.57 → 9.
    inference = replace(SERVING, requests_per_month=2_629_800, peak_to_average=3.0)
    result = estimate(EstimateInput(inference=inference)).inference
    assert result.peak_requests_per_second == pytest.approx(3.0)
    assert result.peak_accelerators == 9
    assert result.peak_concurrent_requests == pytest.approx(6.0)


def test_always_on_pays_for_peak_accelerators_every_hour_of_the_horizon():
    # 9 accelerators · 730.5 h · 12 months · 2.50 = 197,235.
    inference = replace(
        SERVING, requests_per_month=2_629_800, peak_to_average=3.0, provisioning="always_on"
    )
    result = estimate(EstimateInput(inference=inference)).inference
    assert result.total.always_on_cost == Decimal("197235.00")
    assert result.total.cost == result.total.always_on_cost
    # Pay-per-use: 2,629,800 · 12 · 2 s / 3600 · 2.50 = 43,830.
    assert result.total.pay_per_use_cost == Decimal("43830.00")
    assert {month.cost for month in result.monthly} == {Decimal("16436.25")}


def test_owned_always_on_accelerators_are_written_off_over_every_calendar_hour():
    # 30,000 / (5 · 8766 · 1) + 0.7 · 1.2 · 0.15 = 0.810463 per provisioned hour.
    owned = Pricing(mode="own", purchase_price=30_000.0)
    inference = replace(SERVING, hardware=H100, pricing=owned, provisioning="always_on", months=1)
    result = estimate(EstimateInput(inference=inference, energy=ENERGY)).inference
    assert result.peak_accelerators == 1
    assert result.total.always_on_cost == Decimal("592.04")  # 730.5 h · 0.810463 = 592.043


def test_monthly_series_adds_up_to_the_total_with_compound_growth():
    inference = replace(SERVING, monthly_growth=0.08, months=36)
    result = estimate(EstimateInput(inference=inference, energy=ENERGY)).inference
    monthly_hours = [month.accelerator_hours for month in result.monthly]
    assert len(result.monthly) == 36
    assert result.monthly[1].requests == pytest.approx(15_000 * 1.08)
    assert sum(monthly_hours) == pytest.approx(result.total.accelerator_hours, rel=1e-12)
    assert result.monthly[-1].cumulative_accelerator_hours == result.total.accelerator_hours
    assert result.monthly[-1].cumulative_cost == result.total.cost


def test_break_even_month_moves_earlier_when_demand_grows():
    def break_even(growth: float) -> float:
        inference = replace(SERVING, monthly_growth=growth)
        training = TrainingInput(method="accelerator_hours", accelerator_hours=200, pricing=RENT)
        return estimate(EstimateInput(training, inference)).comparison.break_even_months

    assert break_even(0.0) == pytest.approx(24.0)
    assert break_even(0.05) < break_even(0.0)
    assert break_even(0.2) < break_even(0.05)


def test_shrinking_demand_that_never_catches_up_has_no_break_even():
    # 8.33 h a month shrinking 10% adds up to at most 83.3 h, less than 200 h of training.
    training = TrainingInput(method="accelerator_hours", accelerator_hours=200, pricing=RENT)
    inference = replace(SERVING, monthly_growth=-0.1)
    comparison = estimate(EstimateInput(training, inference)).comparison
    assert comparison.break_even_months is None
    assert comparison.break_even_months_cost is None
    assert comparison.within_horizon is False
    figures = evaluate(EstimateInput(training, inference))
    assert math.isnan(figures.break_even_months)


def test_cumulative_series_starts_with_the_training_step_at_month_zero():
    training = TrainingInput(
        method="accelerator_hours", hardware=H100, accelerator_hours=200, pricing=RENT
    )
    comparison = estimate(EstimateInput(training, SERVING, energy=ENERGY)).comparison
    first, last = comparison.cumulative[0], comparison.cumulative[-1]
    assert (first.month, first.inference_accelerator_hours, first.inference_cost) == (
        0,
        0.0,
        Decimal("0.00"),
    )
    assert first.training_accelerator_hours == last.training_accelerator_hours == 200.0
    assert first.training_cost == Decimal("500.00")
    assert len(comparison.cumulative) == 13
    assert last.inference_accelerator_hours == pytest.approx(100.0)
    # Inference has no accelerator, so its energy (and the energy break-even) is unknown.
    assert last.inference_energy_kwh is None and comparison.break_even_months_energy is None


def test_cost_break_even_of_always_on_capacity_uses_the_flat_monthly_bill():
    # Demand peaks in month 12 at 15,000 · 1.5^11 = 1.30e6 requests: 0.49/s · 2 s / 0.7 → 2
    # accelerators, 2 · 730.5 h · 2.50 = 3,652.50 every month; 500 of training → 0.1369 months.
    training = TrainingInput(method="accelerator_hours", accelerator_hours=200, pricing=RENT)
    inference = replace(SERVING, provisioning="always_on", monthly_growth=0.5)
    result = estimate(EstimateInput(training, inference))
    assert result.inference.peak_accelerators == 2
    assert result.comparison.break_even_months_cost == pytest.approx(500 / 3652.5)


def test_gross_margin_and_revenue_follow_the_revenue_per_request():
    # Cost per request 2 s / 3600 · 2.50 = 0.0013889; revenue 0.01 → margin 0.86111.
    result = estimate(EstimateInput(inference=replace(SERVING, revenue_per_request=0.01)))
    assert result.inference.gross_margin == pytest.approx(1 - 0.0013888889 / 0.01)
    assert result.inference.revenue_total == Decimal("1800.00")  # 180,000 requests · 0.01
    assert estimate(EstimateInput(inference=SERVING)).inference.gross_margin is None


def test_section_without_comparison_when_the_other_is_absent():
    result = estimate(EstimateInput(inference=SERVING))
    assert result.training is None and result.comparison is None
    figures = evaluate(EstimateInput(inference=SERVING))
    assert math.isnan(figures.training_accelerator_hours) and math.isnan(figures.training_share)
    assert figures.inference_accelerator_hours == pytest.approx(100.0)


def test_evaluate_returns_floats_for_scalar_inputs():
    figures = evaluate(EstimateInput(training=TRAINING_7B, inference=SERVING))
    assert type(figures.training_accelerator_hours) is float
    assert type(figures.break_even_months) is float


def test_evaluate_broadcasts_array_inputs_against_each_other():
    mfu = np.array([[0.3], [0.4], [0.5]])
    requests = np.array([[1e3, 1e4, 1e5, 1e6]])
    training = replace(TRAINING_7B, mfu=mfu)
    figures = evaluate(EstimateInput(training, replace(SERVING, requests_per_month=requests)))
    assert figures.training_accelerator_hours.shape == (3, 4)
    assert figures.training_flop.shape == (3, 4)
    assert figures.break_even_months.shape == (3, 4)
    assert figures.training_accelerator_hours[1, 0] == pytest.approx(58_958.29122)
    assert figures.break_even_months[0, 0] > figures.break_even_months[0, 3]


def test_estimate_refuses_arrays():
    with pytest.raises(ValueError, match="evaluate"):
        estimate(EstimateInput(inference=replace(SERVING, months=np.array([12, 24]))))


def test_decimal_and_integer_inputs_compute_like_floats():
    as_decimal = replace(SERVING, pricing=Pricing(price_per_accelerator_hour=Decimal("2.5")))
    as_int = replace(SERVING, requests_per_month=15_000, accelerator_seconds_per_request=2)
    expected = estimate(EstimateInput(inference=SERVING))
    assert estimate(EstimateInput(inference=as_decimal)) == expected
    assert estimate(EstimateInput(inference=as_int)) == expected
