"""The estimate API with an external model API and fine-tuning through an API: catalogue prices,
overrides, errors, the classification warning and versions that keep the prices they used."""

import datetime
from decimal import Decimal

import pytest

from apps.apiprices.models import ApiModel
from apps.projects.models import Classification
from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


def api_inference(**changes) -> dict:
    return {
        "method": "external_api",
        "api_model": "openai-gpt-4o",
        "input_tokens": 1000,
        "cached_input_tokens": 400,
        "output_tokens": 500,
        "requests_per_month": 10_000,
        **changes,
    }


def gpt_4o_today():
    return ApiModel.objects.get(slug="openai-gpt-4o").price_on(datetime.date.today())


def test_the_catalogue_prices_an_external_api_request(api_client):
    price = gpt_4o_today()
    response = api_client.post("/api/v1/estimate/", {"inference": api_inference()}, format="json")
    assert response.status_code == 200, response.json()
    inference = response.json()["inference"]
    per_request = (600 * price.input + 400 * price.cached_input + 500 * price.output) / Decimal(
        10**6
    )
    assert Decimal(inference["per_request"]["cost_per_1000"]) == (1000 * per_request).quantize(
        Decimal("0.01")
    )
    assert Decimal(inference["total"]["cost"]) == (120_000 * per_request).quantize(Decimal("0.01"))
    assert inference["peak_accelerators"] is None
    # Energy is the provider's, from EcoLogits (tests/integration/test_api_external_footprint.py).
    assert inference["total"]["energy_kwh"] > 0 and inference["total"]["always_on_cost"] is None
    assert inference["per_request"]["accelerator_seconds"] is None
    note = inference["assumptions"][0]
    assert note.startswith("OpenAI ") and ": prices in force on" in note
    assert f"output {price.output.normalize():f};" in note and "genai-prices 0.2.3" in note


def test_overrides_replace_the_catalogue_prices_and_a_batch_discount_halves_them(api_client):
    body = {
        "inference": api_inference(
            price_per_million_input_tokens=2.5,
            price_per_million_cached_input_tokens=1.25,
            price_per_million_output_tokens=10,
            batch_discount=0.5,
        ),
        "training": {
            "method": "api_fine_tune",
            "tokens": 2_000_000,
            "epochs": 3,
            "price_per_million_training_tokens": 25,
        },
    }
    data = api_client.post("/api/v1/estimate/", body, format="json").json()
    assert data["inference"]["per_request"]["cost_per_1000"] == "3.50"
    assert data["inference"]["monthly"][0]["cost"] == "35.00"
    assert data["training"]["cost"] == "150.00"
    assert data["training"]["accelerator_hours"] is None
    assert data["comparison"]["break_even_months_cost"] == pytest.approx(150 / 35)
    assert data["comparison"]["cumulative"][1]["inference_accelerator_hours"] is None


def test_without_a_model_every_price_must_be_given(api_client):
    body = {"inference": api_inference(api_model=None, price_per_million_input_tokens=1.0)}
    body["inference"].pop("api_model")
    response = api_client.post("/api/v1/estimate/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["inference"]) == {"price_per_million_output_tokens"}


def test_an_unknown_api_model_and_too_many_cached_tokens_are_errors_at_their_fields(api_client):
    body = {"inference": api_inference(api_model="no-such-model", cached_input_tokens=5000)}
    response = api_client.post("/api/v1/estimate/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["inference"]) == {"api_model"}
    body = {"inference": api_inference(cached_input_tokens=5000)}
    errors = api_client.post("/api/v1/estimate/", body, format="json").json()["inference"]
    assert errors == {
        "cached_input_tokens": [
            "Cached input tokens are part of the input tokens: at most as many."
        ]
    }


@pytest.mark.parametrize(
    ("classification", "warned"),
    [
        (Classification.PUBLIC, False),
        (Classification.INTERNAL, True),
        (Classification.CONFIDENTIAL, True),
    ],
)
def test_an_external_api_above_public_data_is_warned_about(classification, warned):
    owner = make_manager()
    project = make_project(owner, classification=classification)
    make_scenario(project, inputs={"inference": api_inference()})
    warning = project.hosting_warning(s.inputs for s in project.scenarios.all())
    assert (warning is not None and "external model API" in warning) is warned


def test_a_version_keeps_the_api_prices_it_was_computed_with():
    owner = make_manager()
    scenario = make_scenario(make_project(owner), inputs={"inference": api_inference()})
    version = scenario.versions.get()
    price = gpt_4o_today()
    used = version.catalogue["api_prices"]["openai-gpt-4o"]
    assert used["input"] == f"{price.input.normalize():f}"
    assert used["output"] == f"{price.output.normalize():f}"
    assert used["catalogue_version"] == "genai-prices 0.2.3"
    assert used["checked_on"] and used["source_url"].startswith("https://")
    cost_then = version_estimate(version).result.inference.total.cost
    price.output = price.output * 2
    price.save()
    version.refresh_from_db()
    assert version_estimate(version).result.inference.total.cost == cost_then
