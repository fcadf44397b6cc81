"""Properties of the serving plan: more memory never needs a larger replica; scalar ≡ vectorised."""

import math
from dataclasses import fields, replace

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from apps.estimates import (
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    estimate,
    evaluate,
    validate,
)
from apps.estimates.engine import BLOCK_POINTS
from apps.estimates.limits import RULES
from apps.estimates.sections import compute
from apps.estimates.serving_plan import largest_tensor_parallel
from tests.unit.estimates.serving_cases import H100, LLAMA_33_70B, serving_input

POINTS = 6


@st.composite
def models(draw: st.DrawFn) -> dict:
    """A dense or mixture-of-experts model with GQA, MLA or a given KV size, at random."""
    kv_heads = draw(st.sampled_from((1, 2, 4, 8, 16, 32)))
    query_heads = kv_heads * draw(st.sampled_from((1, 2, 4, 8)))
    active = draw(st.floats(1e8, 5e11))
    model = {
        "parameters": active,
        "layers": draw(st.integers(1, 160)),
        "query_heads": query_heads,
        "head_dim": draw(st.sampled_from((64, 128, 192, 256))),
        "hidden_size": draw(st.sampled_from((2048, 4096, 8192, 16384))),
    }
    kind = draw(st.sampled_from(("gqa", "mla", "given")))
    if kind == "gqa":
        model["kv_heads"] = kv_heads
        if draw(st.booleans()):  # sliding-window layers (Gemma, gpt-oss, Llama 4)
            model["sliding_window"] = draw(st.sampled_from((128, 1024, 4096)))
            model["sliding_window_layers"] = draw(st.integers(1, model["layers"]))
    elif kind == "mla":
        model["kv_latent_width"] = draw(st.sampled_from((320, 576, 1024)))
    else:
        model["kv_cache_bytes_per_token"] = draw(st.floats(1e3, 1e7))
    if draw(st.booleans()):
        model["total_parameters"] = active * draw(st.floats(1.0, 30.0))
        model["experts_total"] = draw(st.sampled_from((8, 64, 256)))
        model["experts_active"] = draw(st.sampled_from((1, 2, 6)))
    return model


def plan_of(inp: EstimateInput):
    validate(inp)
    return compute(inp)[1].serving


def scenario(model: dict, memory: float, **extra) -> EstimateInput:
    return serving_input(
        model,
        replace(H100, memory_bytes=memory),
        input_tokens=extra.pop("input_tokens", 1000.0),
        output_tokens=extra.pop("output_tokens", 500.0),
        **extra,
    )


@settings(max_examples=200, deadline=None)
@given(
    model=models(),
    memory=st.floats(8e9, 300e9),
    more=st.floats(0.0, 500e9),
    tokens=st.floats(1, 200_000),
)
def test_more_memory_per_accelerator_never_makes_the_smallest_fitting_replica_larger(
    model, memory, more, tokens
):
    small = plan_of(scenario(model, memory, input_tokens=tokens))
    large = plan_of(scenario(model, memory + more, input_tokens=tokens))
    if small.fits:
        assert large.fits
        assert _smallest_fitting(large).accelerators_per_replica <= (
            _smallest_fitting(small).accelerators_per_replica
        )


def _smallest_fitting(serving):
    return next(option for option in serving.options if option.fits)


def _same(a: object, b: object) -> bool:
    a, b = float(a), float(b)
    return (np.isnan(a) and np.isnan(b)) or a == b


