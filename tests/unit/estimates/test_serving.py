"""Serving capacity against hand computations: memory, KV cache, replica size, batch, MoE."""

import math
from dataclasses import replace

import pytest

from apps.estimates import EstimateInputError, estimate, evaluate
from apps.estimates import serving as s
from apps.estimates.sections import compute
from tests.unit.estimates.serving_cases import (
    DEEPSEEK_V3,
    H100,
    H100_FP8,
    LLAMA_31_8B,
    LLAMA_31_405B,
    LLAMA_33_70B,
    serving_input,
)

GB = 1e9
OVERHEAD = 2 * 2**30


def plan_of(inp):
    return compute(inp)[1].serving


def test_weights_are_total_parameters_times_bytes_per_parameter():
    assert s.weights_bytes(8.03e9, 2.0) == 16.06e9
    assert estimate(serving_input(LLAMA_31_8B)).inference.serving.weights_gb == pytest.approx(16.06)


def test_kv_cache_per_token_of_grouped_query_attention():
    # Llama 3.1 8B: 32 layers × K and V × 8 KV heads × 128 × 2 bytes = 128 KiB per token.
    assert s.kv_cache_bytes_per_token(32, 8, 128, 2.0) == 131_072
    # Llama 3.3 70B: 80 × 2 × 8 × 128 × 2; an fp8 KV cache halves it.
    assert s.kv_cache_bytes_per_token(80, 8, 128, 2.0) == 327_680
    assert s.kv_cache_bytes_per_token(80, 8, 128, 1.0) == 163_840
    # Multi-head attention with the same shape but 32 KV heads holds four times as much.
    assert s.kv_cache_bytes_per_token(32, 32, 128, 2.0) == 4 * 131_072


def test_kv_cache_per_token_of_multi_head_latent_attention():
    # DeepSeek-V3: 61 layers × (512 latent + 64 rope) × 2 bytes, a fraction of GQA's.
    assert s.kv_cache_bytes_per_token_latent(61, 576, 2.0) == 70_272
    result = estimate(serving_input(DEEPSEEK_V3, H100_FP8, bytes_per_parameter=1.0))
    assert result.inference.serving.kv_cache_bytes_per_token == 70_272


def test_kv_heads_are_replicated_when_tensor_parallel_exceeds_them():
    assert s.kv_shards(4.0, 8.0) == 4.0
    assert s.kv_shards(16.0, 8.0) == 8.0  # each of 16 ranks keeps one of the 8 heads


def test_llama_405b_in_bf16_does_not_fit_one_h100_node_and_takes_pipeline_stages():
    # 811.8 GB of weights; 8 × 72 GB usable (90 % of 80 GB) is 576 GB: two stages of tensor 8.
    serving = estimate(serving_input(LLAMA_31_405B)).inference.serving
    assert (serving.tensor_parallel, serving.pipeline_parallel) == (8, 2)
    assert serving.accelerators_per_replica == 16
    assert serving.fits


def test_llama_405b_in_fp8_fits_one_node_of_eight():
    inp = serving_input(LLAMA_31_405B, H100_FP8, bytes_per_parameter=1.0)
    serving = estimate(inp).inference.serving
    assert (serving.accelerators_per_replica, serving.tensor_parallel) == (8, 8)
    assert serving.pipeline_parallel == 1


def test_smallest_replica_is_the_first_tensor_parallel_degree_that_fits():
    # 70B in bf16: 141.2 GB. t = 2 leaves 72 − 70.6 − 2.15 GB < one request's 0.33 GB of KV.
    usable = 72e9
    assert usable < 141.2e9 / 2 + OVERHEAD + 327_680 * 2000 / 2
    assert usable >= 141.2e9 / 4 + OVERHEAD + 327_680 * 2000 / 4
    assert estimate(serving_input(LLAMA_33_70B)).inference.serving.tensor_parallel == 4


