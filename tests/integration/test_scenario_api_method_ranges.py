"""The scenario form's ranges on the API methods' numbers: Low–High beside each, typical ranges
for prices only, errors beside the field, and the ranges kept in the request's shape."""

import re

import pytest

from apps.projects.api_methods import API_NUMBER_FIELDS
from apps.projects.models import Scenario
from tests.factories import make_project, make_scenario
from tests.integration.test_scenario_api_methods import api_post, manager  # noqa: F401
from tests.integration.test_scenario_page_ranges import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(manager):  # noqa: F811
    return make_scenario(make_project(manager))


def test_each_api_number_has_a_low_and_high_beside_it(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    for name in (spec.field_name for spec in API_NUMBER_FIELDS):
        field = re.search(
            rf'<div class="form-field"[^>]*><label for="id_{name}">.*?</fieldset>', html, re.S
        )
        assert field, name
        assert f'name="{name}_low"' in field.group() and f'name="{name}_high"' in field.group()


def test_saving_ranges_on_api_numbers_keeps_them_by_request_path(client, scenario):
    body = api_post(
        inference_price_per_million_output_tokens_low="4",
        inference_price_per_million_output_tokens_high="16",
        inference_input_tokens_low="800",
        inference_input_tokens_high="1200",
        inference_batch_discount_low="40",
        inference_batch_discount_high="60",
        training_epochs_low="2",
        training_epochs_high="4",
    )
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 302, response.content.decode()[:3000]
    scenario.refresh_from_db()
    assert scenario.inputs["ranges"] == {
        "training.epochs": {"low": 2, "high": 4},
        "inference.input_tokens": {"low": 800, "high": 1200},
        "inference.price_per_million_output_tokens": {"low": 4, "high": 16},
        "inference.batch_discount": {"low": 0.4, "high": 0.6},
    }
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Inference cost over the horizon" in text(html)
    assert (
        'name="inference_batch_discount_low" id="id_inference_batch_discount_low" value="40"'
        in (html)
    )


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [("16", "4", "is above the high end"), ("-1", "4", "between 0 and 1,000,000")],
)
def test_a_bad_range_on_an_api_price_is_an_error_beside_it(client, scenario, low, high, expected):
    before = dict(scenario.inputs)
    body = api_post(
        inference_price_per_million_output_tokens_low=low,
        inference_price_per_million_output_tokens_high=high,
    )
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 200
    html = response.content.decode()
    error = re.search(
        r'<ul class="errorlist" id="id_inference_price_per_million_output_tokens_low_error">'
        r"(.*?)</ul>",
        html,
        re.S,
    )
    assert error and expected in error.group(1)
    assert 'href="#id_inference_price_per_million_output_tokens_low"' in html  # the summary
    assert Scenario.objects.get(pk=scenario.pk).inputs == before


def test_a_range_typed_for_another_method_is_left_out(client, scenario):
    # MFU's Low and High are still in the page (hidden with their method): not an error here.
    body = api_post(training_mfu_low="30", training_mfu_high="50")
    response = client.post(f"/scenarios/{scenario.pk}/", body)
    assert response.status_code == 302, response.content.decode()[:3000]
    scenario.refresh_from_db()
    assert "ranges" not in scenario.inputs


def test_typical_range_of_an_api_price_is_epochs_price_prior_and_saves_nothing(client, scenario):
    before = dict(scenario.inputs)
    url = f"/scenarios/{scenario.pk}/"
    typed = client.post(
        url, api_post(typical_range="inference_price_per_million_output_tokens")
    ).content.decode()
    # ×0.5 to ×2 of the 8 USD typed.
    assert 'id="id_inference_price_per_million_output_tokens_low" value="4"' in typed
    assert 'id="id_inference_price_per_million_output_tokens_high" value="16"' in typed
    assert "Epoch AI&#x27;s prior for hardware prices, applied here to API prices" in typed
    # Left empty with a catalogue model chosen: around the model's price in force.
    body = api_post(
        typical_range="inference_price_per_million_output_tokens",
        inference_api_model="openai-gpt-4o-mini",
        inference_price_per_million_output_tokens="",
    )
    listed = client.post(url, body).content.decode()
    low = re.search(
        r'id="id_inference_price_per_million_output_tokens_low" value="([^"]+)"', listed
    )
    high = re.search(
        r'id="id_inference_price_per_million_output_tokens_high" value="([^"]+)"', listed
    )
    assert low and high
    assert float(high.group(1)) == pytest.approx(4 * float(low.group(1)))
    assert Scenario.objects.get(pk=scenario.pk).inputs == before


@pytest.mark.parametrize(
    "field", ["inference_input_tokens", "inference_cached_input_tokens", "inference_batch_discount"]
)
def test_token_counts_and_the_discount_have_no_typical_range(client, scenario, field):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    block = re.search(rf'<label for="id_{field}">.*?</fieldset>', html, re.S).group()
    assert "Use a typical range" not in block
    response = client.post(f"/scenarios/{scenario.pk}/", api_post(typical_range=field))
    assert "This input has no typical range." in response.content.decode()
