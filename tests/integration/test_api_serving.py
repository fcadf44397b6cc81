"""POST /api/v1/estimate/ serving a language model: `inference.serving` and its 400s."""

import json

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"

# Llama 3.1 405B by its dimensions (its config.json), as a person would type "my own model".
LLAMA_405B = {
    "method": "tokens",
    "parameters": 405.9e9,
    "layers": 126,
    "kv_heads": 8,
    "head_dim": 128,
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 10_000_000,
}
SERVING_NAMES = {
    "fits",
    "limited_by",
    "weights_gb",
    "kv_cache_bytes_per_token",
    "accelerators_per_replica",
    "tensor_parallel",
    "pipeline_parallel",
    "kv_cache_capacity_tokens",
    "max_concurrent_requests",
    "batch_size",
    "output_tokens_per_second",
    "requests_per_second",
    "ttft_seconds",
    "tpot_seconds",
    "replicas_at_peak",
    "replica_choice",
    "replica_chosen_because",
}
REPLICA_CHOICE_NAMES = {
    "accelerators_per_replica",
    "fits",
    "batch_size",
    "output_tokens_per_second",
    "replicas_at_peak",
    "meets_targets",
}
# Llama 2 70B (MLPerf's model) by its architecture, in FP8 with an FP8 KV cache on H100 SXM, at
# the 300 input / 291 output tokens and 100 million requests a month.
LLAMA_2_70B_FP8 = {
    "method": "tokens",
    "parameters": 68.98e9,
    "layers": 80,
    "kv_heads": 8,
    "head_dim": 128,
    "kv_cache_bytes_per_element": 1,
    "precision": "fp8",
    "input_tokens": 300,
    "output_tokens": 291,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 100_000_000,
}


def post(client, inference: dict):
    body = json.dumps({"inference": inference})
    return client.post(URL, data=body, content_type="application/json")


def test_serving_carries_exactly_the_contract_names(api_client):
    response = post(api_client, LLAMA_405B)
    assert response.status_code == 200, response.content
    serving = response.json()["inference"]["serving"]
    assert set(serving) == SERVING_NAMES


def test_405b_in_bf16_needs_two_nodes_of_h100_and_peak_accelerators_are_replicas_times_that(
    api_client,
):
    inference = response_inference(api_client, LLAMA_405B)
    serving = inference["serving"]
    assert serving["fits"] is True
    assert serving["weights_gb"] == pytest.approx(811.8)
    assert serving["kv_cache_bytes_per_token"] == 126 * 2 * 8 * 128 * 2
    assert (serving["tensor_parallel"], serving["pipeline_parallel"]) == (8, 2)
    assert serving["accelerators_per_replica"] == 16
    assert inference["peak_accelerators"] == serving["replicas_at_peak"] * 16
    # Not the three accelerators FLOP ÷ peak would give: the weights alone need 811.8 GB.
    assert inference["peak_accelerators"] >= 16


def test_fp8_precision_halves_the_weights_and_fits_one_node(api_client):
    serving = response_inference(api_client, {**LLAMA_405B, "precision": "fp8"})["serving"]
    assert serving["weights_gb"] == pytest.approx(405.9)
    assert serving["accelerators_per_replica"] == 8


def test_bytes_per_parameter_sets_the_weights_apart_from_the_precision(api_client):
    serving = response_inference(api_client, {**LLAMA_405B, "bytes_per_parameter": 0.5})["serving"]
    assert serving["weights_gb"] == pytest.approx(202.95)


def test_kv_cache_override_and_bytes_per_element(api_client):
    given = response_inference(api_client, {**LLAMA_405B, "kv_cache_bytes_per_token": 100_000})
    assert given["serving"]["kv_cache_bytes_per_token"] == 100_000
    fp8_kv = response_inference(api_client, {**LLAMA_405B, "kv_cache_bytes_per_element": 1})
    assert fp8_kv["serving"]["kv_cache_bytes_per_token"] == 126 * 2 * 8 * 128


