"""The EU guidelines' 10^23 FLOP indicator and one-third rule through the API, the scenario page
and the exports: a fine-tune of a catalogue model (training.base_model) above and below one
third of the original's published training compute, and the fallback where none is published."""

import json
from html import unescape

import pytest
from django.utils import translation

from apps.api.estimate import estimate_response
from apps.exports.figures import figure_rows
from tests.factories import make_manager, make_project, make_scenario, seed_000_inference

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"


def fine_tune(flop: float, base_model: str = "llama-3.1-405b") -> dict:
    return {
        "method": "total_flop",
        "total_flop": flop,
        "accelerator": "nvidia-h100-sxm",
        "base_model": base_model,
    }


def post(client, training: dict) -> dict:
    response = client.post(
        URL, data=json.dumps({"training": training}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()["training"]


def test_a_fine_tune_of_0_4_percent_of_llama_405b_is_far_from_one_third(api_client):
    # 1.52e23 / 3.8e25 (the Llama 3 paper's figure) = 0.004.
    modification = post(api_client, fine_tune(1.52e23))["modification"]
    assert modification["base_model"] == "Meta Llama 3.1 405B"
    assert modification["base_model_flop"] == 3.8e25
    assert modification["share"] == pytest.approx(0.004)
    assert modification["threshold_flop"] == pytest.approx(3.8e25 / 3)
    assert modification["exceeded"] is False and modification["fallback"] is False
    assert modification["summary"].startswith("This fine-tune uses 0.4 % of Meta Llama 3.1 405B")
    assert modification["summary"].endswith("the one-third rule is far away.")


def test_a_fine_tune_above_one_third_of_llama_405b_makes_a_new_provider(api_client):
    # 1.3e25 / 3.8e25 = 0.342 > 1/3; 1.26e25 / 3.8e25 = 0.332 < 1/3.
    above = post(api_client, fine_tune(1.3e25))["modification"]
    below = post(api_client, fine_tune(1.26e25))["modification"]
    assert above["exceeded"] is True and above["share"] == pytest.approx(0.34211, rel=1e-4)
    assert below["exceeded"] is False and below["share"] == pytest.approx(0.33158, rel=1e-4)


def test_a_base_model_without_published_compute_falls_back_on_a_third_of_1e23(api_client):
    training = post(api_client, fine_tune(3.4e22, "llama-3.1-8b"))
    modification = training["modification"]
    assert modification["base_model_flop"] is None and modification["share"] is None
    assert modification["fallback"] is True
    assert modification["threshold_flop"] == pytest.approx(1e23 / 3)
    assert modification["exceeded"] is True  # 3.4e22 > 3.33e22
    assert any("not published" in note for note in training["assumptions"])
    assert post(api_client, fine_tune(3.3e22, "llama-3.1-8b"))["modification"]["exceeded"] is False


def test_the_1e23_indicator_is_among_the_thresholds_with_its_modality_condition(api_client):
    thresholds = post(api_client, fine_tune(1.52e23))["thresholds"]
    indicator = next(t for t in thresholds if t["flop"] == 1e23 and "EU" in t["name"])
    assert "language, images or video" in indicator["name"]
    assert indicator["exceeded"] is True  # 1.52e23 > 1e23
    listed = api_client.get("/api/v1/thresholds/eu-gpai-guidelines-indicator/").json()
    assert "2025-07-18" in json.dumps(listed["sources"])
    assert "18 July 2025" in json.dumps(listed["sources"])


def test_no_base_model_no_modification_and_an_unknown_one_is_refused(api_client):
    training = {k: v for k, v in fine_tune(1e23).items() if k != "base_model"}
    assert post(api_client, training)["modification"] is None
    response = api_client.post(
        URL,
        data=json.dumps({"training": fine_tune(1e23, "llama-9-9000b")}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "No model 'llama-9-9000b'" in response.json()["training"]["base_model"][0]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en-gb", "This fine-tune uses 0.4 % of Meta Llama 3.1 405B"),
        ("fr", "Cet affinage utilise 0,4\u00a0% de la puissance de calcul"),
    ],
)
def test_the_scenario_page_says_the_rule_in_plain_words(client, language, said):
    owner = make_manager("amina")
    inputs = {"training": fine_tune(1.52e23), "inference": seed_000_inference(15_000)}
    scenario = make_scenario(make_project(owner, "Fine-tune"), "Pilot", inputs=inputs)
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    text = html.content.decode()
    assert said in text.replace("\u202f", "\u00a0")
    assert 'value="llama-3.1-405b" selected' in text


def test_the_exports_carry_the_rule():
    response = estimate_response({"training": fine_tune(1.3e25)})
    with translation.override("en"):
        rows = {row.field: row for row in figure_rows(response)}
    assert rows["training.modification.exceeded"].value == "yes"
    assert rows["training.modification.share"].value == pytest.approx(0.34211, rel=1e-4)
    assert "more than one third" in rows["training.modification.summary"].value


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en-gb", "What the guidelines say"), ("fr", "Ce que disent les lignes directrices")],
)
def test_the_scenario_page_quotes_the_guidelines_and_their_fallback(client, language, heading):
    owner = make_manager("amina")
    project = make_project(owner, "Fine-tune")
    published = make_scenario(
        project,
        "Of 405B",
        inputs={"training": fine_tune(1.52e23), "inference": seed_000_inference(1)},
    )
    unpublished = make_scenario(
        project, "Of 8B", inputs={"training": fine_tune(3.4e22, "llama-3.1-8b"), "inference": seed_000_inference(1)}
    )  # fmt: skip
    client.force_login(owner)
    headers = {"accept-language": language}
    rule = "greater than a third of the training compute of the original model"
    fallback = "Otherwise, it should be replaced with a third of the threshold for a model being"
    html = client.get(f"/scenarios/{published.pk}/", headers=headers).content.decode()
    text = unescape(html)
    assert f"<summary>{heading}</summary>" in text
    assert '<blockquote lang="en">' in text and rule in text and fallback not in text
    assert "C(2025) 5045 final, Brussels, 18 July 2025" in text
    text = unescape(client.get(f"/scenarios/{unpublished.pk}/", headers=headers).content.decode())
    assert rule in text and fallback in text
    assert "currently 10^23 FLOP, see Section 2.1" in text