def test_batch_bound_by_kv_cache_memory():
    # 8B in fp8 on one H100, fp8 KV cache (64 KiB a token), 1000 in / 1000 out.
    inp = serving_input(
        LLAMA_31_8B, H100_FP8, bytes_per_parameter=1.0, kv_cache_bytes_per_element=1.0
    )
    serving = estimate(inp).inference.serving
    capacity = math.floor((72e9 - 8.03e9 - OVERHEAD) / 65_536)
    assert serving.kv_cache_capacity_tokens == capacity
    # The mean context while decoding is 1000 + 1000 / 2 tokens.
    assert serving.max_concurrent_requests == math.floor(capacity / 1500) == 628
    assert serving.batch_size == 628
    assert serving.limited_by == "memory"


def test_batch_bound_by_the_time_per_token_target():
    inp = serving_input(LLAMA_31_8B, input_tokens=1000, output_tokens=500, tpot_target_seconds=0.02)
    serving = estimate(inp).inference.serving
    # Memory-bound decode on one H100 (no all-reduce): TPOT(B) = (W + B · S̄ · kv) / (BW · 0.7).
    bandwidth = 3.35e12 * 0.7
    batch = math.floor((0.02 - 16.06e9 / bandwidth) / (1250 * 131_072 / bandwidth))
    assert serving.batch_size == batch == 188
    assert serving.batch_size < serving.max_concurrent_requests
    assert serving.limited_by == "latency_target"
    assert serving.tpot_seconds <= 0.02
    assert serving.tpot_seconds == pytest.approx((16.06e9 + batch * 1250 * 131_072) / bandwidth)


def test_first_token_target_leaves_the_decode_step_what_prefill_does_not_take():
    loose = estimate(serving_input(LLAMA_31_8B)).inference.serving
    tight = estimate(serving_input(LLAMA_31_8B, ttft_target_seconds=0.07)).inference.serving
    assert tight.batch_size < loose.batch_size
    assert tight.ttft_seconds <= 0.07
    assert tight.limited_by == "latency_target"


def test_an_unreachable_target_is_said_and_the_true_time_reported():
    result = estimate(serving_input(LLAMA_31_8B, tpot_target_seconds=0.001)).inference
    assert result.serving.batch_size == 1
    assert result.serving.tpot_seconds > 0.001
    assert any("cannot be met" in note for note in result.assumptions)


def test_mixture_of_experts_memory_comes_from_total_parameters_and_flop_from_active():
    inp = serving_input(DEEPSEEK_V3, H100_FP8, bytes_per_parameter=1.0)
    result = estimate(inp).inference
    assert result.serving.weights_gb == pytest.approx(671.0)
    # 671 GB does not fit 8 × 72 GB: a second stage, though 37 GB active would fit one GPU.
    assert (result.serving.tensor_parallel, result.serving.pipeline_parallel) == (8, 2)
    assert result.per_request.flop == 2 * 37e9 * 2000


def test_mixture_of_experts_reads_active_weights_at_batch_1_and_towards_all_at_large_batches():
    assert s.weights_read_bytes(671e9, 37e9, 1.0, 8 / 256, 1.0) == pytest.approx(37e9)
    assert s.weights_read_bytes(671e9, 37e9, 1.0, 8 / 256, 4096.0) == pytest.approx(671e9)
    assert s.weights_read_bytes(70e9, 70e9, 2.0, None, 1.0) == 140e9


def test_replicas_at_peak_and_busy_accelerator_seconds_follow_from_one_replica():
    result = estimate(serving_input(LLAMA_33_70B, requests_per_month=1e9)).inference
    serving = result.serving
    rate = result.peak_requests_per_second
    assert serving.replicas_at_peak == math.ceil(rate / (0.7 * serving.requests_per_second))
    assert result.peak_accelerators == serving.replicas_at_peak * serving.accelerators_per_replica
    assert result.per_request.accelerator_seconds == pytest.approx(
        serving.accelerators_per_replica / serving.requests_per_second
    )
    assert result.per_request.latency_method == "serving"
    assert result.per_request.latency_seconds == pytest.approx(
        serving.ttft_seconds + 1000 * serving.tpot_seconds
    )


