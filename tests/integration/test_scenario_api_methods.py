"""The scenario form's API methods: an external model API for inference, fine-tuning through a
vendor's API for training; saved in the estimate request's shape, errors beside their fields, and
the data warning beside the choice when the project's data is above "public"."""

import re

import pytest

from apps.projects.models import Classification
from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def api_post(**overrides) -> dict:
    fields = {
        "training_method": "api_fine_tune",
        "training_tokens": "2e7",
        "training_epochs": "3",
        "training_price_per_million_training_tokens": "25",
        "inference_method": "external_api",
        "inference_api_model": "",
        "inference_input_tokens": "1000",
        "inference_cached_input_tokens": "400",
        "inference_output_tokens": "500",
        "inference_price_per_million_input_tokens": "2",
        "inference_price_per_million_cached_input_tokens": "0.5",
        "inference_price_per_million_output_tokens": "8",
        "inference_batch_discount": "50",
        "inference_requests_per_month": "300,000",
    }
    return scenario_post(**{**fields, **overrides})


def test_the_form_offers_both_api_methods_and_their_fields(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert 'name="inference_method" value="external_api"' in html
    assert 'name="training_method" value="api_fine_tune"' in html
    for name in (
        "inference_api_model",
        "inference_cached_input_tokens",
        "inference_price_per_million_input_tokens",
        "inference_price_per_million_cached_input_tokens",
        "inference_price_per_million_output_tokens",
        "inference_batch_discount",
        "training_epochs",
        "training_price_per_million_training_tokens",
    ):
        assert f'name="{name}"' in html, name
    assert '<option value="openai-gpt-4o-mini">' in html  # suggested as the model is typed
    # The page's script shows only the fields of the method chosen: the shared ones say so.
    assert re.search(
        r'data-methods="tokens external_api"><label for="id_inference_input_tokens"', html
    )
    assert re.search(
        r'data-methods="accelerator_seconds tokens"><label for="id_inference_target_utilization"',
        html,
    )
    assert "Before you try this" not in html  # a public project


def test_saving_an_external_api_and_a_fine_tune_keeps_the_request_shape(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/", api_post())
    assert response.status_code == 302, response.content.decode()[:3000]
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert inference == {
        "method": "external_api",
        "input_tokens": 1000,
        "cached_input_tokens": 400,
        "output_tokens": 500,
        "price_per_million_input_tokens": 2,
        "price_per_million_cached_input_tokens": 0.5,
        "price_per_million_output_tokens": 8,
        "batch_discount": 0.5,
        "requests_per_month": 300_000,
        "monthly_growth": 0,
        "months": 12,
        "peak_to_average": 3,
        **{k: v for k, v in inference.items() if k == "latency_seconds"},
    }
    assert scenario.inputs["training"] == {
        "method": "api_fine_tune",
        "tokens": 2e7,
        "epochs": 3,
        "price_per_million_training_tokens": 25,
    }
    results = version_estimate(scenario.versions.latest("number")).result
    # (600 × 2 + 400 × 0.5 + 500 × 8) / 1e6 × (1 − 0.5) = 0.0027 USD a request, × 300,000
    # requests a month × 12 months = 9,720 USD.
    assert float(results.inference.total.cost) == pytest.approx(9720)
    assert results.inference.peak_accelerators is None
    # 2e7 tokens × 3 epochs × 25 USD a million = 1,500 USD.
    assert float(results.training.cost) == pytest.approx(1500)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert re.search(r'value="external_api"[^>]*checked', html)
    assert 'name="inference_batch_discount" value="50"' in html


def test_a_catalogue_model_prices_the_requests_and_is_kept(client, manager):
    scenario = make_scenario(make_project(manager))
    body = api_post(inference_api_model="openai-gpt-4o-mini")
    for name in ("input", "cached_input", "output"):
        body[f"inference_price_per_million_{name}_tokens"] = ""
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["api_model"] == "openai-gpt-4o-mini"
    assert "price_per_million_input_tokens" not in scenario.inputs["inference"]


def test_errors_stand_beside_their_fields_and_nothing_typed_is_lost(client, manager):
    scenario = make_scenario(make_project(manager))
    body = api_post(inference_api_model="no-such-model")
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'id="id_inference_api_model_error"[^>]*>.*No API model', html, re.S)
    assert 'name="inference_api_model" value="no-such-model"' in html
    html = client.post(
        f"/scenarios/{scenario.pk}/", api_post(inference_cached_input_tokens="2000")
    ).content.decode()
    assert 'id="id_inference_cached_input_tokens_error"' in html
    assert 'name="inference_cached_input_tokens" value="2000"' in html
    # Without a model or prices, the missing price is named at its field.
    body = api_post(inference_price_per_million_output_tokens="")
    html = client.post(f"/scenarios/{scenario.pk}/", body).content.decode()
    assert 'id="id_inference_price_per_million_output_tokens_error"' in html
    body = api_post(training_price_per_million_training_tokens="")
    html = client.post(f"/scenarios/{scenario.pk}/", body).content.decode()
    assert 'id="id_training_price_per_million_training_tokens_error"' in html


def test_the_data_warning_stands_beside_the_choice_above_public(client, manager):
    project = make_project(manager, classification=Classification.CONFIDENTIAL)
    scenario = make_scenario(project)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    warning = re.search(
        r'<div class="warning api-method-warning" role="note" data-methods="external_api".*?</div>',
        html,
        re.S,
    )
    assert warning and "Before you try this" in warning.group()
    assert "This project will process confidential data." in warning.group()
    assert "the data leaves the organisation" in warning.group()
    # Just after the method choice, before the next field.
    assert html.index('name="inference_method" value="external_api"') < warning.start()
    assert warning.start() < html.index('name="inference_model"')
    assert 'data-methods="api_fine_tune" id="api_fine_tune-warning"' in html
    project.classification = Classification.PUBLIC
    project.save()
    assert "Before you try this" not in client.get(f"/scenarios/{scenario.pk}/").content.decode()


def test_the_live_preview_prices_an_external_api(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/preview/", api_post(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "9,720" in response.content.decode()  # 0.0027 USD × 300,000 × 12
