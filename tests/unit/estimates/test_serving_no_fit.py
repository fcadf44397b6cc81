"""A model that fits no replica: every figure that rests on a replica is None (NaN in arrays)."""

import math
from dataclasses import replace

import numpy as np

from apps.estimates import EstimateInput, TrainingInput, estimate, evaluate
from tests.unit.estimates.serving_cases import H100, LLAMA_31_405B, serving_input

# 4 GB: 3.6 GB usable, 2.15 of it overhead; 80 GB: Llama 3.1 405B fits two nodes.
MEMORIES = (4e9, 80e9)

FIGURES = (
    "inference_accelerator_seconds_per_request",
    "inference_latency_seconds",
    "inference_accelerator_hours",
    "inference_cost",
    "inference_energy_kwh",
    "peak_accelerators",
    "cost_per_request",
    "serving_accelerators_per_replica",
    "serving_replicas_at_peak",
)


def _scenario(memory, **overrides):
    inp = serving_input(LLAMA_31_405B, replace(H100, memory_bytes=memory), **overrides)
    return inp


def _scalar(result):
    inference = result.inference
    return {
        "inference_accelerator_seconds_per_request": inference.per_request.accelerator_seconds,
        "inference_latency_seconds": inference.per_request.latency_seconds,
        "inference_accelerator_hours": inference.total.accelerator_hours,
        "inference_cost": inference.total.cost,
        "inference_energy_kwh": inference.total.energy_kwh,
        "peak_accelerators": inference.peak_accelerators,
        "cost_per_request": inference.per_request.cost,
        "serving_accelerators_per_replica": inference.serving.accelerators_per_replica,
        "serving_replicas_at_peak": inference.serving.replicas_at_peak,
    }


def test_no_replica_no_accelerators_no_cost_no_energy_no_wait():
    result = estimate(_scenario(4e9, provisioning="always_on")).inference
    assert result.serving.fits is False
    assert result.peak_accelerators is None
    assert result.per_request.accelerator_seconds is None
    assert result.per_request.latency_seconds is None
    assert result.per_request.cost is None and result.per_request.cost_per_1000 is None
    assert result.per_request.precise_cost is None
    assert result.per_request.energy_kwh is None
    total = result.total
    assert (total.cost, total.pay_per_use_cost, total.always_on_cost) == (None, None, None)
    assert (total.accelerator_hours, total.energy_kwh, total.emissions_kg_co2e) == (
        None,
        None,
        None,
    )
    assert result.peak_concurrent_requests is None
    assert all(month.cost is None and month.accelerator_hours is None for month in result.monthly)
    # The FLOP per request does not rest on a replica: it stays.
    assert result.per_request.flop == 2 * LLAMA_31_405B["parameters"] * 2000


def test_a_given_latency_stays_where_the_model_does_not_fit():
    result = estimate(_scenario(4e9, latency_seconds=3.0)).inference
    assert result.per_request.latency_seconds == 3.0
    assert result.per_request.cost is None


def test_the_comparison_with_training_has_no_inference_side_either():
    inp = _scenario(4e9)
    training = TrainingInput(
        method="total_flop",
        hardware=H100,
        total_flop=1e24,
        pricing=inp.inference.pricing,
    )
    result = estimate(EstimateInput(training=training, inference=inp.inference))
    comparison = result.comparison
    assert comparison.break_even_months is None and comparison.training_share is None
    assert all(month.inference_cost is None for month in comparison.cumulative)
    assert result.training.cost is not None


def test_scalar_and_vectorised_agree_where_one_point_fits_and_one_does_not():
    figures = evaluate(_scenario(np.array(MEMORIES)))
    for index, memory in enumerate(MEMORIES):
        scalar = _scalar(estimate(_scenario(memory)))
        for name in FIGURES:
            value = float(getattr(figures, name)[index])
            if scalar[name] is None:
                assert math.isnan(value), name
            else:
                assert value == float(scalar[name]) or math.isclose(
                    value, float(scalar[name]), abs_tol=0.005
                ), name
    assert math.isnan(figures.peak_accelerators[0])
    assert figures.peak_accelerators[1] == 16 * figures.serving_replicas_at_peak[1]


def test_a_commitment_for_a_model_that_fits_no_replica_has_no_figures():
    result = estimate(_scenario(4e9, provisioning="committed", commitment_discount=0.4)).inference
    assert result.commitment is None and result.total.cost is None
    figures = evaluate(_scenario(4e9, provisioning="committed", commitment_discount=0.4))
    assert math.isnan(figures.inference_cost)
