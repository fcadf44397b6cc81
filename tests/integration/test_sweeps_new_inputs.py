"""Sweeps vary issue 20's inputs: reasoning and cached input tokens (self-hosted and through an
external API), the architecture of a model described by hand, and FP4 on the accelerators that
have it; each point agrees with the estimate of the same request."""

import numpy as np
import pytest

from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.sweeps import services
from apps.sweeps.compute import base_inputs, evaluate_range
from apps.sweeps.definition import DefinitionError, definition_parse
from apps.sweeps.inputs import SWEEPABLE
from apps.sweeps.models import Sweep
from tests.factories import make_project, make_scenario

pytestmark = pytest.mark.django_db

SELF_HOSTED = {
    "inference": {
        "method": "tokens",
        "model": "llama-3.3-70b",
        "input_tokens": 2000,
        "output_tokens": 300,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    }
}
# DeepSeek-V3's shape given by hand: 671 B parameters, 37 B active, 256 routed experts of which
# 8 per token, latent attention.
OWN_MODEL = {
    "inference": {
        "method": "tokens",
        "parameters": 37e9,
        "total_parameters": 671e9,
        "layers": 61,
        "kv_heads": 128,
        "head_dim": 128,
        "query_heads": 128,
        "hidden_size": 7168,
        "kv_latent_width": 576,
        "experts_total": 256,
        "experts_active": 8,
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-b200",
        "precision": "fp8",
        "requests_per_month": 1_000_000,
    }
}
NEW_INPUTS = (
    "reasoning_tokens",
    "cached_input_tokens",
    "query_heads",
    "hidden_size",
    "kv_latent_width",
    "experts_total",
    "experts_active",
    "sliding_window",
    "sliding_window_layers",
)


def run(request: dict, *inputs: dict, accelerators: list[str] | None = None) -> dict:
    body = {"inputs": list(inputs)}
    if accelerators:
        body["accelerators"] = accelerators
    definition = definition_parse(body, request)
    bases = base_inputs(definition, request, Catalogue.from_database())
    return evaluate_range(definition, bases, 0, definition.total_points)


def estimate(request: dict, **inference):
    """The estimate's inference cost for the request changed so; compared to the cent (the
    estimate rounds money once, the sweep keeps its floats)."""
    changed = {**request, "inference": {**request["inference"], **inference}}
    result, _ = estimate_from_request(changed, Catalogue.from_database())
    return pytest.approx(float(result.inference.total.cost), abs=0.005)


@pytest.mark.parametrize("name", NEW_INPUTS)
def test_every_new_input_is_sweepable_for_self_hosting(name):
    assert SWEEPABLE[f"inference.{name}"].methods[0] == "tokens"


def test_reasoning_tokens_swept_raise_the_cost_as_the_estimate_does():
    values = [0, 1000, 4000]
    figures = run(
        SELF_HOSTED, {"field": "inference.reasoning_tokens", "kind": "list", "values": values}
    )
    cost = figures["inference_cost"]
    assert np.all(np.diff(cost) > 0)
    for index, value in enumerate(values):
        assert cost[index] == (estimate(SELF_HOSTED, reasoning_tokens=value))


def test_cached_input_tokens_swept_lower_the_wait_for_the_first_token():
    values = [0, 1000, 1900]
    figures = run(
        SELF_HOSTED, {"field": "inference.cached_input_tokens", "kind": "list", "values": values}
    )
    assert np.all(np.diff(figures["serving_ttft_seconds"]) < 0)
    for index, value in enumerate(values):
        assert figures["inference_cost"][index] == (
            estimate(SELF_HOSTED, cached_input_tokens=value)
        )


