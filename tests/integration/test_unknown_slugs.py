"""An unknown model or accelerator slug is one message on its own field, naming the closest known
slugs (API and scenario form, English and French)."""

import json

import pytest
from rest_framework.test import APIClient

from apps.catalogue.suggestions import closest_slugs
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"


def post(client, body: dict, language: str = "en"):
    return client.post(
        URL,
        data=json.dumps(body),
        content_type="application/json",
        headers={"accept-language": language},
    )


def test_closest_slugs_put_the_ones_containing_what_was_typed_first():
    known = ["nvidia-h100-sxm", "nvidia-h100-pcie", "nvidia-h200-sxm", "amd-mi300x"]
    assert closest_slugs("h100", known) == ["nvidia-h100-pcie", "nvidia-h100-sxm"]
    assert closest_slugs("mi300", known) == ["amd-mi300x"]
    assert closest_slugs("gpt-4", known) == []


def test_an_unknown_model_suggests_the_closest_catalogue_models(api_client):
    inference = {
        "method": "tokens",
        "model": "llama-3-70b",
        "accelerator": "nvidia-h100-sxm",
        "input_tokens": 300,
        "output_tokens": 300,
        "requests_per_month": 1000,
    }
    response = post(api_client, {"inference": inference})
    assert response.status_code == 400
    errors = response.json()["inference"]
    [message] = errors["model"]
    assert message.startswith("No model 'llama-3-70b' in the catalogue. Did you mean ")
    assert "'llama-3.3-70b'" in message and "'llama-3.1-70b'" in message
    assert set(errors) == {"model"}


def test_an_unknown_training_accelerator_is_one_message_on_its_field(api_client):
    training = {"method": "parameters_tokens", "parameters": 8e9, "tokens": 1e12}
    response = post(api_client, {"training": {**training, "accelerator": "nvidia-h800"}})
    assert response.status_code == 400
    errors = response.json()["training"]
    # Not also "Choose an accelerator" (one was chosen) nor "Give a price" (it has no row).
    assert list(errors) == ["accelerator"] and len(errors["accelerator"]) == 1
    assert "Did you mean 'nvidia-h800-sxm'" in errors["accelerator"][0]


def test_an_unknown_serving_accelerator_is_one_message_on_its_field(api_client):
    inference = {
        "method": "tokens",
        "parameters": 8e9,
        "accelerator": "h100",
        "input_tokens": 300,
        "output_tokens": 300,
        "requests_per_month": 1000,
    }
    response = post(api_client, {"inference": inference})
    assert response.status_code == 400
    errors = response.json()["inference"]
    assert list(errors) == ["accelerator"] and len(errors["accelerator"]) == 1
    assert (
        "Did you mean 'nvidia-h100-nvl', 'nvidia-h100-pcie', 'nvidia-h100-sxm'?"
        in (errors["accelerator"][0])
    )


def test_the_suggestion_is_in_french_for_a_french_reader():
    client = APIClient()
    client.force_authenticate(make_manager("amina"))
    training = {"method": "accelerator_hours", "accelerator_hours": 200, "accelerator": "h800"}
    response = post(client, {"training": training}, language="fr")
    assert response.status_code == 400
    [message] = response.json()["training"]["accelerator"]
    assert message == (
        "Aucun accélérateur 'h800' dans le catalogue. Vouliez-vous dire 'nvidia-h800-sxm'\u202f?"
    )


def test_an_unknown_api_model_suggests_the_closest_of_the_price_catalogue(api_client):
    inference = {
        "method": "external_api",
        "api_model": "openai-gpt4o",
        "input_tokens": 300,
        "output_tokens": 300,
        "requests_per_month": 1000,
    }
    response = post(api_client, {"inference": inference})
    assert response.status_code == 400
    [message] = response.json()["inference"]["api_model"]
    assert message.startswith("No API model 'openai-gpt4o' with a price on ")
    assert "Did you mean 'openai-gpt-4o'" in message


def test_the_scenario_form_refuses_an_unknown_model_naming_the_closest(client):
    manager = make_manager("maria")
    client.force_login(manager)
    scenario = make_scenario(make_project(manager))
    post = scenario_post(
        inference_method="tokens",
        inference_model="llama-3-70b",
        inference_input_tokens="300",
        inference_output_tokens="300",
    )
    response = client.post(f"/scenarios/{scenario.pk}/", post)
    assert response.status_code == 200
    html = response.content.decode()
    error = html[html.index('id="id_inference_model_error"') :][:400]
    assert "No model &#x27;llama-3-70b&#x27; in the catalogue. Did you mean" in error
    assert "llama-3.3-70b" in error
    french = client.post(
        f"/scenarios/{scenario.pk}/", post, headers={"accept-language": "fr"}
    ).content.decode()
    assert "Aucun modèle &#x27;llama-3-70b&#x27; dans le catalogue. Vouliez-vous dire" in french
