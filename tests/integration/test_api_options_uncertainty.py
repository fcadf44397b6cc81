"""Ranges on the decision view: percentiles of each option's total and NPV, and the share of
samples in which each option is the cheapest, against a closed form."""

import math
from statistics import NormalDist

import pytest

pytestmark = pytest.mark.django_db

Z_95 = NormalDist().inv_cdf(0.95)
# Self-hosting on rented accelerators paid per use, whose accelerator-hour price is the only
# uncertain figure, against an external API, which no range moves.
INFERENCE = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 2.0,
    "input_tokens": 1000,
    "output_tokens": 500,
    "requests_per_month": 200_000,
    "months": 12,
}
API = {
    "key": "external_api",
    "price_per_million_input_tokens": 0,
    "price_per_million_output_tokens": 4,
}
RANGES = {"inference.price_per_accelerator_hour": {"low": 0.5, "high": 8.0}}
BUDGET = {
    "period_start": "2027-01-01",
    "period_end": "2027-12-31",
    "service_start": "2027-01-01",
    "discount_rate": "0.05",
}
LOW, HIGH = 0.5, 8.0


def post(api_client, **extra):
    body = {
        "inference": INFERENCE,
        "budget": BUDGET,
        "options": [API, {"key": "rent_pay_per_use"}],
        **extra,
    }
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def npv(data, key):
    return float(next(o for o in data["options"] if o["key"] == key)["npv"])


def test_without_ranges_there_is_no_uncertainty(api_client):
    assert "uncertainty" not in post(api_client)


def test_the_cheapest_share_is_the_lognormal_probability_of_the_api_price_below_break_even(
    api_client,
):
    central = post(api_client)
    # Renting's NPV is proportional to the accelerator-hour price; the API's does not move.
    per_usd = npv(central, "rent_pay_per_use") / INFERENCE["price_per_accelerator_hour"]
    api = npv(central, "external_api")
    data = post(api_client, ranges=RANGES, uncertainty={"samples": 100_000, "seed": 7})
    uncertainty = data["uncertainty"]
    assert uncertainty["samples"] == 100_000 and uncertainty["seed"] == 7
    mu = (math.log(LOW) + math.log(HIGH)) / 2
    sigma = (math.log(HIGH) - math.log(LOW)) / (2 * Z_95)
    # Renting is cheapest when the price is below the API's NPV ÷ renting's NPV per USD.
    expected = NormalDist(mu, sigma).cdf(math.log(api / per_usd))
    assert 0.2 < expected < 0.8  # a case where either can win
    shares = uncertainty["cheapest_share"]
    error = 4 * math.sqrt(expected * (1 - expected) / 100_000)
    assert shares["rent_pay_per_use"] == pytest.approx(expected, abs=error)
    assert shares["external_api"] + shares["rent_pay_per_use"] == pytest.approx(1)
    figures = uncertainty["figures"]
    # Renting's NPV at the median price, √(0.5 × 8) = 2 USD, and at the 5th and 95th.
    rent = figures["options.rent_pay_per_use.npv"]
    assert float(rent["p50"]) == pytest.approx(per_usd * math.sqrt(LOW * HIGH), rel=0.02)
    assert float(rent["p5"]) == pytest.approx(per_usd * LOW, rel=0.03)
    assert float(rent["p95"]) == pytest.approx(per_usd * HIGH, rel=0.03)
    api_range = figures["options.external_api.npv"]
    assert float(api_range["p5"]) == float(api_range["p95"]) == pytest.approx(api)
    assert set(figures) == {
        f"options.{key}.{figure}"
        for key in ("external_api", "rent_pay_per_use")
        for figure in ("total", "npv", "cost_per_request")
    }
    # Renting's cost per request is 2 accelerator-seconds at the sampled price, to a millionth;
    # the API's is its token price, whatever the accelerators cost.
    per_request = figures["options.rent_pay_per_use.cost_per_request"]
    for key, price in (("p5", LOW), ("p50", math.sqrt(LOW * HIGH)), ("p95", HIGH)):
        assert float(per_request[key]) == pytest.approx(2 / 3600 * price, rel=0.03)
        assert len(per_request[key].partition(".")[2]) == 6
    api_per_request = figures["options.external_api.cost_per_request"]
    assert api_per_request["p5"] == api_per_request["p95"] == "0.002000"


def test_same_seed_same_shares_and_the_saved_endpoint_agrees(api_client):
    from tests.factories import make_manager, make_project, make_scenario

    ranges = RANGES
    settings = {"samples": 20_000, "seed": 3}
    first = post(api_client, ranges=ranges, uncertainty=settings)["uncertainty"]
    assert post(api_client, ranges=ranges, uncertainty=settings)["uncertainty"] == first
    owner = make_manager()
    project = make_project(owner)
    scenario = make_scenario(
        project, inputs={"inference": INFERENCE, "ranges": ranges, "uncertainty": settings}
    )
    api_client.force_authenticate(owner)
    saved = api_client.get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert saved.status_code == 200, saved.json()
    assert saved.json()["uncertainty"]["seed"] == 3
    assert "options.external_api.npv" in saved.json()["uncertainty"]["figures"]


def test_the_decision_page_says_how_often_each_option_is_cheapest(client):
    from tests.factories import make_manager, make_project, make_scenario

    owner = make_manager()
    settings = {"samples": 20_000, "seed": 3}
    scenario = make_scenario(
        make_project(owner),
        inputs={"inference": INFERENCE, "ranges": RANGES, "uncertainty": settings},
    )
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/options/").content.decode()
    assert "With the ranges you gave, over 20,000 samples of your figures:" in html
    assert "Renting accelerators per use is cheapest in" in html
    assert "% of cases." in html
