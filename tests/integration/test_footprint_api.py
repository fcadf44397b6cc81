"""Embodied emissions and water through the catalogue, the estimate API and the scenario page,
on the seed-000 worked example (H100 SXM, world grid, industry-average data centre)."""

import json

import pytest

from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"
PER_HOUR = 985.5 / (3 * 8766)  # kg CO2e per rented H100-hour (EcoLogits' figures, 3 years)
WATER_PER_KWH = 1.8 / 1.56 + 3.908  # on site per IT kWh, and at the power plants


def post(client, body: dict) -> dict:
    response = client.post(URL, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_seed_000_carries_embodied_emissions_and_water(api_client):
    body = post(
        api_client, {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
    )
    training = body["training"]
    # 200 h · 0.0374743 kg = 7.49 kg; 200 h · 0.7 kW · 1.56 = 218.4 kWh → 1,105.5 L.
    assert training["embodied_kg_co2e"] == pytest.approx(200 * PER_HOUR)
    assert training["water_litres"] == pytest.approx(218.4 * WATER_PER_KWH)
    per_request, total = body["inference"]["per_request"], body["inference"]["total"]
    assert per_request["embodied_kg_co2e"] == pytest.approx(PER_HOUR * 2 / 3600)
    assert per_request["water_litres"] == pytest.approx(per_request["energy_kwh"] * WATER_PER_KWH)
    # 180,000 requests · 2 s = 100 h; 109.2 kWh.
    assert total["embodied_kg_co2e"] == pytest.approx(100 * PER_HOUR)
    assert total["water_litres"] == pytest.approx(109.2 * WATER_PER_KWH)
    # The worked example's own figures are unchanged.
    assert training["accelerator_hours"] == pytest.approx(200)
    assert body["comparison"]["break_even_months"] == pytest.approx(24)


def test_an_accelerator_without_a_life_cycle_source_says_not_published(api_client):
    training = {**SEED_000_TRAINING, "accelerator": "nvidia-b200"}
    body = post(api_client, {"training": training, "energy_profile": "canada-grid-new-large-pue"})
    assert body["training"]["embodied_kg_co2e"] is None
    assert body["training"]["water_litres"] is None  # no on-site WUE for that profile


def test_the_scenario_page_shows_both_in_both_languages(client):
    owner = make_manager("amina")
    scenario = make_scenario(make_project(owner, "Footprint"), "Pilot")
    client.force_login(owner)
    english = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Embodied emissions" in english and "Water over the horizon" in english
    assert "7.49 kg CO2e" in english  # training: 200 h · 0.0374743 kg
    french = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": "fr"})
    text = french.content.decode()
    assert "Émissions intrinsèques" in text and "Eau sur l’horizon" in text
