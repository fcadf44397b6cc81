"""Always-on and owned options are sized by the serving model: replicas at peak × accelerators
per replica (the engine's `inference.serving`), not by FLOP alone."""

import pytest

from apps.estimates.units import HOURS_PER_MONTH

pytestmark = pytest.mark.django_db

# Llama 3.1 405B on H100s: 810 GB of BF16 weights need 16 accelerators a copy (two nodes).
INFERENCE = {
    "method": "tokens",
    "model": "llama-3.1-405b",
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 2.5,
    "purchase_price": 30000,
    "requests_per_month": 2_000_000,
    "peak_to_average": 3,
    "months": 12,
}
BUDGET = {"period_start": "2027-01-01", "period_end": "2027-12-31", "discount_rate": "0"}


def options(api_client, inference):
    body = {
        "inference": inference,
        "budget": BUDGET,
        "options": [{"key": "rent_always_on"}, {"key": "own"}],
    }
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    return {option["key"]: option for option in response.json()["options"]}


def test_always_on_and_owned_capacity_is_replicas_at_peak_times_accelerators_per_replica(
    api_client,
):
    always_on = {**INFERENCE, "provisioning": "always_on"}
    estimate = api_client.post("/api/v1/estimate/", {"inference": always_on}, format="json")
    serving = estimate.json()["inference"]["serving"]
    assert serving["fits"] and serving["accelerators_per_replica"] == 16
    replicas = serving["replicas_at_peak"]
    assert replicas >= 1
    data = options(api_client, INFERENCE)
    for key in ("rent_always_on", "own"):
        assert data[key]["accelerators"] == replicas * 16
    # Rented always on: every accelerator paid every hour of the 12 months at 2.5 USD.
    hand = replicas * 16 * HOURS_PER_MONTH * 12 * 2.5
    assert float(data["rent_always_on"]["total"]) == pytest.approx(hand, abs=0.01)
    # Owned: the accelerators bought at once in the period (capex), 30,000 USD each.
    assert float(data["own"]["capex"]) == pytest.approx(replicas * 16 * 30000)


def test_without_the_model_the_same_demand_is_sized_by_flop_alone(api_client):
    flop_only = {k: v for k, v in INFERENCE.items() if k != "model"} | {"parameters": 4.05e11}
    by_flop = options(api_client, flop_only)["rent_always_on"]["accelerators"]
    by_model = options(api_client, INFERENCE)["rent_always_on"]["accelerators"]
    assert by_model % 16 == 0 and by_flop != by_model


def test_an_api_scenario_self_hosts_the_model_the_option_names(api_client):
    api = {
        "method": "external_api",
        "api_model": "openai-gpt-4o-mini",
        **{k: INFERENCE[k] for k in ("input_tokens", "output_tokens", "requests_per_month")},
        "peak_to_average": 3,
        "months": 12,
    }
    choice = {
        "key": "rent_always_on",
        "model": "llama-3.1-405b",
        "accelerator": "nvidia-h100-sxm",
        "price_per_accelerator_hour": 2.5,
    }
    body = {"inference": api, "budget": BUDGET, "options": [{"key": "external_api"}, choice]}
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    hosted = {o["key"]: o for o in response.json()["options"]}["rent_always_on"]
    assert (
        options(api_client, INFERENCE)["rent_always_on"]["accelerators"] == hosted["accelerators"]
    )
