"""The scenario form with reasoning tokens, cached input tokens for both methods and a model's
architecture described by hand; a sweep of reasoning tokens (issue 20)."""

import re

import numpy as np
import pytest
from django.utils import translation

from apps.catalogue.snapshot import Catalogue
from apps.exports.input_words import input_rows
from apps.projects.input_choices import INPUT_NUMBERS
from apps.projects.services import scenario_update
from apps.sweeps.compute import base_inputs, evaluate_range
from apps.sweeps.definition import definition_parse
from apps.sweeps.inputs import SWEEPABLE
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

ARCHITECTURE = (
    "query_heads",
    "hidden_size",
    "kv_latent_width",
    "experts_total",
    "experts_active",
    "sliding_window",
    "sliding_window_layers",
)


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def scenario(manager):
    return make_scenario(make_project(manager))


def served(**overrides) -> dict:
    fields = {
        "inference_method": "tokens",
        "inference_model": "llama-3.1-8b",
        "inference_input_tokens": "1000",
        "inference_output_tokens": "200",
        "inference_kv_cache_bytes_per_element": "2",
        "inference_memory_utilization": "90",
        "inference_memory_efficiency": "70",
    }
    return scenario_post(**{**fields, **overrides})


def field_names(html: str) -> list[str]:
    names = re.findall(r'<input[^>]* name="(inference_[a-z_]+)"', html)
    return [name for name in names if not name.endswith(("_low", "_high"))]


def methods_of(html: str, name: str) -> str:
    match = re.search(rf'data-methods="([^"]*)">(?:(?!data-methods).)*name="{name}"', html, re.S)
    assert match, name
    return match.group(1)


@pytest.mark.parametrize(
    ("language", "label", "term"),
    [
        ("en", "Reasoning tokens per request", "Reasoning tokens"),
        ("fr", "Jetons de raisonnement par demande", "Jetons de raisonnement"),
    ],
)
def test_the_form_offers_reasoning_tokens_beside_output_tokens_with_their_glossary_entry(
    client, scenario, language, label, term
):
    html = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    html = html.content.decode()
    names = field_names(html)
    # The workspace keeps output tokens open and folds reasoning tokens under "More assumptions"
    # of the same section, in the order they are billed.
    assert names.index("inference_reasoning_tokens") > names.index("inference_output_tokens")
    assert label in html
    assert "/glossary/reasoning-tokens/" in html
    page = client.get("/glossary/reasoning-tokens/", headers={"accept-language": language})
    assert f"<h1>{term}</h1>" in page.content.decode()


def test_reasoning_and_cached_input_tokens_serve_both_token_methods(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    for name in ("inference_reasoning_tokens", "inference_cached_input_tokens"):
        assert set(methods_of(html, name).split()) == {"tokens", "external_api"}, name
    names = field_names(html)
    assert names.index("inference_cached_input_tokens") > names.index("inference_input_tokens")


def test_the_architecture_fields_sit_with_the_model_described_by_hand(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    for name in ARCHITECTURE:
        assert methods_of(html, f"inference_{name}") == "tokens", name


def test_saving_reasoning_and_cached_tokens_keeps_them_and_shows_them_apart(client, scenario):
    body = served(inference_reasoning_tokens="800", inference_cached_input_tokens="600")
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 302
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert (inference["reasoning_tokens"], inference["cached_input_tokens"]) == (800, 600)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Tokens written per request" in html
    assert "of hidden reasoning, billed as output" in html
    assert "answer and reasoning tokens" in html
    assert "600 of the 1,000 input tokens come from a prefix cache" in html


def test_an_external_api_scenario_takes_reasoning_and_cached_tokens(client, scenario):
    body = scenario_post(
        inference_method="external_api",
        inference_input_tokens="1000",
        inference_cached_input_tokens="400",
        inference_output_tokens="500",
        inference_reasoning_tokens="1500",
        inference_price_per_million_input_tokens="2.5",
        inference_price_per_million_cached_input_tokens="1.25",
        inference_price_per_million_output_tokens="10",
    )
    assert client.post(f"/scenarios/{scenario.pk}/", body).status_code == 302
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert (inference["reasoning_tokens"], inference["cached_input_tokens"]) == (1500, 400)
    assert scenario.inputs["inference"]["method"] == "external_api"


def test_cached_input_above_the_input_is_an_error_at_its_field(client, scenario):
    body = served(inference_cached_input_tokens="1200")
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 200
    assert "Cached input tokens are part of the input tokens: at most as many." in (
        response.content.decode()
    )
    assert response.context["form"].errors["inference_cached_input_tokens"]


def test_a_range_on_reasoning_tokens_is_stored_with_the_scenario(client, scenario):
    body = served(
        inference_reasoning_tokens="1000",
        inference_reasoning_tokens_low="300",
        inference_reasoning_tokens_high="3000",
    )
    assert client.post(f"/scenarios/{scenario.pk}/", body).status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["ranges"]["inference.reasoning_tokens"] == {"low": 300, "high": 3000}


def test_deepseek_v3_described_by_hand_on_the_form_is_saved_with_its_architecture(client, scenario):
    by_hand = {
        "inference_model": "",
        "inference_parameters": "37e9",
        "inference_total_parameters": "671e9",
        "inference_layers": "61",
        "inference_query_heads": "128",
        "inference_head_dim": "128",
        "inference_hidden_size": "7168",
        "inference_kv_latent_width": "576",
        "inference_experts_total": "256",
        "inference_experts_active": "8",
        "inference_precision": "fp8",
        "inference_accelerator": "nvidia-h200-sxm",
    }
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/", served(**by_hand), HTTP_HX_REQUEST="true"
    )
    from_catalogue = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        served(
            inference_model="deepseek-v3",
            inference_precision="fp8",
            inference_accelerator="nvidia-h200-sxm",
        ),
        HTTP_HX_REQUEST="true",
    )
    assert (
        response.context["form"].result.inference == from_catalogue.context["form"].result.inference
    )
    assert client.post(f"/scenarios/{scenario.pk}/", served(**by_hand)).status_code == 302
    scenario.refresh_from_db()
    stored = scenario.inputs["inference"]
    assert {name: stored[name] for name in ("kv_latent_width", "experts_total")} == {
        "kv_latent_width": 576,
        "experts_total": 256,
    }


