"""POST /api/v1/estimate/: the contract, the worked example, and bad input answered with a 400."""

import json

import pytest

from tests.factories import SEED_000_TRAINING, seed_000_inference

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"


def post(client, body, **kwargs):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(URL, data=data, content_type="application/json", **kwargs)


def test_seed_000_pilot_uses_8_3_accelerator_hours_a_month_and_breaks_even_after_24_months(
    api_client,
):
    response = post(
        api_client, {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["training"]["accelerator_hours"] == pytest.approx(200)
    assert body["inference"]["monthly"][0]["accelerator_hours"] == pytest.approx(8.3333, rel=1e-4)
    assert body["inference"]["per_request"]["accelerator_seconds"] == 2
    assert body["comparison"]["break_even_months"] == pytest.approx(24)
    # At pilot scale, training dominates: 200 h against 12 × 8.33 = 100 h of inference.
    assert body["comparison"]["training_share"] == pytest.approx(200 / 300)


def test_seed_000_wider_use_needs_166_7_accelerator_hours_a_month(api_client):
    body = post(
        api_client, {"training": SEED_000_TRAINING, "inference": seed_000_inference(300_000)}
    ).json()
    assert body["inference"]["monthly"][0]["accelerator_hours"] == pytest.approx(166.667, rel=1e-5)
    assert body["comparison"]["break_even_months"] == pytest.approx(1.2)
    assert body["comparison"]["training_share"] < 0.1  # inference dominates at wider use


def test_response_carries_every_field_of_the_contract(api_client):
    body = post(
        api_client,
        {
            "training": {
                "method": "parameters_tokens",
                "parameters": 7e9,
                "tokens": 2e12,
                "accelerator": "nvidia-h100-sxm",
                "accelerator_count": 64,
            },
            "inference": {
                "method": "tokens",
                "parameters": 7e9,
                "input_tokens": 500,
                "output_tokens": 300,
                "accelerator": "nvidia-h100-sxm",
                "requests_per_month": 1e6,
                "monthly_growth": 0.05,
            },
            "energy_profile": "us-grid-hyperscale-pue",
        },
    ).json()
    assert set(body["training"]) >= {
        "flop",
        "petaflop_s_days",
        "accelerator_hours",
        "wall_clock_hours",
        "cost",
        "energy_kwh",
        "emissions_kg_co2e",
        "thresholds",
    }
    assert set(body["inference"]) >= {"per_request", "monthly", "total", "peak_accelerators"}
    assert set(body["inference"]["per_request"]) >= {
        "flop",
        "accelerator_seconds",
        "latency_seconds",
        "cost",
    }
    assert set(body["inference"]["monthly"][0]) >= {
        "month",
        "requests",
        "accelerator_hours",
        "cost",
    }
    assert set(body["inference"]["total"]) >= {
        "requests",
        "accelerator_hours",
        "cost",
        "energy_kwh",
    }
    assert set(body["comparison"]) >= {"break_even_months", "training_share"}
    assert {t["name"] for t in body["training"]["thresholds"]} >= {
        "EU AI Act Art. 51(2) systemic-risk presumption"
    } or body["training"]["thresholds"]
    # 6 · 7e9 · 2e12 = 8.4e22 FLOP; at 989.4 TFLOP/s · MFU 0.25 (the default) that is 94,333
    # accelerator-hours.
    assert body["training"]["flop"] == pytest.approx(8.4e22)
    assert body["training"]["accelerator_hours"] == pytest.approx(8.4e22 / (989.4e12 * 0.25) / 3600)
    assert body["training"]["wall_clock_hours"] == pytest.approx(
        body["training"]["accelerator_hours"] / 64
    )
    assert all(not t["exceeded"] for t in body["training"]["thresholds"])
    assert len(body["inference"]["monthly"]) == 12
    assert body["currency"] == "USD"


def test_defaults_in_brackets_apply_when_fields_are_left_out(api_client):
    body = post(
        api_client,
        {
            "training": {
                "method": "total_flop",
                "total_flop": 1e21,
                "accelerator": "nvidia-a100-sxm-80gb",
            }
        },
    ).json()
    # bf16 312 TFLOP/s, MFU 0.25, goodput 1, one accelerator.
    hours = 1e21 / (312e12 * 0.25) / 3600
    assert body["training"]["accelerator_hours"] == pytest.approx(hours)
    assert body["training"]["wall_clock_hours"] == pytest.approx(hours)
    assert body["inference"] is None and body["comparison"] is None


def test_price_override_replaces_the_catalogue_price(api_client):
    training = {**SEED_000_TRAINING, "price_per_accelerator_hour": 2.5}
    body = post(api_client, {"training": training}).json()
    assert body["training"]["cost"] == "500.00"


def test_the_assumptions_say_where_the_default_mfu_comes_from(api_client):
    notes = post(api_client, {"training": SEED_000_TRAINING}).json()["training"]["assumptions"]
    (note,) = [note for note in notes if note.startswith("MFU 0.25 is the default")]
    assert "geometric mean" in note and "DeepSeek-V3 0.33" in note
    assert "Llama 3.1 model card, July 2024" in note and "arXiv 2412.19437" in note
    given = {**SEED_000_TRAINING, "mfu": 0.4}
    notes = post(api_client, {"training": given}).json()["training"]["assumptions"]
    assert not any("is the default" in note for note in notes)


def test_catalogue_price_is_explained_in_the_assumptions(api_client):
    body = post(api_client, {"training": SEED_000_TRAINING}).json()
    assert any("median" in note for note in body["training"]["assumptions"])
    assert float(body["training"]["cost"]) > 0


def test_training_above_1e25_flop_is_flagged_against_the_eu_threshold(api_client):
    body = post(
        api_client,
        {
            "training": {
                "method": "total_flop",
                "total_flop": 3.8e25,
                "accelerator": "nvidia-h100-sxm",
            }
        },
    ).json()
    eu = next(t for t in body["training"]["thresholds"] if t["flop"] == 1e25)
    assert eu["exceeded"] is True
    assert any(not t["exceeded"] for t in body["training"]["thresholds"] if t["flop"] == 1e26)


BAD_BODIES = {
    "malformed JSON": '{"training": ',
    "NaN literal": '{"training": {"method": "total_flop", "total_flop": NaN}}',
    "Infinity literal": '{"training": {"method": "total_flop", "total_flop": Infinity}}',
    "1e400": '{"training": {"method": "total_flop", "total_flop": 1e400}}',
    "huge integer": '{"training": {"method": "total_flop", "total_flop": 1' + "0" * 500 + "}}",
    "deep nesting": "[" * 50_000 + "]" * 50_000,
    "not an object": "[1, 2, 3]",
    "empty object": "{}",
    "empty body": "",
}


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_malformed_or_non_finite_bodies_get_a_400(api_client, body):
    response = post(api_client, body)
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/json")


def test_an_absurdly_large_body_gets_a_400_without_being_parsed(api_client):
    body = json.dumps(
        {"training": {"method": "total_flop", "total_flop": 1e21, "x": "a" * 200_000}}
    )
    response = post(api_client, body)
    assert response.status_code == 400
    assert "larger than" in response.json()["detail"]


BAD_FIELDS = [
    ({"training": {"method": "fine_tune"}}, ("training", "method")),
    (
        {"training": {**SEED_000_TRAINING, "accelerator": "nvidia-h9000"}},
        ("training", "accelerator"),
    ),
    ({"training": {**SEED_000_TRAINING, "mfu": 1.5}}, ("training", "mfu")),
    ({"training": {**SEED_000_TRAINING, "mfu": 0}}, ("training", "mfu")),
    ({"training": {**SEED_000_TRAINING, "goodput": -0.1}}, ("training", "goodput")),
    (
        {"training": {**SEED_000_TRAINING, "accelerator_hours": -5}},
        ("training", "accelerator_hours"),
    ),
    (
        {"training": {**SEED_000_TRAINING, "accelerator_hours": "200"}},
        ("training", "accelerator_hours"),
    ),
    (
        {"training": {**SEED_000_TRAINING, "accelerator_hours": True}},
        ("training", "accelerator_hours"),
    ),
    ({"training": {**SEED_000_TRAINING, "precision": "fp4"}}, ("training", "precision")),
    ({"training": {**SEED_000_TRAINING, "mfu ": 0.4}}, ("training", "mfu ")),
    (
        {"training": {"method": "parameters_tokens", "accelerator": "nvidia-h100-sxm"}},
        ("training", "parameters"),
    ),
    (
        {
            "training": {
                **SEED_000_TRAINING,
                "accelerator": "nvidia-v100-sxm2",
                "method": "total_flop",
                "total_flop": 1e20,
            }
        },
        ("training", "precision"),
    ),
    ({"inference": seed_000_inference(15_000, months=0)}, ("inference", "months")),
    ({"inference": seed_000_inference(15_000, months=241)}, ("inference", "months")),
    ({"inference": seed_000_inference(15_000, months=10**30)}, ("inference", "months")),
    ({"inference": seed_000_inference(15_000, months=2.5)}, ("inference", "months")),
    ({"inference": seed_000_inference(15_000, monthly_growth=-1)}, ("inference", "monthly_growth")),
    ({"inference": seed_000_inference(-1)}, ("inference", "requests_per_month")),
    ({"inference": {**seed_000_inference(15_000), "method": "telepathy"}}, ("inference", "method")),
    ({"inference": seed_000_inference(15_000), "energy_profile": "the-moon"}, ("energy_profile",)),
    ({"inference": seed_000_inference(15_000), "pue": 0.9}, ("pue",)),
    ({"training": "lots"}, ("training", "non_field_errors")),
    (
        # Serving needs a price (training without one goes unpriced).
        {
            "inference": {
                **seed_000_inference(15_000),
                "pricing_mode": "own",
                "accelerator": "google-tpu-v5e",
            }
        },
        ("inference", "purchase_price"),
    ),
    (
        {"inference": {**seed_000_inference(15_000), "accelerator": None}},
        ("inference", "accelerator"),
    ),
]


@pytest.mark.parametrize(("body", "path"), BAD_FIELDS, ids=[str(p) for _, p in BAD_FIELDS])
def test_bad_values_get_a_400_with_a_message_at_the_field(api_client, body, path):
    response = post(api_client, body)
    assert response.status_code == 400, response.content
    node = response.json()
    for key in path:
        assert key in node, (path, response.json())
        node = node[key]
    assert isinstance(node, list) and node and all(isinstance(m, str) and m for m in node)


def test_wrong_methods_get_a_405(api_client):
    assert api_client.get(URL).status_code == 405
    assert api_client.put(URL, data="{}", content_type="application/json").status_code == 405
    assert api_client.delete(URL).status_code == 405


def test_a_non_json_content_type_gets_a_415(api_client):
    response = api_client.post(
        URL, data="training=1", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415


def test_anonymous_callers_are_throttled(api_client, settings):
    # The API's throttle reads its rates on every request (apps.api.throttling): nothing to reset.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "user": "100/minute"},
    }
    body = {"training": SEED_000_TRAINING}
    statuses = [post(api_client, body).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert "Retry-After" in post(api_client, body)
