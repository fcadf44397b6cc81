"""POST /api/v1/estimate/ with reasoning tokens, cached input tokens in both methods, and a model
described by hand down to its attention and experts (issue 20)."""

import json
from decimal import Decimal

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"

SELF_HOSTED = {
    "method": "tokens",
    "model": "llama-3.1-8b",
    "accelerator": "nvidia-h100-sxm",
    "input_tokens": 1000,
    "output_tokens": 200,
    "requests_per_month": 1_000_000,
}
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
# DeepSeek-V3 by its config (models.json): MLA latent 512 + rope 64, 256 routed experts, 8 a token.
DEEPSEEK_V3_BY_HAND = {
    "parameters": 37e9,
    "total_parameters": 671e9,
    "layers": 61,
    "query_heads": 128,
    "head_dim": 128,
    "hidden_size": 7168,
    "kv_latent_width": 576,
    "experts_total": 256,
    "experts_active": 8,
}
DEEPSEEK_SERVED = {
    "method": "tokens",
    "accelerator": "nvidia-h200-sxm",
    "precision": "fp8",
    "input_tokens": 2000,
    "output_tokens": 500,
    "requests_per_month": 30_000_000,
}


def post(client, body: dict):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def inference_of(client, inference: dict) -> dict:
    response = post(client, {"inference": inference})
    assert response.status_code == 200, response.content
    return response.json()["inference"]


def test_an_external_api_bills_reasoning_tokens_as_output_and_reports_them_apart(api_client):
    inference = inference_of(api_client, API)
    # (600 × 2.50 + 400 × 1.25 + 2,000 × 10) / 1e6 per request
    assert Decimal(inference["per_request"]["cost_per_1000"]) == Decimal("22.00")
    assert inference["per_request"]["output_tokens"] == 500
    assert inference["per_request"]["reasoning_tokens"] == 1500


def test_self_hosted_reasoning_tokens_are_decoded_like_output(api_client):
    reasoning = inference_of(api_client, {**SELF_HOSTED, "reasoning_tokens": 800})
    visible = inference_of(api_client, {**SELF_HOSTED, "output_tokens": 1000})
    assert reasoning["serving"] == visible["serving"]
    assert reasoning["per_request"]["cost"] == visible["per_request"]["cost"]
    assert reasoning["per_request"]["latency_seconds"] == visible["per_request"]["latency_seconds"]
    assert (
        reasoning["per_request"]["output_tokens"],
        reasoning["per_request"]["reasoning_tokens"],
    ) == (200, 800)
    plain = inference_of(api_client, SELF_HOSTED)
    assert plain["per_request"]["reasoning_tokens"] == 0
    assert plain["per_request"]["latency_seconds"] < reasoning["per_request"]["latency_seconds"]


def test_self_hosted_cached_input_tokens_shorten_the_first_token_not_the_kv_room(api_client):
    cached = inference_of(api_client, {**SELF_HOSTED, "cached_input_tokens": 800})["serving"]
    full = inference_of(api_client, SELF_HOSTED)["serving"]
    assert cached["ttft_seconds"] < full["ttft_seconds"]
    assert cached["kv_cache_capacity_tokens"] == full["kv_cache_capacity_tokens"]
    assert cached["max_concurrent_requests"] == full["max_concurrent_requests"]


@pytest.mark.parametrize("method", [SELF_HOSTED, API])
def test_cached_input_above_the_input_is_a_field_error_in_both_methods(api_client, method):
    response = post(api_client, {"inference": {**method, "cached_input_tokens": 1200}})
    assert response.status_code == 400
    assert response.json() == {
        "inference": {
            "cached_input_tokens": [
                "Cached input tokens are part of the input tokens: at most as many."
            ]
        }
    }


def test_a_negative_reasoning_count_is_refused_at_its_field(api_client):
    response = post(api_client, {"inference": {**SELF_HOSTED, "reasoning_tokens": -5}})
    assert response.status_code == 400
    assert response.json() == {
        "inference": {
            "reasoning_tokens": ["Reasoning tokens per request must be between 0 and 10 million."]
        }
    }


def test_deepseek_v3_described_by_hand_gives_the_catalogue_models_figures(api_client):
    by_hand = inference_of(api_client, {**DEEPSEEK_SERVED, **DEEPSEEK_V3_BY_HAND})
    catalogue = inference_of(api_client, {**DEEPSEEK_SERVED, "model": "deepseek-v3"})
    assert by_hand["serving"] == catalogue["serving"]
    assert by_hand["per_request"] == catalogue["per_request"]
    assert by_hand["peak_accelerators"] == catalogue["peak_accelerators"]
    # Latent attention: 61 layers × 576 × 2 bytes a token, not 2 × heads × head dimension.
    assert by_hand["serving"]["kv_cache_bytes_per_token"] == 61 * 576 * 2


def test_without_its_latent_width_and_experts_the_same_model_reads_dense(api_client):
    dense = {
        key: value
        for key, value in DEEPSEEK_V3_BY_HAND.items()
        if key not in ("kv_latent_width", "experts_total", "experts_active")
    }
    described = inference_of(api_client, {**DEEPSEEK_SERVED, **DEEPSEEK_V3_BY_HAND})["serving"]
    partial = inference_of(api_client, {**DEEPSEEK_SERVED, **dense, "kv_heads": 128})["serving"]
    assert partial["kv_cache_bytes_per_token"] == 61 * 2 * 128 * 128 * 2
    assert partial["kv_cache_bytes_per_token"] > described["kv_cache_bytes_per_token"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("query_heads", 12.5),
        ("experts_active", 0),
        ("sliding_window_layers", -1),
    ],
)
def test_the_architecture_fields_are_checked_at_their_own_key(api_client, field, value):
    response = post(api_client, {"inference": {**SELF_HOSTED, field: value}})
    assert response.status_code == 400
    assert list(response.json()["inference"]) == [field]


def test_a_range_on_reasoning_tokens_gives_percentiles_of_the_cost(api_client):
    body = {
        "inference": API,
        "ranges": {"inference.reasoning_tokens": {"low": 500, "high": 4500}},
        "uncertainty": {"samples": 20_000, "seed": 4},
    }
    response = post(api_client, body)
    assert response.status_code == 200, response.content
    cost = response.json()["uncertainty"]["figures"]["inference.per_request.cost_per_1000"]
    # 7.00 for the input and visible output, 0.01 per reasoning token (per 1,000 requests).
    assert float(cost["p5"]) == pytest.approx(12.0, rel=0.03)
    assert float(cost["p95"]) == pytest.approx(52.0, rel=0.03)


def test_a_range_on_cached_input_tokens_is_taken_when_self_hosted(api_client):
    body = {
        "inference": {**SELF_HOSTED, "cached_input_tokens": 500},
        "ranges": {"inference.cached_input_tokens": {"low": 100, "high": 900}},
        "uncertainty": {"samples": 2_000, "seed": 1},
    }
    response = post(api_client, body)
    assert response.status_code == 200, response.content
    latency = response.json()["uncertainty"]["figures"]["inference.per_request.latency_seconds"]
    assert latency["p5"] < latency["p95"]