def test_a_chosen_replica_the_model_does_not_fit_is_refused_at_its_field():
    with pytest.raises(EstimateInputError) as raised:
        estimate(serving_input(LLAMA_31_405B, accelerators_per_replica=8))
    (message,) = raised.value.errors["inference.accelerators_per_replica"]
    assert "does not fit on 8 accelerator(s)" in message
    assert "at least 16" in message


def test_a_chosen_replica_that_fits_is_used_as_given():
    serving = estimate(serving_input(LLAMA_31_8B, accelerators_per_replica=4)).inference.serving
    assert (serving.accelerators_per_replica, serving.tensor_parallel) == (4, 4)
    assert not serving.replica_derived


def test_a_chosen_replica_must_split_the_heads_or_be_whole_nodes():
    with pytest.raises(EstimateInputError) as raised:
        estimate(serving_input(LLAMA_31_8B, accelerators_per_replica=3))
    assert (
        "divides the 32 query heads" in raised.value.errors["inference.accelerators_per_replica"][0]
    )
    with pytest.raises(EstimateInputError) as raised:
        estimate(serving_input(LLAMA_31_405B, accelerators_per_replica=12))
    assert "multiple of 8" in raised.value.errors["inference.accelerators_per_replica"][0]


def test_when_nothing_fits_the_plan_says_so_without_numbers_that_cannot_be_true():
    tiny = replace(H100, memory_bytes=4e9)  # 4 GB: 3.6 usable, 2.15 of it overhead
    result = estimate(serving_input(LLAMA_31_405B, tiny)).inference
    serving = result.serving
    assert not serving.fits
    assert serving.limited_by == "memory"
    assert serving.batch_size is None and serving.accelerators_per_replica is None
    assert serving.replicas_at_peak is None and serving.tpot_seconds is None
    assert any("does not fit" in note for note in result.assumptions)
    # Nothing that rests on a replica is reported: no FLOP-based stand-in either.
    assert result.peak_accelerators is None
    assert result.per_request.accelerator_seconds is None and result.per_request.cost is None
    assert result.total.cost is None and result.total.energy_kwh is None
    figures = evaluate(serving_input(LLAMA_31_405B, tiny))
    assert isinstance(figures.serving_batch_size, float) and math.isnan(figures.serving_batch_size)
    assert math.isnan(figures.inference_accelerator_seconds_per_request)
    assert math.isnan(figures.peak_accelerators) and math.isnan(figures.inference_cost)


def test_tokens_without_the_model_dimensions_keep_the_flop_based_figures():
    inp = serving_input({"parameters": 8.03e9})
    result = estimate(inp).inference
    assert result.serving is None
    assert result.per_request.accelerator_seconds == pytest.approx(
        2 * 8.03e9 * 2000 / (989e12 * 0.3)
    )


def test_a_larger_tensor_parallel_replica_answers_each_token_sooner():
    one = estimate(serving_input(LLAMA_31_8B, accelerators_per_replica=1)).inference.serving
    eight = estimate(serving_input(LLAMA_31_8B, accelerators_per_replica=8)).inference.serving
    single = estimate(
        serving_input(LLAMA_31_8B, accelerators_per_replica=1, tpot_target_seconds=0.008)
    ).inference.serving
    fast = estimate(
        serving_input(LLAMA_31_8B, accelerators_per_replica=8, tpot_target_seconds=0.008)
    ).inference.serving
    assert eight.kv_cache_capacity_tokens > one.kv_cache_capacity_tokens
    assert fast.batch_size > single.batch_size


def test_a_given_kv_cache_per_token_stands_beside_a_latent_width_without_the_layer_count():
    """A KV cache per token given with an MLA latent width but no layer count is the figure the
    plan uses (the latent width alone cannot give one; it used to multiply None, a server
    error the API fuzzer found on a scenario's PUT)."""
    model = {k: v for k, v in DEEPSEEK_V3.items() if k != "layers"}
    result = estimate(serving_input(model, kv_cache_bytes_per_token=70_272))
    assert result.inference is not None and result.inference.serving is not None
    assert result.inference.serving.kv_cache_bytes_per_token == 70_272
