"""Ranges: seeds, clipping, fixed values, figures that cannot be computed, and range errors."""

import math
from dataclasses import replace

import pytest

from apps.estimates import EstimateInput, EstimateInputError, estimate
from apps.estimates.uncertainty import sample
from apps.estimates.uncertainty_draws import Range, range_errors
from tests.unit.estimates.test_uncertainty_closed_forms import INPUTS, SAMPLES, TRAINING

RANGES = {
    "training.tokens": Range(1e12, 4e12),
    "training.mfu": Range(0.3, 0.5),
    "inference.requests_per_month": Range(5e5, 5e6),
}


def test_the_same_seed_gives_identical_figures():
    assert sample(INPUTS, RANGES, 20_000, seed=7) == sample(INPUTS, RANGES, 20_000, seed=7)


def test_another_seed_gives_other_draws_within_the_sampling_error():
    first = sample(INPUTS, RANGES, SAMPLES, seed=0).figures["training.accelerator_hours"]
    second = sample(INPUTS, RANGES, SAMPLES, seed=1).figures["training.accelerator_hours"]
    assert first != second
    # σ_out of ln(hours) = √(σ_tokens² + σ_mfu²) ≈ 0.45; the difference of two estimates has
    # √2 times the standard error of one (k ≈ 2.1 at the 5th and 95th percentiles).
    sigma = math.hypot(math.log(4) / 3.29, math.log(0.5 / 0.3) / 3.29)
    allowed = 4 * math.sqrt(2) * 2.11 * sigma / math.sqrt(SAMPLES)
    for name in ("p5", "p50", "p95", "mean"):
        assert getattr(first, name) / getattr(second, name) == pytest.approx(1, abs=allowed)


def test_a_driver_draws_the_same_samples_whatever_else_carries_a_range():
    # Common random numbers: adding a range on inference leaves training's draws alone.
    alone = sample(INPUTS, {"training.tokens": Range(1e12, 4e12)}, 20_000, seed=3)
    with_more = sample(INPUTS, RANGES | {"training.mfu": Range(0.4, 0.4)}, 20_000, seed=3)
    assert alone.figures["training.flop"] == with_more.figures["training.flop"]


def test_samples_beyond_the_bounds_are_clipped_and_their_share_reported():
    result = sample(INPUTS, {"training.mfu": Range(0.5, 0.99)}, SAMPLES, seed=0)
    # ln MFU ~ N(μ, σ); P(MFU > 1) = 1 − Φ(−μ / σ).
    mu = (math.log(0.5) + math.log(0.99)) / 2
    sigma = (math.log(0.99) - math.log(0.5)) / (2 * 1.6448536269514722)
    expected = 0.5 * math.erfc(-mu / sigma / math.sqrt(2))
    se = math.sqrt(expected * (1 - expected) / SAMPLES)
    assert result.clipped["training.mfu"] == pytest.approx(expected, abs=4 * se)
    # Clipped to MFU 1 at most: no sample needs fewer hours than MFU 1 gives.
    at_mfu_one = estimate(EstimateInput(training=replace(TRAINING, mfu=1.0)))
    hours = result.figures["training.accelerator_hours"]
    assert hours.p5 >= at_mfu_one.training.accelerator_hours


def test_low_equal_to_high_is_a_fixed_value():
    result = sample(INPUTS, {"training.mfu": Range(0.5, 0.5)}, 1_000, seed=0)
    fixed = estimate(EstimateInput(training=replace(TRAINING, mfu=0.5)))
    hours = result.figures["training.accelerator_hours"]
    assert hours.p5 == hours.p50 == hours.p95 == pytest.approx(fixed.training.accelerator_hours)
    assert result.clipped == {}


def test_figures_that_cannot_be_computed_are_absent():
    # No power figure: no energy; no inference section: no inference or comparison figures.
    result = sample(EstimateInput(training=TRAINING), {"training.tokens": Range(1e12, 2e12)}, 1_000)
    assert "training.energy_kwh" not in result.figures
    assert "training.cost" in result.figures
    assert not any(path.startswith(("inference.", "comparison.")) for path in result.figures)


def test_break_even_is_never_when_inference_cannot_catch_up():
    tiny = replace(INPUTS.inference, requests_per_month=1.0)
    result = sample(
        EstimateInput(training=TRAINING, inference=tiny),
        {"inference.accelerator_seconds_per_request": Range(1.0, 3.0)},
        1_000,
    )
    figure = result.figures["comparison.break_even_months"]
    assert figure.probability_never == 1.0
    assert (figure.p5, figure.p50, figure.p95, figure.mean) == (None, None, None, None)


@pytest.mark.parametrize(
    ("path", "interval", "expected"),
    [
        ("training.mfu", Range(0.5, 0.3), "above the high end"),
        ("training.mfu", Range(0.3, 1.5), "MFU must be more than 0"),
        ("training.tokens", Range(0.0, 1e12), "must be more than 0"),
        ("inference.monthly_growth", Range(-1.0, 0.1), "Monthly growth must be more than −1"),
        ("inference.months", Range(6, 24), "cannot carry a range"),
        ("training.bogus", Range(1, 2), "Unknown input"),
        ("training.method", Range(1, 2), "Unknown input"),
        ("training.total_flop", Range(1e22, 1e23), "not part of the estimate"),
        ("inference.pricing.purchase_price", Range(1e4, 4e4), "not part of the estimate"),
    ],
)
def test_ranges_the_inputs_cannot_take_are_errors_at_their_path(path, interval, expected):
    with pytest.raises(EstimateInputError) as raised:
        sample(INPUTS, {path: interval})
    messages = raised.value.errors[path]
    assert any(expected in message for message in messages), messages


def test_range_errors_accepts_a_valid_range_and_negative_growth():
    assert range_errors("mfu", 0.3, 0.6) == []
    assert range_errors("monthly_growth", -0.2, 0.1) == []
    assert range_errors("revenue_per_request", 0.001, 0.01) == []


@pytest.mark.parametrize("samples", [1, 0, 1.5, True])
def test_sample_counts_must_be_whole_and_at_least_two(samples):
    with pytest.raises(ValueError, match="samples"):
        sample(INPUTS, RANGES, samples)
