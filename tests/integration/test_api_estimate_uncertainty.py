"""POST /api/v1/estimate/ with `ranges`: the `uncertainty` block, its errors and its schema."""

import json
import math

import pytest
from rest_framework.renderers import JSONRenderer

from apps.api.ranges import UncertaintyResultSerializer
from apps.api.representation import uncertainty_representation
from apps.api.serializers import EstimateRequestSerializer
from apps.api.validation import FastValidator
from apps.catalogue.uncertainty import uncertainty_from_request
from tests.factories import SEED_000_TRAINING, seed_000_inference
from tests.integration.test_api_estimate_contract import REQUESTS

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"
Z_95 = 1.6448536269514722
BODY = {
    "training": {**SEED_000_TRAINING, "price_per_accelerator_hour": 3.0},
    "inference": seed_000_inference(15_000, price_per_accelerator_hour=3.0),
}
RANGES = {
    "training.accelerator_hours": {"low": 100, "high": 400},
    "training.price_per_accelerator_hour": {"low": 2, "high": 4},
    "inference.requests_per_month": {"low": 5_000, "high": 50_000},
    "inference.accelerator_seconds_per_request": {"low": 1, "high": 4},
    "pue": {"low": 1.1, "high": 1.6},
}


def post(client, body):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def test_without_ranges_the_response_is_byte_for_byte_unchanged(api_client):
    for body in REQUESTS.values():
        plain = post(api_client, body)
        with_settings_only = post(api_client, {**body, "uncertainty": {"samples": 5000}})
        assert plain.status_code == 200, plain.content
        assert "uncertainty" not in plain.json()
        assert with_settings_only.content == plain.content
    # An empty object of ranges is no ranges.
    assert post(api_client, {**BODY, "ranges": {}}).content == post(api_client, BODY).content


def test_ranges_add_percentiles_of_every_headline_figure(api_client):
    response = post(api_client, {**BODY, "ranges": RANGES, "uncertainty": {"samples": 20_000}})
    assert response.status_code == 200, response.content
    body = response.json()
    without = post(api_client, BODY).json()
    assert {key: value for key, value in body.items() if key != "uncertainty"} == without
    block = body["uncertainty"]
    assert (block["samples"], block["seed"]) == (20_000, 0)
    figures = block["figures"]
    for path in (
        "training.accelerator_hours",
        "training.cost",
        "inference.total.cost",
        "inference.peak_accelerators",
        "comparison.break_even_months",
    ):
        figure = figures[path]
        assert set(figure) >= {"p5", "p50", "p95", "mean"}
    # Training hours are the range itself: lognormal with 5th and 95th percentiles 100 and 400.
    hours = figures["training.accelerator_hours"]
    assert hours["p50"] == pytest.approx(200, rel=0.03)
    assert hours["p5"] == pytest.approx(100, rel=0.05)
    assert hours["p95"] == pytest.approx(400, rel=0.05)
    # Money as the rest of the response writes it, a decimal string.
    assert isinstance(figures["training.cost"]["p50"], str)
    assert float(figures["training.cost"]["p5"]) < float(figures["training.cost"]["p95"])
    break_even = figures["comparison.break_even_months"]
    assert 0 <= break_even["probability_never"] <= 1
    # One price for both sections (the same 3.00 USD): one driver, reported as such.
    assert block["shared"] == [
        ["training.price_per_accelerator_hour", "inference.price_per_accelerator_hour"]
    ]
    # PUE between 1.1 and 1.6 dips below 1 in Φ(−μ / σ) ≈ 0.66 % of samples: clipped to 1.
    mu, sigma = (math.log(1.1) + math.log(1.6)) / 2, (math.log(1.6) - math.log(1.1)) / (2 * Z_95)
    expected = 0.5 * math.erfc(mu / sigma / math.sqrt(2))
    assert block["clipped"] == {
        "pue": pytest.approx(expected, abs=4 * math.sqrt(expected / 20_000))
    }


def test_same_seed_same_figures_and_another_seed_other_draws(api_client):
    def figures(seed):
        body = {**BODY, "ranges": RANGES, "uncertainty": {"samples": 5_000, "seed": seed}}
        return post(api_client, body).json()["uncertainty"]["figures"]

    first, again, other = figures(11), figures(11), figures(12)
    assert first == again
    assert first != other
    # 5,000 samples: the median of a lognormal with σ = ln 4 / 3.29 moves ~1.25 σ / √M each.
    sigma = math.log(4) / (2 * Z_95)
    allowed = 4 * math.sqrt(2) * 1.2533 * sigma / math.sqrt(5_000)
    p50 = "training.accelerator_hours"
    assert first[p50]["p50"] / other[p50]["p50"] == pytest.approx(1, abs=allowed)


