"""An external model API's footprint per request through the estimate API, checked against what
the EcoLogits package itself computes for the same model and tokens, with its range."""

import pytest
from ecologits.tracers.utils import llm_impacts
from ecologits.utils.range_value import RangeValue

from apps.apiprices.footprint import request_footprint

pytestmark = pytest.mark.django_db


def ends(value) -> tuple[float, float]:
    if isinstance(value, RangeValue):
        return value.min, value.max
    return value, value


def api_inference(**changes) -> dict:
    return {
        "method": "external_api",
        "api_model": "openai-gpt-4o",
        "input_tokens": 1000,
        "output_tokens": 400,
        "reasoning_tokens": 100,
        "requests_per_month": 10_000,
        **changes,
    }


def test_gpt_4o_per_request_matches_ecologits_for_the_same_tokens(api_client):
    response = api_client.post("/api/v1/estimate/", {"inference": api_inference()}, format="json")
    assert response.status_code == 200, response.json()
    inference = response.json()["inference"]
    # 400 visible + 100 reasoning tokens are generated; EcoLogits' own figures for them:
    impacts = llm_impacts(
        provider="openai", model_name="gpt-4o", output_token_count=500, request_latency=float("inf")
    )
    energy = ends(impacts.energy.value)
    usage = ends(impacts.usage.gwp.value)
    embodied = ends(impacts.embodied.gwp.value)
    water = ends(impacts.usage.wcf.value)
    footprint = inference["per_request"]["footprint_range"]
    assert (footprint["energy_kwh"]["low"], footprint["energy_kwh"]["high"]) == pytest.approx(
        energy
    )
    assert (footprint["usage_kg_co2e"]["low"], footprint["usage_kg_co2e"]["high"]) == pytest.approx(
        usage
    )
    assert footprint["water_litres"]["high"] == pytest.approx(water[1])
    per_request = inference["per_request"]
    assert per_request["energy_kwh"] == pytest.approx(sum(energy) / 2)
    assert per_request["embodied_kg_co2e"] == pytest.approx(sum(embodied) / 2)
    assert per_request["water_litres"] == pytest.approx(sum(water) / 2)
    # Twelve months of 10,000 requests: 120,000 × the middles.
    total = inference["total"]
    assert total["energy_kwh"] == pytest.approx(120_000 * sum(energy) / 2)
    assert total["emissions_kg_co2e"] == pytest.approx(120_000 * sum(usage) / 2)
    assert total["embodied_kg_co2e"] == pytest.approx(120_000 * sum(embodied) / 2)
    assert total["water_litres"] == pytest.approx(120_000 * sum(water) / 2)
    assert any("EcoLogits" in note for note in inference["assumptions"])


def test_a_model_ecologits_does_not_know_has_no_footprint(api_client):
    # DeepSeek is not among EcoLogits' providers.
    body = {"inference": api_inference(api_model="deepseek-deepseek-chat")}
    inference = api_client.post("/api/v1/estimate/", body, format="json").json()["inference"]
    assert inference["per_request"]["footprint_range"] is None
    assert inference["total"]["energy_kwh"] is None
    assert inference["total"]["water_litres"] is None
    assert any("not published (EcoLogits" in note for note in inference["assumptions"])


def test_the_range_is_ecologits_own_for_a_model_without_released_architecture():
    footprint = request_footprint("anthropic", "claude-sonnet-4-6", 300)
    impacts = llm_impacts(
        provider="anthropic",
        model_name="claude-sonnet-4-6",
        output_token_count=300,
        request_latency=float("inf"),
    )
    low, high = ends(impacts.energy.value)
    assert (footprint.energy_kwh_low, footprint.energy_kwh_high) == (low, high)
    assert low < high  # a range: the parameter count is not released
    assert request_footprint("openai", "no-such-model", 300) is None
