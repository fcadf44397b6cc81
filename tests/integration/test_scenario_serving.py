"""The scenario page serving a language model: the model picker, figures and refusals."""

import pytest

from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def serving_post(**overrides) -> dict:
    fields = {
        "inference_method": "tokens",
        "inference_model": "llama-3.1-405b",
        "inference_input_tokens": "1000",
        "inference_output_tokens": "500",
        "inference_kv_cache_bytes_per_element": "2",
        "inference_memory_utilization": "90",
        "inference_memory_efficiency": "70",
    }
    return scenario_post(**{**fields, **overrides})


def test_the_form_offers_the_catalogue_models_and_my_own_model(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert 'name="inference_model"' in html
    assert "My own model (give its dimensions below)" in html
    assert 'value="llama-3.1-405b"' in html and 'value="deepseek-v3"' in html


def test_a_catalogue_model_shows_the_copy_of_the_model_batch_and_copies_at_peak(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/", serving_post(), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Serving the model" in html
    assert "16 accelerators per copy of the model, tensor parallel 8, in 2 pipeline stages" in html
    assert "Time to first token" in html and "Copies of the model at peak" in html
    assert "<strong>KV cache</strong>" in html


def test_saving_keeps_the_model_and_the_page_draws_its_serving_figures(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/", serving_post(inference_tpot_target_seconds="0.05")
    )
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["model"] == "llama-3.1-405b"
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "within the target of" in html and "50 ms" in html


def test_my_own_model_with_its_dimensions(client, manager):
    scenario = make_scenario(make_project(manager))
    body = serving_post(
        inference_model="",
        inference_parameters="8e9",
        inference_layers="32",
        inference_kv_heads="8",
        inference_head_dim="128",
    )
    html = client.post(
        f"/scenarios/{scenario.pk}/preview/", body, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "1 accelerator per copy of the model, tensor parallel 1" in html


def test_a_replica_too_small_is_an_error_at_its_field_and_keeps_what_was_typed(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/", serving_post(inference_accelerators_per_replica="8")
    )
    html = response.content.decode()
    assert 'id="id_inference_accelerators_per_replica_error"' in html
    assert "does not fit on 8 accelerator(s)" in html
    assert 'value="llama-3.1-405b" selected' in html


def test_a_saved_version_records_the_model_it_used_with_its_source(client, manager):
    scenario = make_scenario(make_project(manager))
    client.post(f"/scenarios/{scenario.pk}/", serving_post())
    version = scenario.versions.order_by("-number").first()
    model = version.catalogue["models"]["llama-3.1-405b"]
    assert (model["layers"], model["kv_heads"]) == (126, 8)
    assert model["source"] and model["as_of"]
    assert version_estimate(version).result.inference.serving.accelerators_per_replica == 16
