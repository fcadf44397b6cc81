"""The estimate response built by hand equals what EstimateResponseSerializer, the schema, writes."""

import json
import re
from decimal import Decimal

import pytest
from rest_framework.renderers import JSONRenderer

from apps.api.representation import estimate_representation, money
from apps.api.serializers import EstimateRequestSerializer, EstimateResponseSerializer
from apps.catalogue.resolve import estimate_from_request
from tests.factories import SEED_000_TRAINING, seed_000_inference

pytestmark = pytest.mark.django_db

# Valid requests that reach every branch of the response: both sections, one of them, unknown
# power (energy null), owned hardware, always-on capacity, revenue, and money too large for the
# 20 digits the schema used to allow.
REQUESTS = {
    "seed 000": {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)},
    "training only": {"training": {**SEED_000_TRAINING, "price_per_accelerator_hour": 2.675}},
    "external API, fine-tuned through an API": {
        "training": {
            "method": "api_fine_tune",
            "tokens": 2e6,
            "epochs": 2,
            "price_per_million_training_tokens": 25,
        },
        "inference": {
            "method": "external_api",
            "api_model": "openai-gpt-4o",
            "input_tokens": 1000,
            "cached_input_tokens": 400,
            "output_tokens": 500,
            "batch_discount": 0.5,
            "requests_per_month": 1e5,
            "monthly_growth": 0.05,
            "revenue_per_request": 0.01,
        },
    },
    "inference only, tokens, growing": {
        "inference": {
            "method": "tokens",
            "parameters": 7e9,
            "input_tokens": 500,
            "output_tokens": 300,
            "accelerator": "nvidia-h100-sxm",
            "requests_per_month": 1e6,
            "monthly_growth": 0.05,
            "revenue_per_request": 0.002,
            "months": 24,
        },
        "energy_profile": "us-grid-hyperscale-pue",
    },
    "no power figure, so no energy": {
        "training": {
            "method": "parameters_tokens",
            "parameters": 7e9,
            "tokens": 2e12,
            "accelerator": "google-tpu-v5e",
        },
        "inference": {**seed_000_inference(15_000), "accelerator": "google-tpu-v5e"},
    },
    "accelerator-hours without an accelerator": {
        "training": {
            "method": "accelerator_hours",
            "accelerator_hours": 100,
            "price_per_accelerator_hour": 3,
        },
        "inference": {
            "method": "accelerator_seconds",
            "accelerator_seconds_per_request": 0.5,
            "price_per_accelerator_hour": 3,
            "requests_per_month": 0,
        },
    },
    "owned, always on, shrinking demand": {
        "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
        "inference": {
            **seed_000_inference(2e6, monthly_growth=-0.05, months=36),
            "pricing_mode": "own",
            "provisioning": "always_on",
            "revenue_per_request": 0,
        },
        "pue": 1.2,
        "kg_co2e_per_kwh": 0.3,
        "electricity_price_per_kwh": 0.1,
    },
    "serving a language model, with targets": {
        "inference": {
            "method": "tokens",
            "parameters": 70.6e9,
            "layers": 80,
            "kv_heads": 8,
            "head_dim": 128,
            "input_tokens": 2000,
            "output_tokens": 400,
            "accelerator": "nvidia-h100-sxm",
            "requests_per_month": 5e6,
            "ttft_target_seconds": 1.0,
            "tpot_target_seconds": 0.04,
            "provisioning": "always_on",
        }
    },
    "serving a model that fits nowhere": {
        "inference": {
            "method": "tokens",
            "parameters": 1e15,
            "kv_cache_bytes_per_token": 1e6,
            "input_tokens": 100,
            "output_tokens": 100,
            "accelerator": "nvidia-h100-sxm",
            "requests_per_month": 1000,
        }
    },
    "huge but valid": {
        "inference": {
            "method": "accelerator_seconds",
            "accelerator_seconds_per_request": 1e6,
            "price_per_accelerator_hour": 1e7,
            "requests_per_month": 1e13,
            "monthly_growth": 10,
            "months": 240,
            "peak_to_average": 1000,
            "target_utilization": 0.001,
            "provisioning": "always_on",
            "revenue_per_request": 1e7,
        }
    },
}


def by_serializer(result, notes: dict[str, list[str]]) -> dict:
    """The response as the API built it before: the schema's serializer, then the notes."""
    data = EstimateResponseSerializer(
        {
            "currency": "USD",
            "training": result.training,
            "inference": result.inference,
            "comparison": result.comparison,
            "engine_version": result.engine_version,
        }
    ).data
    for section, section_notes in notes.items():
        data[section]["assumptions"] = [*section_notes, *data[section]["assumptions"]]
    return data


@pytest.mark.parametrize("body", REQUESTS.values(), ids=REQUESTS.keys())
def test_hand_built_response_is_byte_for_byte_the_serializers(body):
    request = EstimateRequestSerializer(data=body)
    assert request.is_valid(), request.errors
    result, resolution = estimate_from_request(request.validated_data)
    by_hand = estimate_representation(result, resolution.notes)
    assert by_hand == by_serializer(result, resolution.notes)
    # Rendered, so key order and number types (12 against 12.0) count too.
    assert JSONRenderer().render(by_hand) == JSONRenderer().render(
        by_serializer(result, resolution.notes)
    )


def test_costs_beyond_20_digits_are_answered_as_decimal_strings(api_client):
    response = api_client.post(
        "/api/v1/estimate/", json.dumps(REQUESTS["huge but valid"]), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert re.fullmatch(r"\d{200,}\.\d\d", response.json()["inference"]["total"]["always_on_cost"])


def test_money_fields_are_documented_as_decimal_strings_of_any_size_and_precision(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = schema["components"]["schemas"]
    for cost in (
        schemas["InferenceTotal"]["properties"]["always_on_cost"],
        schemas["PerRequest"]["properties"]["cost"],  # below a cent: "0.001664"
    ):
        assert cost["type"] == "string"
        assert cost["format"] == "decimal"
        # neither digits nor decimals are capped: a cost below a cent and one of 300 digits fit
        for value in ("0.001664", "9" * 300 + ".25"):
            assert re.fullmatch(cost.get("pattern", ".*"), value)


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (Decimal("1234.50"), "1234.50"),
        (Decimal("0.001664"), "0.001664"),
        (Decimal("-0.00"), "-0.00"),
        (Decimal("1E+2"), "100"),  # str() would write the exponent
        (Decimal("1.234E-9"), "0.000000001234"),
        (Decimal("0.0000001"), "0.0000001"),
    ],
)
def test_money_is_written_with_every_digit_and_no_exponent(amount, expected):
    assert money(amount) == expected == f"{amount:f}"
