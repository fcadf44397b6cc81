"""Reasoning tokens (decoded and billed as output) and cached input tokens (no prefill compute,
KV cache still held) in both methods, against hand computations."""

import math
from dataclasses import is_dataclass, replace
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.estimates import (
    EstimateInput,
    EstimateInputError,
    Hardware,
    InferenceInput,
    Pricing,
    estimate,
    evaluate,
)
from apps.estimates.sections import compute
from apps.estimates.uncertainty import sample
from apps.estimates.uncertainty_draws import Range
from tests.unit.estimates.serving_cases import H100_FP8, LLAMA_31_8B, serving_input
from tests.unit.estimates.test_serving_properties import POINTS, models

OVERHEAD = 2 * 2**30
# 1,000 input tokens of which 400 cached, 500 visible output, 1,500 reasoning; 2.50 / 1.25 / 10
# USD per million tokens.
API = {
    "method": "external_api",
    "input_tokens": 1000,
    "cached_input_tokens": 400,
    "output_tokens": 500,
    "reasoning_tokens": 1500,
    "price_per_million_input_tokens": 2.5,
    "price_per_million_cached_input_tokens": 1.25,
    "price_per_million_output_tokens": 10.0,
    "requests_per_month": 10_000,
}
# A 7B model on an H100 without its dimensions: FLOP-based figures, no serving plan.
H100_ONLY = Hardware(peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12)
TOKENS = {
    "method": "tokens",
    "hardware": H100_ONLY,
    "parameters": 7e9,
    "input_tokens": 1000,
    "cached_input_tokens": 200,
    "output_tokens": 500,
    "reasoning_tokens": 1500,
    "requests_per_month": 100_000,
    "pricing": Pricing(price_per_accelerator_hour=3.6),
}


def api(**changes) -> EstimateInput:
    return EstimateInput(inference=InferenceInput(**{**API, **changes}))


def flop_based(**changes) -> EstimateInput:
    return EstimateInput(inference=InferenceInput(**{**TOKENS, **changes}))


def plan_of(inp: EstimateInput):
    return compute(inp)[1].serving


# External API


def test_an_external_api_bills_reasoning_tokens_at_the_output_price():
    result = estimate(api()).inference
    # (600 × 2.50 + 400 × 1.25 + (500 + 1,500) × 10) / 1e6 = 22,000 / 1e6 = 0.022 USD
    assert result.per_request.cost_per_1000 == Decimal("22.00")
    assert result.monthly[0].cost == Decimal("220.00")
    without = estimate(api(reasoning_tokens=0)).inference
    assert without.per_request.cost_per_1000 == Decimal("7.00")


def test_the_result_reports_visible_output_and_reasoning_tokens_apart():
    per_request = estimate(api()).inference.per_request
    assert (per_request.output_tokens, per_request.reasoning_tokens) == (500.0, 1500.0)
    assert estimate(flop_based()).inference.per_request.reasoning_tokens == 1500.0
    given = EstimateInput(
        inference=InferenceInput(
            method="accelerator_seconds",
            accelerator_seconds_per_request=2.0,
            pricing=Pricing(price_per_accelerator_hour=2.0),
        )
    )
    per_request = estimate(given).inference.per_request
    assert (per_request.output_tokens, per_request.reasoning_tokens) == (None, None)


def test_an_external_api_says_reasoning_tokens_are_billed_as_output():
    notes = [str(note) for note in estimate(api()).inference.assumptions]
    assert any("500 output tokens and 1,500 reasoning tokens" in note for note in notes)


# Self-hosted, from FLOP (no model dimensions)


def test_self_hosted_flop_skip_cached_input_and_count_reasoning_as_output():
    result = estimate(flop_based()).inference
    # 2 × 7e9 × ((1,000 − 200) + (500 + 1,500)) = 2 × 7e9 × 2,800 = 3.92e13 FLOP
    assert result.per_request.flop == pytest.approx(3.92e13, rel=1e-15)
    seconds = 3.92e13 / (989.4e12 * 0.3)
    assert result.per_request.accelerator_seconds == pytest.approx(seconds, rel=1e-15)
    # Pay per use at 3.60 an accelerator-hour: 0.001 per accelerator-second.
    assert float(result.per_request.cost_per_1000) == pytest.approx(seconds, abs=0.005)


