"""The fan of the cumulative cost: each month's percentiles are those of the samples' own curves."""

from dataclasses import replace

import numpy as np
import pytest

from apps.estimates.engine import inference_cost_to_date
from apps.estimates.inputs import EstimateInput, with_value
from apps.estimates.quantiles import _linear_quantiles
from apps.estimates.sections import compute
from apps.estimates.uncertainty import sample
from apps.estimates.uncertainty_draws import Range, _draw, _drivers
from apps.estimates.uncertainty_fan import fan_months
from tests.unit.estimates.test_uncertainty_closed_forms import INPUTS, SERVING

SAMPLES = 5_000


def brute_force(inp: EstimateInput, ranges: dict[str, Range], seed: int) -> np.ndarray:
    """Every sample's whole cumulative cost curve (samples × months), then quantiles per month."""
    sampled = inp
    for paths in _drivers(inp, ranges):
        values, _ = _draw(paths[0].rpartition(".")[2], ranges[paths[0]], SAMPLES, seed, paths[0])
        for path in paths:
            sampled = with_value(sampled, tuple(path.split(".")), values)
    inference = compute(sampled)[1]
    months = np.arange(int(inp.inference.months) + 1.0)
    curves = np.broadcast_to(
        inference_cost_to_date(inference, months[:, None]), (len(months), SAMPLES)
    )
    return np.quantile(curves, (0.05, 0.5, 0.95), axis=1).T


@pytest.mark.parametrize(
    ("inputs", "ranges"),
    [
        # Demand growth fixed: every curve is its final cost times the same factor.
        (
            INPUTS,
            {"inference.requests_per_month": Range(2e5, 4e6), "training.mfu": Range(0.3, 0.5)},
        ),
        # Growth ranged: the curves cross, and each month needs its own percentiles.
        (
            replace(INPUTS, inference=replace(SERVING, monthly_growth=0.05)),
            {
                "inference.requests_per_month": Range(2e5, 4e6),
                "inference.monthly_growth": Range(-0.05, 0.15),
            },
        ),
        # Always on: provisioned hours grow with the month whatever the demand.
        (
            replace(INPUTS, inference=replace(SERVING, provisioning="always_on")),
            {"inference.requests_per_month": Range(2e5, 4e6)},
        ),
    ],
    ids=["fixed-growth", "ranged-growth", "always-on"],
)
def test_each_months_percentiles_are_those_of_the_per_sample_curves(inputs, ranges):
    result = sample(inputs, ranges, SAMPLES, seed=11, fan=True)
    expected = brute_force(inputs, ranges, seed=11)
    assert [row.month for row in result.fan] == list(range(int(inputs.inference.months) + 1))
    for row in result.fan:
        got = [float(row.p5), float(row.p50), float(row.p95)]
        assert got == pytest.approx(expected[row.month].tolist(), rel=1e-9, abs=0.01)
    # The final month is the horizon's total cost figure.
    total = result.figures["inference.total.cost"]
    assert (result.fan[-1].p5, result.fan[-1].p50, result.fan[-1].p95) == (
        total.p5,
        total.p50,
        total.p95,
    )


def test_the_band_is_not_the_curve_through_corners():
    # With growth ranged, the month-12 5th percentile is not the curve of the low-demand,
    # low-growth corner: that corner is rarer than 1 in 20 and lies below the band.
    inputs = replace(INPUTS, inference=replace(SERVING, monthly_growth=0.05))
    ranges = {
        "inference.requests_per_month": Range(2e5, 4e6),
        "inference.monthly_growth": Range(-0.05, 0.15),
    }
    result = sample(inputs, ranges, SAMPLES, seed=2, fan=True)
    corner = inference_cost_to_date(
        compute(
            with_value(
                with_value(inputs, ("inference", "requests_per_month"), 2e5),
                ("inference", "monthly_growth"),
                -0.05,
            )
        )[1],
        24.0,
    )
    assert float(result.fan[24].p5) > 1.5 * corner


def test_without_fan_or_inference_there_is_no_fan():
    ranges = {"training.mfu": Range(0.3, 0.5)}
    assert sample(INPUTS, ranges, 1_000).fan == ()
    assert sample(replace(INPUTS, inference=None), ranges, 1_000, fan=True).fan == ()


def test_long_horizons_are_shown_at_most_61_months_with_the_last():
    assert fan_months(12) == list(range(13))
    months = fan_months(240)
    assert len(months) <= 61 and months[0] == 0 and months[-1] == 240


@pytest.mark.parametrize("size", [2, 3, 7, 20, 21, 1_000, 99_999])
def test_the_fast_percentiles_are_numpys_to_the_last_bit(size):
    rng = np.random.default_rng(size)
    for values in (
        np.exp(3 * rng.standard_normal(size)),
        np.round(rng.uniform(0, 5, size)),  # ties
        np.where(rng.uniform(size=size) < 0.4, np.finfo(np.float64).max, rng.uniform(size=size)),
    ):
        expected = np.quantile(values, (0.05, 0.5, 0.95)).tolist()
        kept = values.copy()
        assert _linear_quantiles(values) == expected
        # The caller's samples keep their order: figures are compared sample by sample after.
        np.testing.assert_array_equal(values, kept)
        assert _linear_quantiles(np.broadcast_to(values, values.shape)) == expected
