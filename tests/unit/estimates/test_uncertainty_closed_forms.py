"""Monte Carlo ranges against closed forms: products of lognormals are lognormal, exactly known."""

import math
from dataclasses import replace
from decimal import Decimal
from statistics import NormalDist

import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
    uncertainty_draws,
)
from apps.estimates.uncertainty import sample
from apps.estimates.uncertainty_draws import Range

PEAK = 989.4e12
H100 = Hardware(peak_flops_per_second=PEAK, memory_bandwidth_bytes_per_second=3.35e12)
RENT = Pricing(mode="rent", price_per_accelerator_hour=2.5)
TRAINING = TrainingInput(
    method="parameters_tokens",
    hardware=H100,
    parameters=7e9,
    tokens=2e12,
    mfu=0.4,
    goodput=0.9,
    pricing=RENT,
)
SERVING = InferenceInput(
    method="accelerator_seconds",
    accelerator_seconds_per_request=2.0,
    requests_per_month=1e6,
    months=24,
    pricing=RENT,
)
INPUTS = EstimateInput(training=TRAINING, inference=SERVING, energy=EnergyProfile(pue=1.2))
SAMPLES = 100_000
STANDARD_NORMAL = NormalDist()
Z_95 = STANDARD_NORMAL.inv_cdf(0.95)
# Relative standard error of an estimated quantile of a lognormal, per σ_out / √M (the normal's
# √(q(1−q)) / φ(z_q)): about 1.25 at the median and 2.1 at the 5th and 95th percentiles.
K = {"p5": 2.113, "p50": 1.2533, "p95": 2.113}
SAFETY = 4.0  # standard errors allowed: a false failure about once in 16,000 runs per figure


def log_moments(interval: Range) -> tuple[float, float]:
    low, high = math.log(interval.low), math.log(interval.high)
    return (low + high) / 2, (high - low) / (2 * Z_95)


def lognormal_percentiles(mu: float, sigma: float) -> dict[str, float]:
    z = Z_95
    return {
        "p5": math.exp(mu - z * sigma),
        "p50": math.exp(mu),
        "p95": math.exp(mu + z * sigma),
        "mean": math.exp(mu + sigma**2 / 2),
    }


def within_sampling_error(figure, expected: dict[str, float], sigma: float, samples: int) -> bool:
    for name, k in K.items():
        allowed = SAFETY * k * sigma / math.sqrt(samples)
        if abs(float(getattr(figure, name)) / expected[name] - 1) > allowed:
            return False
    # The mean of a lognormal has relative standard error √(e^σ² − 1) / √M.
    allowed = SAFETY * math.sqrt(math.expm1(sigma**2)) / math.sqrt(samples)
    return abs(float(figure.mean) / expected["mean"] - 1) <= allowed


TOKENS = Range(1e12, 4e12)
PARAMETERS = Range(3e9, 1.2e10)
MFU = Range(0.3, 0.5)
TRAINING_RANGES = {
    "training.tokens": TOKENS,
    "training.parameters": PARAMETERS,
    "training.mfu": MFU,
}


def training_hours_distribution() -> tuple[float, float]:
    """ln(hours) = ln(6 · N · D / (peak · MFU · goodput · 3600)): a sum of normals."""
    moments = [log_moments(r) for r in (TOKENS, PARAMETERS, MFU)]
    mu = (
        math.log(6 / (PEAK * TRAINING.goodput * 3600))
        + moments[0][0]
        + moments[1][0]
        - moments[2][0]
    )
    sigma = math.sqrt(sum(s**2 for _, s in moments))
    return mu, sigma


def test_training_accelerator_hours_of_lognormal_tokens_parameters_and_mfu_are_lognormal():
    mu, sigma = training_hours_distribution()
    result = sample(INPUTS, TRAINING_RANGES, SAMPLES, seed=0)
    figure = result.figures["training.accelerator_hours"]
    assert within_sampling_error(figure, lognormal_percentiles(mu, sigma), sigma, SAMPLES)
    # MFU between 0.3 and 0.5 passes 1 about six σ out: nothing to clip.
    assert result.clipped == {}


def test_the_check_fails_when_sigma_is_ten_percent_off(monkeypatch):
    mu, sigma = training_hours_distribution()
    monkeypatch.setattr(uncertainty_draws, "Z_95", uncertainty_draws.Z_95 / 1.1)  # σ 10 % too wide
    figure = sample(INPUTS, TRAINING_RANGES, SAMPLES, seed=0).figures["training.accelerator_hours"]
    assert not within_sampling_error(figure, lognormal_percentiles(mu, sigma), sigma, SAMPLES)


def test_cost_is_hours_times_a_lognormal_price_and_leaves_as_money():
    mu, sigma = training_hours_distribution()
    price = Range(2.0, 4.0)
    price_mu, price_sigma = log_moments(price)
    ranges = {**TRAINING_RANGES, "training.pricing.price_per_accelerator_hour": price}
    figure = sample(INPUTS, ranges, SAMPLES, seed=3).figures["training.cost"]
    assert isinstance(figure.p50, Decimal)
    total_sigma = math.hypot(sigma, price_sigma)
    expected = lognormal_percentiles(mu + price_mu, total_sigma)
    assert within_sampling_error(figure, expected, total_sigma, SAMPLES)