def test_the_roofline_latency_prefills_the_uncached_input_and_decodes_reasoning_too():
    result = estimate(flop_based()).inference
    prefill = 2 * 7e9 * 800 / (989.4e12 * 0.3)
    decode = 2000 * 7e9 * 2.0 / 3.35e12
    assert result.per_request.latency_method == "roofline"
    assert result.per_request.latency_seconds == pytest.approx(prefill + decode, rel=1e-14)


# Self-hosted, with a serving plan


def test_reasoning_tokens_are_served_as_decoded_output_tokens():
    # 8B in fp8 on one H100 with an fp8 KV cache (64 KiB a token): 200 visible + 800 reasoning.
    fp8 = {"bytes_per_parameter": 1.0, "kv_cache_bytes_per_element": 1.0}
    reasoning = estimate(
        serving_input(LLAMA_31_8B, H100_FP8, output_tokens=200, reasoning_tokens=800, **fp8)
    ).inference
    capacity = math.floor((72e9 - 8.03e9 - OVERHEAD) / 65_536)
    # The mean context while decoding is 1,000 + (200 + 800) / 2 tokens.
    assert reasoning.serving.max_concurrent_requests == math.floor(capacity / 1500) == 628
    assert reasoning.serving.batch_size == 628
    # The same plan as 1,000 visible output tokens: speed, latency, accelerators, cost.
    visible = estimate(serving_input(LLAMA_31_8B, H100_FP8, output_tokens=1000, **fp8)).inference
    assert reasoning.serving == visible.serving
    assert reasoning.per_request.cost == visible.per_request.cost
    assert reasoning.per_request.accelerator_seconds == visible.per_request.accelerator_seconds
    # The user waits for the reasoning as for the answer; a copy serves X / 1,000 requests/s.
    serving = reasoning.serving
    assert reasoning.per_request.latency_seconds == pytest.approx(
        serving.ttft_seconds + 1000 * serving.tpot_seconds
    )
    assert serving.requests_per_second == pytest.approx(serving.output_tokens_per_second / 1000)
    assert reasoning.per_request.accelerator_seconds == pytest.approx(
        1 / serving.requests_per_second
    )


def test_cached_input_tokens_skip_prefill_compute_on_a_self_hosted_server():
    # 8B in bf16 on one H100: prefill of 1,000 − 600 = 400 tokens, attention over the whole
    # context, a = 2 × 32 layers × 32 heads × 128 = 262,144 FLOP per squared token.
    cached = serving_input(LLAMA_31_8B, cached_input_tokens=600)
    flop = 2 * 8.03e9 * 400 + 262_144 * (1000**2 - 600**2)
    weights_read = 16.06e9 / (3.35e12 * 0.7)
    prefill = max(flop / (989e12 * 0.3), weights_read)
    assert plan_of(cached).prefill_seconds == pytest.approx(prefill, rel=1e-12)
    full = plan_of(serving_input(LLAMA_31_8B))
    full_flop = 2 * 8.03e9 * 1000 + 262_144 * 1000**2
    assert full.prefill_seconds == pytest.approx(full_flop / (989e12 * 0.3), rel=1e-12)
    result = estimate(cached).inference.serving
    assert result.ttft_seconds == pytest.approx(prefill + result.tpot_seconds)


def test_cached_input_tokens_still_hold_their_kv_cache():
    cached = estimate(serving_input(LLAMA_31_8B, cached_input_tokens=600)).inference.serving
    full = estimate(serving_input(LLAMA_31_8B)).inference.serving
    # 131,072 bytes a token in bf16; the mean context is still 1,000 + 1,000 / 2 tokens.
    capacity = math.floor((72e9 - 16.06e9 - OVERHEAD) / 131_072)
    assert cached.kv_cache_capacity_tokens == full.kv_cache_capacity_tokens == capacity
    assert cached.max_concurrent_requests == full.max_concurrent_requests
    assert cached.memory_per_accelerator_gb == full.memory_per_accelerator_gb
    # Less prefill: the copy spends more of its time decoding, and serves more.
    assert cached.output_tokens_per_second > full.output_tokens_per_second


