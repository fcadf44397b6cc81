"""Sliding-window layers keep only their window in the KV cache: hand computations."""

import math

import numpy as np
import pytest

from apps.estimates import EstimateInputError, estimate, evaluate
from apps.estimates import serving as s
from apps.estimates.sections import compute
from apps.estimates.serving_model import serving_model
from tests.unit.estimates.serving_cases import serving_input

GIB = 2**30
# Gemma 2 9B (config.json): 42 layers, 16 query / 8 KV heads of 256, every other layer a
# 4,096-token sliding window.
GEMMA_2_9B = {
    "parameters": 9.241705984e9,
    "layers": 42,
    "query_heads": 16,
    "kv_heads": 8,
    "head_dim": 256,
    "hidden_size": 3584,
    "sliding_window": 4096,
    "sliding_window_layers": 21,
}
FULL_KV = 42 * 2 * 8 * 256 * 2  # 344,064 bytes per token with full attention everywhere


def test_the_window_share_by_hand():
    # 9,000 tokens: 21 of 42 layers hold 4,096 of them, the other 21 hold all.
    assert s.sliding_window_share(42, 21, 4096, 9000) == pytest.approx(0.5 + 0.5 * 4096 / 9000)
    # Within the window nothing is saved; gpt-oss-120b (18 of 36 layers, 128 tokens) at 10,000.
    assert s.sliding_window_share(42, 21, 4096, 4000) == 1.0
    assert s.sliding_window_share(36, 18, 128, 10_000) == pytest.approx(0.5 + 0.5 * 128 / 10_000)


def test_kv_per_token_and_capacity_hold_only_the_window():
    # 8,000 in, 2,000 out: mean context 9,000, full length 10,000.
    inp = serving_input(
        GEMMA_2_9B, input_tokens=8000, output_tokens=2000, accelerators_per_replica=1
    )
    mean_kv = 21 * 2 * 8 * 256 * 2 + 21 * 2 * 8 * 256 * 2 * 4096 / 9000  # 250,325.67
    assert mean_kv == pytest.approx(250_325.675, abs=0.01)
    serving = estimate(inp).inference.serving
    assert serving.kv_cache_bytes_per_token == pytest.approx(mean_kv)
    assert serving.kv_cache_bytes_per_token < FULL_KV
    # One H100 (t = 1): room = 72 GB − 18.483 GB of weights − 2 GiB, over the mean KV per token.
    assert serving.tensor_parallel == 1
    room = 80e9 * 0.9 - 9.241705984e9 * 2 - 2 * GIB
    assert serving.kv_cache_capacity_tokens == math.floor(room / mean_kv)
    assert serving.max_concurrent_requests == math.floor(math.floor(room / mean_kv) / 9000)
    # Without the window the same model holds fewer requests.
    full = estimate(
        serving_input(
            {**GEMMA_2_9B, "sliding_window": None, "sliding_window_layers": None},
            input_tokens=8000,
            output_tokens=2000,
            accelerators_per_replica=1,
        )
    ).inference.serving
    assert full.kv_cache_bytes_per_token == FULL_KV
    assert full.max_concurrent_requests < serving.max_concurrent_requests


def test_the_fit_uses_the_full_length_sequence_with_its_window():
    model = compute(serving_input(GEMMA_2_9B, input_tokens=8000, output_tokens=2000))[1]
    assert model.serving.fits
    m = serving_model(serving_input(GEMMA_2_9B, input_tokens=8000, output_tokens=2000).inference)
    assert m.kv_full == pytest.approx(21 * 2 * 8 * 256 * 2 * (1 + 4096 / 10_000))


def test_a_given_kv_per_token_is_not_windowed_again():
    inp = serving_input({**GEMMA_2_9B, "kv_cache_bytes_per_token": 100_000.0}, input_tokens=8000)
    assert estimate(inp).inference.serving.kv_cache_bytes_per_token == 100_000


def test_scalar_and_vectorised_agree_with_a_window():
    inputs = (1000.0, 4000.0, 9000.0, 30_000.0)
    figures = evaluate(serving_input(GEMMA_2_9B, input_tokens=np.array(inputs)))
    for index, tokens in enumerate(inputs):
        serving = estimate(serving_input(GEMMA_2_9B, input_tokens=tokens)).inference.serving
        assert figures.serving_batch_size[index] == serving.batch_size
        assert figures.serving_output_tokens_per_second[index] == pytest.approx(
            serving.output_tokens_per_second, rel=1e-12
        )
        assert figures.serving_tpot_seconds[index] == pytest.approx(serving.tpot_seconds, rel=1e-12)


def test_a_window_needs_its_layer_count_and_no_more_layers_than_the_model():
    with pytest.raises(EstimateInputError) as raised:
        estimate(serving_input({**GEMMA_2_9B, "sliding_window_layers": None}))
    assert "inference.sliding_window_layers" in raised.value.errors
    with pytest.raises(EstimateInputError) as raised:
        estimate(serving_input({**GEMMA_2_9B, "sliding_window_layers": 43}))
    assert "More sliding-window layers" in raised.value.errors["inference.sliding_window_layers"][0]