def test_the_time_per_token_target_bounds_the_batch(api_client):
    free = response_inference(api_client, LLAMA_405B)["serving"]
    bound = response_inference(api_client, {**LLAMA_405B, "tpot_target_seconds": 0.05})["serving"]
    assert bound["limited_by"] == "latency_target"
    assert bound["batch_size"] < free["batch_size"]
    assert bound["tpot_seconds"] <= 0.05


def test_a_chosen_replica_that_fits(api_client):
    serving = response_inference(api_client, {**LLAMA_405B, "accelerators_per_replica": 24})[
        "serving"
    ]
    assert (serving["accelerators_per_replica"], serving["pipeline_parallel"]) == (24, 3)


def test_a_chosen_replica_too_small_is_a_400_at_its_field(api_client):
    response = post(api_client, {**LLAMA_405B, "accelerators_per_replica": 8})
    assert response.status_code == 400
    (message,) = response.json()["inference"]["accelerators_per_replica"]
    assert "does not fit on 8 accelerator(s)" in message
    assert "at least 16" in message


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("accelerators_per_replica", 12, "multiple of 8"),
        ("accelerators_per_replica", 0, "whole number"),
        ("memory_utilization", 1.5, "at most 1"),
        ("memory_efficiency", 0, "more than 0"),
        ("layers", 2.5, "whole number"),
        ("tpot_target_seconds", -1, "between"),
        ("total_parameters", 1e9, "at least the active parameters"),
    ],
)
def test_bad_serving_inputs_are_400s_at_their_field(api_client, field, value, words):
    response = post(api_client, {**LLAMA_405B, field: value})
    assert response.status_code == 400, response.content
    messages = response.json()["inference"][field]
    assert any(words in message for message in messages), messages


def test_tokens_without_the_model_dimensions_have_no_serving_plan(api_client):
    inference = response_inference(
        api_client, {key: value for key, value in LLAMA_405B.items() if key != "layers"}
    )
    assert inference["serving"] is None
    assert inference["per_request"]["latency_method"] == "roofline"


def response_inference(client, inference: dict) -> dict:
    response = post(client, inference)
    assert response.status_code == 200, response.content
    return response.json()["inference"]


def test_a_catalogue_model_fills_in_its_dimensions(api_client):
    inference = response_inference(
        api_client,
        {
            "method": "tokens",
            "model": "llama-3.1-405b",
            "input_tokens": 1000,
            "output_tokens": 500,
            "accelerator": "nvidia-h100-sxm",
            "requests_per_month": 1e6,
        },
    )
    serving = inference["serving"]
    assert serving["kv_cache_bytes_per_token"] == 126 * 2 * 8 * 128 * 2
    assert serving["accelerators_per_replica"] == 16
    assert any("model catalogue" in note for note in inference["assumptions"])


def test_deepseek_v3_uses_latent_attention_and_holds_every_expert(api_client):
    body = {
        "method": "tokens",
        "model": "deepseek-v3",
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "precision": "fp8",
        "requests_per_month": 1e6,
    }
    inference = response_inference(api_client, body)
    serving = inference["serving"]
    assert serving["kv_cache_bytes_per_token"] == 61 * (512 + 64) * 2
    assert serving["weights_gb"] > 600  # all 671 B parameters, though 37 B are active per token
    assert inference["per_request"]["flop"] < 2 * 40e9 * 1500


def test_given_fields_override_the_catalogue_model(api_client):
    body = {
        "method": "tokens",
        "model": "llama-3.1-8b",
        "kv_cache_bytes_per_token": 65_536,
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1e6,
    }
    assert response_inference(api_client, body)["serving"]["kv_cache_bytes_per_token"] == 65_536


def test_an_unknown_model_and_a_replica_splitting_no_heads_are_400s(api_client):
    unknown = post(api_client, {**LLAMA_405B, "model": "llama-9"})
    assert unknown.status_code == 400
    assert "No model 'llama-9'" in unknown.json()["inference"]["model"][0]
    body = {**LLAMA_405B, "model": "llama-3.1-8b", "accelerators_per_replica": 3}
    split = post(api_client, body)
    assert split.status_code == 400
    assert "divides the 32 query heads" in split.json()["inference"]["accelerators_per_replica"][0]


