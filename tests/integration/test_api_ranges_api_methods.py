"""Ranges on the API methods' numbers (an external model API, fine-tuning through a vendor's API)
through POST /api/v1/estimate/, against closed forms: a request's cost is linear in each price,
so its percentiles are exact lognormal ones, within the sampling error of the sample count."""

import json
import math
from statistics import NormalDist
from types import SimpleNamespace

import pytest

from tests.unit.estimates.test_uncertainty_closed_forms import (
    SAFETY,
    K,
    lognormal_percentiles,
    within_sampling_error,
)

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"
Z_95 = NormalDist().inv_cdf(0.95)
SAMPLES = 100_000
REQUESTS_PER_MONTH, MONTHS = 1e6, 12  # no growth: 1.2e7 requests over the horizon
EXTERNAL_API = {
    "method": "external_api",
    "input_tokens": 600,
    "cached_input_tokens": 400,
    "output_tokens": 500,
    "price_per_million_input_tokens": 2.0,
    "price_per_million_cached_input_tokens": 0.5,
    "price_per_million_output_tokens": 8.0,
    "requests_per_month": REQUESTS_PER_MONTH,
    "monthly_growth": 0.0,
    "months": MONTHS,
}
FINE_TUNE = {
    "method": "api_fine_tune",
    "tokens": 2e7,
    "epochs": 2,
    "price_per_million_training_tokens": 25.0,
}


def post(client, body):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def log_moments(low: float, high: float) -> tuple[float, float]:
    return (math.log(low) + math.log(high)) / 2, (math.log(high) - math.log(low)) / (2 * Z_95)


def figures(client, body: dict) -> dict:
    response = post(client, {**body, "uncertainty": {"samples": SAMPLES, "seed": 5}})
    assert response.status_code == 200, response.content
    return response.json()["uncertainty"]


def as_figure(data: dict) -> SimpleNamespace:
    return SimpleNamespace(**{name: float(value) for name, value in data.items()})


def test_the_inference_cost_is_affine_in_a_ranged_output_price(api_client):
    # cost = requests · ((600 − 400) · 2 + 400 · 0.5 + 500 · P) / 1e6 = 7,200 + 6,000 · P: each
    # percentile is 7,200 + 6,000 × the price's own, a lognormal one.
    low, high = 4.0, 16.0
    block = figures(
        api_client,
        {
            "inference": EXTERNAL_API,
            "ranges": {"inference.price_per_million_output_tokens": {"low": low, "high": high}},
        },
    )
    mu, sigma = log_moments(low, high)
    price = lognormal_percentiles(mu, sigma)
    requests = REQUESTS_PER_MONTH * MONTHS
    offset, slope = requests * (200 * 2 + 400 * 0.5) / 1e6, requests * 500 / 1e6
    cost = block["figures"]["inference.total.cost"]
    for name, k in K.items():
        expected = offset + slope * price[name]
        # The sampling error is the price's, scaled by the slope; money is rounded to the cent.
        allowed = slope * price[name] * SAFETY * k * sigma / math.sqrt(SAMPLES) + 0.005
        assert abs(float(cost[name]) - expected) <= allowed, (name, cost[name], expected)
    # And the cost of 1,000 requests likewise: 0.6 + 0.5 · P.
    per_1000 = block["figures"]["inference.per_request.cost_per_1000"]
    assert float(per_1000["p50"]) == pytest.approx(0.6 + 0.5 * price["p50"], abs=0.01)
    assert block["clipped"] == {}