def test_reasoning_and_cached_tokens_swept_through_an_external_api():
    request = {
        "inference": {
            "method": "external_api",
            "price_per_million_input_tokens": 1.0,
            "price_per_million_cached_input_tokens": 0.1,
            "price_per_million_output_tokens": 4.0,
            "input_tokens": 1000,
            "output_tokens": 200,
            "requests_per_month": 1_000_000,
        }
    }
    figures = run(
        request,
        {"field": "inference.reasoning_tokens", "kind": "list", "values": [0, 800]},
        {"field": "inference.cached_input_tokens", "kind": "list", "values": [0, 500]},
    )
    cost = figures["inference_cost"]
    for index, (reasoning, cached) in enumerate([(0, 0), (0, 500), (800, 0), (800, 500)]):
        assert cost[index] == (
            estimate(request, reasoning_tokens=reasoning, cached_input_tokens=cached)
        )
    # 800 reasoning tokens at 4 per million, a million requests a month, over the months.
    assert cost[2] > cost[0]


@pytest.mark.parametrize(
    "name, values",
    [
        ("experts_active", [4, 8, 16]),
        ("experts_total", [64, 256]),
        ("kv_latent_width", [512, 1024]),
        ("query_heads", [64, 128]),
        ("hidden_size", [7168, 8192]),
    ],
)
def test_the_architecture_of_a_model_given_by_hand_can_be_swept(name, values):
    figures = run(OWN_MODEL, {"field": f"inference.{name}", "kind": "list", "values": values})
    for index, value in enumerate(values):
        assert figures["inference_cost"][index] == (estimate(OWN_MODEL, **{name: value})), (
            name,
            value,
        )


def test_a_narrower_sliding_window_swept_fits_a_larger_batch():
    request = {
        "inference": {
            **SELF_HOSTED["inference"],
            "model": None,
            "parameters": 27e9,
            "layers": 62,
            "kv_heads": 16,
            "head_dim": 128,
            "sliding_window_layers": 52,
            "input_tokens": 32_000,
        }
    }
    del request["inference"]["model"]
    figures = run(
        request, {"field": "inference.sliding_window", "kind": "list", "values": [1024, 4096]}
    )
    # Less KV cache per token at the narrower window: more requests fit in a batch.
    assert figures["serving_batch_size"][0] > figures["serving_batch_size"][1]
    for index, value in enumerate([1024, 4096]):
        assert figures["inference_cost"][index] == (estimate(request, sliding_window=value))


def test_an_fp4_scenario_swept_over_blackwell_accelerators_uses_their_fp4_peaks():
    request = {"inference": {**SELF_HOSTED["inference"], "precision": "fp4"}}
    accelerators = ["nvidia-b200", "nvidia-gb200"]
    figures = run(
        request,
        {"field": "inference.requests_per_month", "kind": "list", "values": [1e6]},
        accelerators=accelerators,
    )
    for index, slug in enumerate(accelerators):
        assert figures["inference_cost"][index] == (estimate(request, accelerator=slug))


def test_an_fp4_sweep_over_an_accelerator_without_it_names_its_precisions():
    request = {"inference": {**SELF_HOSTED["inference"], "precision": "fp4"}}
    with pytest.raises(Exception) as raised:
        run(
            request,
            {"field": "inference.requests_per_month", "kind": "list", "values": [1e6]},
            accelerators=["nvidia-b200", "nvidia-h100-sxm"],
        )
    assert "NVIDIA H100 SXM cannot compute in fp4" in str(raised.value)
    assert "fp32, tf32, bf16, fp16, fp8, int8" in str(raised.value)


def test_a_sweep_of_an_fp4_scenario_listing_an_h100_is_refused_naming_its_precisions(owner):
    scenario = make_scenario(
        make_project(owner),
        "FP4",
        inputs={
            "inference": {
                **SELF_HOSTED["inference"],
                "accelerator": "nvidia-b200",
                "precision": "fp4",
            }
        },
    )
    definition = {
        "inputs": [{"field": "inference.requests_per_month", "kind": "list", "values": [1e6]}],
        "accelerators": ["nvidia-b200", "nvidia-h100-sxm"],
    }
    with pytest.raises(DefinitionError) as raised:
        services.sweep_create(scenario=scenario, created_by=owner, definition=definition)
    (message,) = raised.value.errors["accelerators"]
    assert message.startswith("NVIDIA H100 SXM cannot compute in fp4")
    assert message.endswith("Choose one of its precisions: fp32, tf32, bf16, fp16, fp8, int8.")
    assert not Sweep.objects.exists()