def test_a_fully_cached_prompt_still_reads_the_weights_once():
    plan = plan_of(serving_input(LLAMA_31_8B, cached_input_tokens=1000))
    assert plan.prefill_seconds == pytest.approx(16.06e9 / (3.35e12 * 0.7), rel=1e-12)


def test_cached_input_above_the_input_is_refused_in_both_methods():
    for inp in (flop_based(cached_input_tokens=1001), api(cached_input_tokens=1001)):
        with pytest.raises(EstimateInputError) as error:
            estimate(inp)
        assert error.value.errors == {
            "inference.cached_input_tokens": [
                "Cached input tokens are part of the input tokens: at most as many."
            ]
        }
    with pytest.raises(EstimateInputError):
        evaluate(serving_input(LLAMA_31_8B, cached_input_tokens=np.array([10.0, 2000.0])))


def test_reasoning_tokens_must_be_within_their_range():
    with pytest.raises(EstimateInputError) as error:
        estimate(flop_based(reasoning_tokens=-1))
    assert error.value.errors == {
        "inference.reasoning_tokens": [
            "Reasoning tokens per request must be between 0 and 10 million."
        ]
    }


# Scalar and vectorised alike


@pytest.mark.parametrize(
    "inputs",
    [
        pytest.param(lambda **v: serving_input(LLAMA_31_8B, **v), id="serving"),
        pytest.param(lambda **v: flop_based(**v), id="flop"),
        pytest.param(lambda **v: api(**v), id="external_api"),
    ],
)
def test_scalar_and_vectorised_agree_exactly_on_reasoning_and_cached_tokens(inputs):
    reasoning = np.array([0.0, 250.0, 4000.0, 12_000.0])
    cached = np.array([0.0, 500.0, 999.0, 1000.0])
    swept = evaluate(inputs(reasoning_tokens=reasoning, cached_input_tokens=cached))
    for index in range(len(reasoning)):
        one = evaluate(
            inputs(
                reasoning_tokens=float(reasoning[index]), cached_input_tokens=float(cached[index])
            )
        )
        for name, value in vars(one).items():
            np.testing.assert_array_equal(getattr(swept, name)[index], value, err_msg=name)


# Ranges


def test_a_range_on_reasoning_tokens_carries_to_the_cost_per_request():
    result = sample(api(), {"inference.reasoning_tokens": Range(500, 4500)}, 100_000, seed=0)
    cost = result.figures["inference.per_request.cost_per_1000"]
    # Per 1,000 requests: 2.00 for the input, 5.00 for the visible output, 0.01 per reasoning
    # token; the percentiles of a linear cost are those of the reasoning tokens (lognormal with
    # 5th and 95th percentiles 500 and 4,500, median √(500 × 4,500) = 1,500).
    assert float(cost.p5) == pytest.approx(7 + 0.01 * 500, rel=0.02)
    assert float(cost.p50) == pytest.approx(7 + 0.01 * 1500, rel=0.02)
    assert float(cost.p95) == pytest.approx(7 + 0.01 * 4500, rel=0.02)


def test_a_range_on_reasoning_tokens_widens_the_self_hosted_latency():
    inp = serving_input(LLAMA_31_8B, output_tokens=200)
    result = sample(inp, {"inference.reasoning_tokens": Range(100, 3000)}, 20_000, seed=1)
    latency = result.figures["inference.per_request.latency_seconds"]
    low = estimate(replace_reasoning(inp, 100)).inference.per_request.latency_seconds
    high = estimate(replace_reasoning(inp, 3000)).inference.per_request.latency_seconds
    assert latency.p5 == pytest.approx(low, rel=0.05)
    assert latency.p95 == pytest.approx(high, rel=0.05)


def test_sampled_cached_tokens_above_the_input_are_set_to_the_input_when_self_hosted():
    inp = serving_input(LLAMA_31_8B, input_tokens=1000)
    result = sample(inp, {"inference.cached_input_tokens": Range(200, 2000)}, 20_000, seed=2)
    # ln-uniform median √(200 × 2,000) ≈ 632 < 1,000: some samples, not most, are set to 1,000.
    assert 0.05 < result.clipped["inference.cached_input_tokens"] < 0.5