def test_ranged_demand_and_output_price_multiply_into_a_lognormal_cost(api_client):
    # With free input tokens the cost is requests · 500 · P / 1e6: a product of lognormals.
    body = {
        "inference": {
            **EXTERNAL_API,
            "price_per_million_input_tokens": 0.0,
            "price_per_million_cached_input_tokens": 0.0,
        },
        "ranges": {
            "inference.price_per_million_output_tokens": {"low": 4.0, "high": 16.0},
            "inference.requests_per_month": {"low": 2e5, "high": 5e6},
        },
    }
    price_mu, price_sigma = log_moments(4.0, 16.0)
    demand_mu, demand_sigma = log_moments(2e5, 5e6)
    mu = price_mu + demand_mu + math.log(MONTHS * 500 / 1e6)
    sigma = math.hypot(price_sigma, demand_sigma)
    cost = as_figure(figures(api_client, body)["figures"]["inference.total.cost"])
    assert within_sampling_error(cost, lognormal_percentiles(mu, sigma), sigma, SAMPLES)


def test_fine_tuning_cost_of_ranged_epochs_and_price_is_lognormal(api_client):
    body = {
        "training": FINE_TUNE,
        "ranges": {
            "training.epochs": {"low": 1, "high": 4},
            "training.price_per_million_training_tokens": {"low": 10, "high": 40},
        },
    }
    epochs_mu, epochs_sigma = log_moments(1, 4)
    price_mu, price_sigma = log_moments(10, 40)
    mu = math.log(2e7 / 1e6) + epochs_mu + price_mu
    sigma = math.hypot(epochs_sigma, price_sigma)
    cost = as_figure(figures(api_client, body)["figures"]["training.cost"])
    assert within_sampling_error(cost, lognormal_percentiles(mu, sigma), sigma, SAMPLES)


def test_cached_tokens_above_the_input_tokens_are_set_to_them_and_counted(api_client):
    # Cached ~ lognormal(300 to 700), input ~ lognormal(500 to 900): in P(ln C > ln I) of the
    # samples the cached tokens exceed the input tokens, and are set to them.
    body = {
        "inference": {**EXTERNAL_API, "input_tokens": 700, "cached_input_tokens": 500},
        "ranges": {
            "inference.cached_input_tokens": {"low": 300, "high": 700},
            "inference.input_tokens": {"low": 500, "high": 900},
        },
    }
    block = figures(api_client, body)
    cached_mu, cached_sigma = log_moments(300, 700)
    input_mu, input_sigma = log_moments(500, 900)
    expected = 1 - NormalDist(cached_mu - input_mu, math.hypot(cached_sigma, input_sigma)).cdf(0)
    share = block["clipped"]["inference.cached_input_tokens"]
    assert share == pytest.approx(expected, abs=4 * math.sqrt(expected * (1 - expected) / SAMPLES))
    assert set(block["clipped"]) == {"inference.cached_input_tokens"}


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        # The API methods' numbers, with the errors of any range.
        ({"inference": EXTERNAL_API}, "inference.price_per_million_output_tokens",
         ({"low": 16, "high": 4}, "above the high end")),
        ({"inference": EXTERNAL_API}, "inference.batch_discount",
         ({"low": 0.2, "high": 1.5}, "Batch discount is the share taken off")),
        ({"training": FINE_TUNE}, "training.epochs",
         ({"low": 0, "high": 3}, "Epochs must be more than 0")),
        # Numbers another method reads: their range would move nothing here.
        ({"inference": EXTERNAL_API}, "inference.utilization",
         ({"low": 0.2, "high": 0.4}, "not part of")),
        ({"training": FINE_TUNE}, "training.mfu", ({"low": 0.3, "high": 0.5}, "not part of")),
        ({"training": {"method": "accelerator_hours", "accelerator_hours": 200,
                       "accelerator": "nvidia-h100-sxm"}},
         "training.epochs", ({"low": 1, "high": 3}, "not part of")),
    ],
)  # fmt: skip
def test_bad_ranges_on_api_method_numbers_are_400s_at_their_path(api_client, body, path, expected):
    interval, message = expected
    response = post(api_client, {**body, "ranges": {path: interval}})
    assert response.status_code == 400, response.content
    messages = response.json()["ranges"][path]
    assert any(message in text for text in messages), messages