def test_a_catalogue_model_with_sliding_windows_holds_only_the_window(api_client):
    body = {
        "method": "tokens",
        "model": "gemma-2-9b",
        "input_tokens": 8000,
        "output_tokens": 2000,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    }
    inference = response_inference(api_client, body)
    # 21 full layers + 21 windowed ones at the mean context of 9,000 tokens.
    expected = 21 * 2 * 8 * 256 * 2 * (1 + 4096 / 9000)
    assert inference["serving"]["kv_cache_bytes_per_token"] == pytest.approx(expected)
    assert any("sliding window" in note for note in inference["assumptions"])
    given = response_inference(
        api_client, {**{k: v for k, v in body.items() if k != "model"}, **GEMMA_DIMENSIONS}
    )
    assert given["serving"]["kv_cache_bytes_per_token"] == pytest.approx(expected)


GEMMA_DIMENSIONS = {
    "parameters": 9.241705984e9,
    "layers": 42,
    "kv_heads": 8,
    "head_dim": 256,
    "sliding_window": 4096,
    "sliding_window_layers": 21,
}


def test_replica_choice_lists_every_size_considered_with_the_contract_names(api_client):
    serving = response_inference(api_client, LLAMA_2_70B_FP8)["serving"]
    sizes = [option["accelerators_per_replica"] for option in serving["replica_choice"]]
    # Tensor parallel 1, 2, 4, 8 within the node of eight, then two whole nodes.
    assert sizes == [1, 2, 4, 8, 16]
    for option in serving["replica_choice"]:
        assert set(option) == REPLICA_CHOICE_NAMES
        assert option["fits"] is True and option["meets_targets"] is True


def test_llama_2_70b_in_fp8_takes_two_accelerators_per_copy_not_47_copies_of_one(api_client):
    inference = response_inference(api_client, LLAMA_2_70B_FP8)
    serving = inference["serving"]
    one, two = serving["replica_choice"][:2]
    # One H100 holds 72 − 68.98 − 2.15 GB of KV: 5,325 tokens, a batch of 11, 47 copies.
    assert (one["batch_size"], one["replicas_at_peak"]) == (11, 47)
    assert (two["batch_size"], two["replicas_at_peak"]) == (968, 4)
    assert serving["accelerators_per_replica"] == 2
    assert serving["replicas_at_peak"] == 4
    assert inference["peak_accelerators"] == 8
    assert serving["output_tokens_per_second"] == two["output_tokens_per_second"]
    assert serving["replica_chosen_because"] == (
        "2 accelerators per copy: the fewest accelerators at peak (8); 1 per copy would need "
        "47 copies (47 accelerators)."
    )


def test_a_given_replica_size_is_kept_with_no_sizes_considered(api_client):
    serving = response_inference(api_client, {**LLAMA_2_70B_FP8, "accelerators_per_replica": 1})[
        "serving"
    ]
    assert serving["accelerators_per_replica"] == 1
    assert serving["replicas_at_peak"] == 47
    assert serving["replica_choice"] == []
    assert serving["replica_chosen_because"] == "1 accelerator(s) per copy, as given."


def test_a_size_the_model_does_not_fit_has_null_figures(api_client):
    serving = response_inference(api_client, LLAMA_405B)["serving"]
    first = serving["replica_choice"][0]
    assert first == {
        "accelerators_per_replica": 1,
        "fits": False,
        "batch_size": None,
        "output_tokens_per_second": None,
        "replicas_at_peak": None,
        "meets_targets": False,
    }


def test_the_schema_documents_the_replica_choice(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = schema["components"]["schemas"]
    serving = schemas["ServingResult"]["properties"]
    assert serving["replica_choice"]["type"] == "array"
    assert serving["replica_chosen_because"]["type"] == "string"
    option = serving["replica_choice"]["items"]["$ref"].rsplit("/", 1)[1]
    assert set(schemas[option]["properties"]) == REPLICA_CHOICE_NAMES
    assert set(schemas[option]["required"]) == REPLICA_CHOICE_NAMES