def test_exports_and_version_differences_name_the_new_inputs_in_words():
    for name, label in (
        ("reasoning_tokens", "Reasoning tokens per request"),
        ("cached_input_tokens", "Cached input tokens per request"),
        ("query_heads", "Query heads"),
        ("kv_latent_width", "Latent KV width"),
        ("experts_active", "Active experts per token"),
    ):
        assert str(INPUT_NUMBERS["inference", name].label) == label


SWEEP_REQUEST = {
    "inference": {
        "method": "tokens",
        "model": "llama-3.1-8b",
        "input_tokens": 1000,
        "output_tokens": 200,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    }
}


def sweep(field: str, values: list) -> dict[str, np.ndarray]:
    definition = definition_parse(
        {"inputs": [{"field": field, "kind": "list", "values": values}]}, SWEEP_REQUEST
    )
    bases = base_inputs(definition, SWEEP_REQUEST, Catalogue.from_database())
    return evaluate_range(definition, bases, 0, definition.total_points)


def test_a_sweep_varies_reasoning_tokens_and_the_cost_and_wait_grow_with_them():
    for path in ("inference.reasoning_tokens", "inference.cached_input_tokens"):
        assert path in SWEEPABLE
        assert SWEEPABLE[path].unused_by(SWEEP_REQUEST) is None
    figures = sweep("inference.reasoning_tokens", [0, 800])
    latency, cost = figures["inference_latency_seconds"], figures["cost_per_request"]
    assert latency[0] < latency[1] and cost[0] < cost[1]
    # 800 reasoning tokens cost and take what 800 more visible output tokens do.
    visible = sweep("inference.output_tokens", [1000])
    np.testing.assert_array_equal(visible["cost_per_request"][0], cost[1])
    np.testing.assert_array_equal(visible["inference_latency_seconds"][0], latency[1])


def test_a_sweep_varies_cached_input_tokens_and_the_first_token_comes_sooner():
    figures = sweep("inference.cached_input_tokens", [0, 900])
    assert figures["serving_ttft_seconds"][1] < figures["serving_ttft_seconds"][0]
    assert figures["serving_batch_size"][1] == figures["serving_batch_size"][0]


def test_a_sweep_varies_reasoning_tokens_of_an_external_api_at_the_output_price():
    request = {
        "inference": {
            "method": "external_api",
            "input_tokens": 1000,
            "output_tokens": 500,
            "price_per_million_input_tokens": 2.5,
            "price_per_million_output_tokens": 10.0,
            "requests_per_month": 10_000,
        }
    }
    assert SWEEPABLE["inference.reasoning_tokens"].unused_by(request) is None
    definition = definition_parse(
        {"inputs": [{"field": "inference.reasoning_tokens", "kind": "list", "values": [0, 1500]}]},
        request,
    )
    bases = base_inputs(definition, request, Catalogue.from_database())
    cost = evaluate_range(definition, bases, 0, 2)["cost_per_request"]
    # (1,000 × 2.50 + (500 + reasoning) × 10) / 1e6
    assert cost.tolist() == pytest.approx([0.0075, 0.0225], rel=1e-12)


def test_the_exports_name_the_new_inputs_in_each_language():
    inputs = {
        "inference": {"method": "tokens", "reasoning_tokens": 800, "kv_latent_width": 576},
        "ranges": {"inference.reasoning_tokens": {"low": 300, "high": 3000}},
    }
    for language, words in (
        ("en-gb", ("Reasoning tokens per request", "Latent KV width")),
        ("fr", ("Jetons de raisonnement par demande", "Largeur latente clé/valeur")),
    ):
        with translation.override(language):
            labels = [row.label for row in input_rows(inputs, Catalogue.from_database())]
        for word in words:
            assert any(label.startswith(word) for label in labels), (language, word, labels)


def test_version_differences_name_reasoning_tokens_and_the_architecture_in_words(
    client, manager, scenario
):
    first = {**scenario.inputs, "inference": {**SWEEP_REQUEST["inference"]}}
    scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=first,
        user=manager,
        expected_version=scenario.version,
    )
    second = {
        **first,
        "inference": {**first["inference"], "reasoning_tokens": 800, "query_heads": 32},
    }
    scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=second,
        user=manager,
        expected_version=scenario.version,
    )
    html = client.get(f"/scenarios/{scenario.pk}/versions/compare/?old=2&new=3")
    html = html.content.decode()
    assert "Reasoning tokens per request" in html and "Query heads" in html
    assert "reasoning_tokens" not in html and "query_heads" not in html