def test_clipped_samples_are_reported_by_request_path(api_client):
    body = {
        "training": {
            "method": "parameters_tokens",
            "parameters": 7e9,
            "tokens": 2e12,
            "accelerator": "nvidia-h100-sxm",
        },
        "ranges": {"training.mfu": {"low": 0.5, "high": 0.99}},
        "uncertainty": {"samples": 10_000},
    }
    response = post(api_client, body)
    assert response.status_code == 200, response.content
    assert 0.03 < response.json()["uncertainty"]["clipped"]["training.mfu"] < 0.06


@pytest.mark.parametrize(
    ("ranges", "path", "expected"),
    [
        ({"training.accelerator_hours": {"low": 400, "high": 100}}, "training.accelerator_hours",
         "above the high end"),
        ({"training.mfu": {"low": 0.3, "high": 1.2}}, "training.mfu", "MFU must be more than 0"),
        ({"training.tokenz": {"low": 1, "high": 2}}, "training.tokenz", "Unknown input"),
        ({"inference.months": {"low": 6, "high": 24}}, "inference.months", "cannot carry"),
        ({"pue": {"low": 1.1}}, "pue", "high: This field is required."),
        ({"pue": {"low": 1.1, "high": "2"}}, "pue", "high: Enter a number."),
        ({"pue": {"low": 1.1, "high": 1.2, "mid": 1.15}}, "pue", "mid: Unknown field."),
        ({"pue": [1.1, 1.2]}, "pue", "Expected a dictionary"),
        # Valid in itself, but the request's method does not use tokens.
        ({"training.tokens": {"low": 1e12, "high": 2e12}}, "training.tokens", "not part of"),
    ],
)  # fmt: skip
def test_bad_ranges_are_400s_at_their_dotted_path(api_client, ranges, path, expected):
    response = post(api_client, {**BODY, "ranges": ranges})
    assert response.status_code == 400, response.content
    messages = response.json()["ranges"][path]
    assert isinstance(messages, list)
    assert any(expected in message for message in messages), messages


@pytest.mark.parametrize(
    ("settings", "field"),
    [({"samples": 999}, "samples"), ({"samples": 1_000_001}, "samples"), ({"seed": -1}, "seed"),
     ({"seed": 1.5}, "seed"), ({"sample": 5000}, "sample")],
)  # fmt: skip
def test_bad_uncertainty_settings_are_400s_at_the_field(api_client, settings, field):
    response = post(api_client, {**BODY, "ranges": RANGES, "uncertainty": settings})
    assert response.status_code == 400
    assert field in response.json()["uncertainty"]


def test_the_fast_path_takes_valid_ranges_and_leaves_bad_ones_to_the_serializer():
    fast = FastValidator(EstimateRequestSerializer)
    body = {**BODY, "ranges": RANGES, "uncertainty": {"seed": 3}}
    serializer = EstimateRequestSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    assert json.dumps(fast.validated_data(body)) == json.dumps(serializer.validated_data)
    assert fast.validated_data({**BODY, "ranges": {"pue": {"low": 1.6, "high": 1.1}}}) is None


def test_hand_built_uncertainty_is_byte_for_byte_the_serializers():
    request = EstimateRequestSerializer(
        data={**BODY, "ranges": RANGES, "uncertainty": {"samples": 2_000}}
    )
    assert request.is_valid(), request.errors
    result = uncertainty_from_request(request.validated_data)
    by_hand = uncertainty_representation(result)
    assert JSONRenderer().render(by_hand) == JSONRenderer().render(
        UncertaintyResultSerializer(result).data
    )


def test_the_schema_documents_ranges_and_the_uncertainty_block(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    ranges = components["RangesRequest"]["properties"]
    assert {"training.tokens", "training.mfu", "inference.requests_per_month", "pue"} <= set(ranges)
    assert "inference.months" not in ranges
    figures = components["UncertaintyFigures"]["properties"]
    assert "probability_never" in components["BreakEvenRange"]["properties"]
    assert set(figures) >= {
        "training.accelerator_hours",
        "training.cost",
        "inference.total.cost",
        "inference.peak_accelerators",
        "comparison.break_even_months",
    }
    response = components["EstimateResponse"]
    assert "uncertainty" in response["properties"]
    assert "uncertainty" not in response.get("required", [])
