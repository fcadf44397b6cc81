"""Ranges on the decision view draw each uncertain input once for every option (common random
numbers): a price the scenario's training and inference share is one price for every option,
whether it trains or not, and an option priced apart keeps the range's factors."""

import pytest

pytestmark = pytest.mark.django_db

INFERENCE = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 2.0,
    "output_tokens": 500,
    "requests_per_month": 200_000,
    "months": 12,
}
# A small training on the same rented accelerators at the same price: building costs what
# renting per use costs, plus that training.
TRAINING = {
    "method": "accelerator_hours",
    "accelerator_hours": 200,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 2.0,
}
BUDGET = {"period_start": "2027-01-01", "period_end": "2027-12-31", "service_start": "2027-01-01"}
SETTINGS = {"samples": 20_000, "seed": 5}


def post(api_client, options, ranges) -> dict:
    body = {
        "training": TRAINING,
        "inference": INFERENCE,
        "budget": BUDGET,
        "options": options,
        "ranges": ranges,
        "uncertainty": SETTINGS,
    }
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["uncertainty"]


@pytest.mark.parametrize("section", ["inference", "training"])
def test_building_never_beats_renting_per_use_when_it_costs_the_same_plus_a_training(
    api_client, section
):
    ranges = {
        f"{section}.price_per_accelerator_hour": {"low": 0.5, "high": 8.0},
        # Moves the training alone: building is no longer renting's cost plus a constant.
        "training.accelerator_hours": {"low": 100, "high": 400},
    }
    uncertainty = post(api_client, [{"key": "rent_pay_per_use"}, {"key": "build"}], ranges)
    assert uncertainty["cheapest_share"] == {"rent_pay_per_use": 1.0, "build": 0.0}
    # The one price moves renting's cost too, whichever section the range was given on.
    rent = uncertainty["figures"]["options.rent_pay_per_use.npv"]
    assert float(rent["p95"]) > 10 * float(rent["p5"])
    build = uncertainty["figures"]["options.build.npv"]
    for key in ("p5", "p50", "p95"):
        assert float(build[key]) > float(rent[key])


def test_an_option_priced_apart_takes_the_ranges_factors_of_its_own_price(api_client):
    ranges = {"inference.price_per_accelerator_hour": {"low": 1.0, "high": 4.0}}
    dearer = {"key": "rent_pay_per_use", "price_per_accelerator_hour": 4.0}
    uncertainty = post(api_client, [dearer], ranges)
    per_request = uncertainty["figures"]["options.rent_pay_per_use.cost_per_request"]
    # Twice the scenario's price: between 2 and 8 USD an hour, 4 in the middle, for 2 s a request.
    for key, price in (("p5", 2.0), ("p50", 4.0), ("p95", 8.0)):
        assert float(per_request[key]) == pytest.approx(price * 2 / 3600, rel=0.04)