def replace_reasoning(inp: EstimateInput, reasoning: float) -> EstimateInput:
    return replace(inp, inference=replace(inp.inference, reasoning_tokens=reasoning))


def test_a_self_hosted_estimate_says_what_reasoning_and_cached_tokens_do():
    inp = serving_input(
        LLAMA_31_8B, output_tokens=200, reasoning_tokens=800, cached_input_tokens=600
    )
    notes = [str(note) for note in estimate(inp).inference.assumptions]
    assert (
        "Per request: 200 output tokens and 800 reasoning tokens, both decoded one by one; 600 "
        "of the 1,000 input tokens come from a prefix cache, so their prefill is skipped while "
        "their KV cache is still held in memory."
    ) in notes
    plain = [str(note) for note in estimate(serving_input(LLAMA_31_8B)).inference.assumptions]
    assert not any("reasoning tokens" in note for note in plain)


# Properties over random models (the serving properties' own generator)


@settings(max_examples=40, deadline=None)
@given(
    model=models(),
    output=st.floats(1, 5_000),
    reasoning=st.floats(0, 20_000),
    cached_share=st.floats(0.0, 1.0),
)
def test_reasoning_tokens_are_served_as_output_and_cached_ones_never_slow_the_prefill(
    model, output, reasoning, cached_share
):
    cached = 2000 * cached_share
    with_reasoning = serving_input(
        model, output_tokens=output, reasoning_tokens=reasoning, input_tokens=2000
    )
    as_output = serving_input(model, output_tokens=output + reasoning, input_tokens=2000)
    for name, value in vars(plan_of(with_reasoning)).items():
        assert_same(value, getattr(plan_of(as_output), name), name)
    miss = plan_of(with_reasoning)
    if miss.fits:
        # A cached prompt may make a smaller copy the cheaper choice, never a costlier one; on the
        # same copy size it holds the same KV cache and never prefills more slowly.
        assert plan_of(replace_cached(with_reasoning, cached)).peak_accelerators <= (
            miss.peak_accelerators
        )
        same_copy = replace(
            with_reasoning,
            inference=replace(
                with_reasoning.inference, accelerators_per_replica=miss.accelerators_per_replica
            ),
        )
        # (A copy size given is laid out tensor parallel, which the choice may not have been.)
        hit, miss = (plan_of(replace_cached(same_copy, share)) for share in (cached, 0.0))
        assert hit.fits == miss.fits
        assert hit.prefill_seconds <= miss.prefill_seconds
        assert hit.kv_cache_capacity_tokens == miss.kv_cache_capacity_tokens


@settings(max_examples=30, deadline=None)
@given(
    model=models(),
    reasoning=st.lists(st.floats(0, 20_000), min_size=POINTS, max_size=POINTS),
    cached=st.lists(st.floats(0, 1000), min_size=POINTS, max_size=POINTS),
)
def test_scalar_and_vectorised_agree_exactly_on_random_models(model, reasoning, cached):
    arrays = evaluate(
        serving_input(
            model, reasoning_tokens=np.array(reasoning), cached_input_tokens=np.array(cached)
        )
    )
    for index in range(POINTS):
        one = evaluate(
            serving_input(
                model, reasoning_tokens=reasoning[index], cached_input_tokens=cached[index]
            )
        )
        for name, value in vars(one).items():
            np.testing.assert_array_equal(getattr(arrays, name)[index], value, err_msg=name)


def assert_same(actual, desired, name: str) -> None:
    """Equal figure by figure, into the replica sizes considered, where a size that does not
    fit has NaN figures on both sides (NaN equals NaN here, as numpy's array comparison has it)."""
    if isinstance(actual, tuple) and actual and is_dataclass(actual[0]):
        assert len(actual) == len(desired), name
        for one, other in zip(actual, desired, strict=True):
            for field, value in vars(one).items():
                assert_same(value, getattr(other, field), f"{name}.{field}")
        return
    np.testing.assert_array_equal(actual, desired, err_msg=name)


def replace_cached(inp: EstimateInput, cached: float) -> EstimateInput:
    return replace(inp, inference=replace(inp.inference, cached_input_tokens=cached))