@settings(max_examples=60, deadline=None)
@given(
    model=models(),
    memory=st.lists(st.floats(4e9, 300e9), min_size=POINTS, max_size=POINTS),
    output=st.lists(st.floats(1, 20_000), min_size=POINTS, max_size=POINTS),
    tpot=st.one_of(st.none(), st.floats(1e-4, 1.0)),
    ttft=st.one_of(st.none(), st.floats(1e-3, 30.0)),
    replica=st.one_of(st.none(), st.sampled_from((1, 2, 8, 16, 32))),
)
def test_scalar_and_vectorised_serving_agree_exactly(model, memory, output, tpot, ttft, replica):
    extra = {"tpot_target_seconds": tpot, "ttft_target_seconds": ttft}
    extra["accelerators_per_replica"] = replica
    if replica is not None:
        # A valid choice: it splits the query heads within a node; past it, whole stages.
        assume(replica > 8 or model["query_heads"] % replica == 0)
        # Past one node the stages are replica / the largest tensor-parallel degree the query
        # heads allow (1 for a single head), and there cannot be more stages than layers.
        largest = largest_tensor_parallel(H100.accelerators_per_node, model["query_heads"])
        assume(replica / largest <= model["layers"])
    arrays = scenario(model, np.array(memory), output_tokens=np.array(output), **extra)
    vector = plan_of(arrays)
    figures = evaluate(arrays)
    for index in range(POINTS):
        one = scenario(model, memory[index], output_tokens=output[index], **extra)
        scalar = plan_of(one)
        _assert_same_at(scalar, vector, index, skip="options")
        assert len(scalar.options) == len(vector.options)
        for scalar_option, vector_option in zip(scalar.options, vector.options, strict=True):
            _assert_same_at(scalar_option, vector_option, index)
        single = evaluate(one)
        for field in fields(single):
            assert _same(getattr(single, field.name), getattr(figures, field.name)[index])


def _assert_same_at(scalar: object, vector: object, index: int, skip: str = "") -> None:
    for field in fields(scalar):
        if field.name != skip:
            value = np.broadcast_to(getattr(vector, field.name), (POINTS,))[index]
            assert _same(getattr(scalar, field.name), value), field.name


def _any(name: str) -> st.SearchStrategy:
    """Any valid value of an input, its range's extremes included."""
    rule = RULES[name]
    if rule.whole:
        return st.integers(int(rule.low), int(rule.high)).map(float)
    return st.floats(rule.low, rule.high)


@settings(max_examples=300, deadline=None)
@given(
    numbers=st.fixed_dictionaries(
        {
            name: _any(name)
            for name in (
                "layers",
                "kv_heads",
                "head_dim",
                "input_tokens",
                "kv_cache_bytes_per_element",
                "memory_utilization",
                "memory_efficiency",
                "utilization",
                "target_utilization",
                "requests_per_month",
            )
        }
    ),
    active=st.floats(1.0, 1e15),  # serving needs more than 0 active parameters
    output=st.floats(1, 1e7),
    hardware=st.fixed_dictionaries(
        {
            name: _any(name)
            for name in (
                "peak_flops_per_second",
                "memory_bandwidth_bytes_per_second",
                "memory_bytes",
                "accelerators_per_node",
                "interconnect_bytes_per_second",
            )
        }
    ),
    tpot=st.one_of(st.none(), _any("tpot_target_seconds")),
)
def test_any_valid_serving_input_gives_finite_figures_or_none(
    numbers, active, output, hardware, tpot
):
    inp = EstimateInput(
        inference=InferenceInput(
            method="tokens",
            parameters=active,
            hardware=Hardware(**hardware),
            output_tokens=output,
            tpot_target_seconds=tpot,
            pricing=Pricing(price_per_accelerator_hour=2.0),
            **numbers,
        )
    )
    result = estimate(inp).inference
    for field in fields(result.serving):
        value = getattr(result.serving, field.name)
        assert not isinstance(value, float) or math.isfinite(value), field.name
    if result.serving.fits:
        assert math.isfinite(result.per_request.accelerator_seconds)
        assert math.isfinite(result.per_request.latency_seconds)
    else:  # nothing that rests on a replica that cannot exist
        assert result.per_request.accelerator_seconds is None
        assert result.per_request.latency_seconds is None
        assert result.peak_accelerators is None and result.total.cost is None


def test_a_long_run_of_points_is_computed_in_blocks_with_the_same_figures():
    # Past BLOCK_POINTS evaluate() works block by block; a 2-D shape takes the whole arrays.
    count = BLOCK_POINTS + 1_000
    rng = np.random.default_rng(7)
    memory = rng.uniform(16e9, 200e9, count)
    requests = np.exp(rng.uniform(np.log(1e3), np.log(1e9), count))
    blocks = evaluate(scenario(LLAMA_33_70B, memory, requests_per_month=requests))
    whole = evaluate(scenario(LLAMA_33_70B, memory[:, None], requests_per_month=requests[:, None]))
    for field in fields(blocks):
        assert np.array_equal(
            getattr(blocks, field.name), getattr(whole, field.name)[:, 0], equal_nan=True
        ), field.name