def test_inference_hours_of_lognormal_demand_and_accelerator_seconds():
    requests, seconds = Range(2e5, 5e6), Range(0.5, 4.0)
    (r_mu, r_sigma), (s_mu, s_sigma) = log_moments(requests), log_moments(seconds)
    ranges = {
        "inference.requests_per_month": requests,
        "inference.accelerator_seconds_per_request": seconds,
    }
    figure = sample(INPUTS, ranges, SAMPLES, seed=1).figures["inference.total.accelerator_hours"]
    # No growth: hours = R · 24 months · s / 3600.
    mu = r_mu + s_mu + math.log(SERVING.months / 3600)
    sigma = math.hypot(r_sigma, s_sigma)
    assert within_sampling_error(figure, lognormal_percentiles(mu, sigma), sigma, SAMPLES)


def test_growth_factor_one_plus_g_is_the_lognormal_so_growth_may_be_negative():
    growth = Range(-0.05, 0.15)
    inputs = EstimateInput(inference=replace(SERVING, months=2))
    figure = sample(inputs, {"inference.monthly_growth": growth}, SAMPLES, seed=2).figures[
        "inference.total.requests"
    ]
    # Two months: R · (1 + (1 + g)), increasing in g, so its percentiles are (1 + g)'s.
    factor_p5, factor_p95 = 1 + growth.low, 1 + growth.high
    sigma = math.log(factor_p95 / factor_p5) / (2 * Z_95)
    allowed = SAFETY * K["p5"] * sigma / math.sqrt(SAMPLES)
    assert float(figure.p5) / (1e6 * (1 + factor_p5)) == pytest.approx(1, abs=allowed)
    assert float(figure.p95) / (1e6 * (1 + factor_p95)) == pytest.approx(1, abs=allowed)


def test_break_even_months_percentiles_and_the_share_that_never_breaks_even():
    requests = Range(1e6, 1e8)
    r_mu, r_sigma = log_moments(requests)
    horizon = SERVING.months
    result = sample(INPUTS, {"inference.requests_per_month": requests}, SAMPLES, seed=4)
    figure = result.figures["comparison.break_even_months"]
    training_hours = estimate(INPUTS).training.accelerator_hours
    # No growth: months = T / (R · s / 3600); never within the horizon when R < T · 3600 / (s · H).
    threshold = training_hours * 3600 / (SERVING.accelerator_seconds_per_request * horizon)
    expected_never = STANDARD_NORMAL.cdf((math.log(threshold) - r_mu) / r_sigma)
    binomial_se = math.sqrt(expected_never * (1 - expected_never) / SAMPLES)
    assert figure.probability_never == pytest.approx(expected_never, abs=SAFETY * binomial_se)
    assert 0.05 < expected_never < 0.5  # so the median breaks even and the 95th does not
    # A high percentile of months is a low percentile of demand.
    months = lognormal_percentiles(
        math.log(training_hours * 3600 / SERVING.accelerator_seconds_per_request) - r_mu, r_sigma
    )
    allowed = SAFETY * K["p5"] * r_sigma / math.sqrt(SAMPLES)
    assert figure.p5 / months["p5"] == pytest.approx(1, abs=allowed)
    assert figure.p50 / months["p50"] == pytest.approx(1, abs=allowed)
    assert figure.p95 is None
    assert figure.mean is None  # infinite: some samples never break even


def test_one_price_for_training_and_inference_is_one_driver():
    price = Range(1.5, 5.0)
    shared = sample(INPUTS, {"training.pricing.price_per_accelerator_hour": price}, SAMPLES, seed=5)
    assert shared.shared == (
        (
            "training.pricing.price_per_accelerator_hour",
            "inference.pricing.price_per_accelerator_hour",
        ),
    )
    figures = shared.figures
    # One price sample for both: costs move together, so the total's percentile is the sum of
    # the two sections' percentiles (as it would not be for independent prices).
    for name in ("p5", "p50", "p95"):
        together = getattr(figures["training.cost"], name) + getattr(
            figures["inference.total.cost"], name
        )
        assert float(getattr(figures["comparison.total_cost"], name)) == pytest.approx(
            float(together), abs=0.02
        )
    assert figures["inference.total.cost"].p95 > figures["inference.total.cost"].p5


def test_different_prices_are_separate_drivers_and_totals_are_not_sums_of_percentiles():
    inference = replace(SERVING, pricing=Pricing(mode="rent", price_per_accelerator_hour=3.0))
    inputs = EstimateInput(training=TRAINING, inference=inference)
    ranges = {
        "training.pricing.price_per_accelerator_hour": Range(1.5, 5.0),
        "inference.pricing.price_per_accelerator_hour": Range(1.5, 5.0),
        "inference.requests_per_month": Range(1e6, 1e8),
    }
    result = sample(inputs, ranges, SAMPLES, seed=6)
    assert result.shared == ()
    figures = result.figures
    total_p95 = figures["comparison.total_cost"].p95
    assert total_p95 < figures["training.cost"].p95 + figures["inference.total.cost"].p95
