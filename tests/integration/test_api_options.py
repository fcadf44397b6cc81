"""The options API: stateless and saved agree, crossovers from the estimate API's own figures,
errors at their fields, and a saved scenario is its owner's only."""

import datetime
from decimal import Decimal

import pytest

from apps.estimates.units import HOURS_PER_MONTH
from tests.factories import TRANSLATION_INFERENCE, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

# A translation assistant on an 8B model: 1,000 tokens in, 500 out, 300,000 requests a month.
INFERENCE = {**TRANSLATION_INFERENCE, "monthly_growth": 0.02}
TRAINING = {
    "method": "accelerator_hours",
    "accelerator_hours": 200,
    "accelerator": "nvidia-h100-sxm",
}
BUDGET = {
    "fiscal_year_start_month": 10,
    "fiscal_year_label": "start_end",
    "period_start": "2027-01-01",
    "period_end": "2028-12-31",
    "discount_rate": "0.05",
}


def post(api_client, body, status=200):
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def by_key(data):
    return {option["key"]: option for option in data["options"]}


def test_stateless_and_saved_endpoints_agree(api_client):
    owner = make_manager()
    project = make_project(
        owner,
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
        fiscal_year_start_month=10,
        fiscal_year_label="start_end",
        discount_rate=Decimal("0.05"),
    )
    scenario = make_scenario(project, inputs={"training": TRAINING, "inference": INFERENCE})
    api_client.force_authenticate(owner)
    saved = api_client.get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert saved.status_code == 200, saved.json()
    stateless = post(api_client, {"training": TRAINING, "inference": INFERENCE, "budget": BUDGET})
    assert saved.json() == stateless
    assert stateless["fiscal_years"] == ["2026/27", "2027/28", "2028/29"]
    assert [o["key"] for o in stateless["options"]] == [
        "external_api",
        "rent_pay_per_use",
        "rent_always_on",
        "rent_committed",
        "own",
        "fine_tune",
    ]
    cheapest = min(stateless["options"], key=lambda option: Decimal(option["npv"]))
    assert stateless["cheapest"] == cheapest["key"]


def test_the_response_has_the_contract_fields(api_client):
    data = post(api_client, {"inference": INFERENCE, "budget": BUDGET})
    assert {"options", "cheapest", "crossovers"} <= set(data)
    for option in data["options"]:
        # An external API's option also says which of its prices it used (issue 20's tiers).
        assert ("api_price" in option) == (option["key"] == "external_api"), option["key"]
        assert set(option) - {"api_price"} == {
            "key",
            "label",
            "one_off",
            "capex",
            "opex",
            "total",
            "npv",
            "cost_per_request",
            "cost_per_million_output_tokens",
            "accelerators",
            "staff",
            "flags",
            "commitment",
            "footprint",
        }
        assert set(option["footprint"]) == {
            "energy_kwh",
            "emissions_kg_co2e",
            "embodied_kg_co2e",
            "water_litres",
        }
        assert option["commitment"] is None or option["key"] == "rent_committed"
        assert option["staff"] == {"fte": None, "cost": None, "basis": "not_included"}
        assert sum(Decimal(year["amount"]) for year in option["opex"]) + Decimal(
            option["capex"]
        ) == Decimal(option["total"])
    assert all(set(c) == {"options", "requests_per_month"} for c in data["crossovers"])
    api = by_key(data)["external_api"]
    assert api["accelerators"] is None and "data_leaves_organisation" in api["flags"]


def test_crossover_is_the_always_on_monthly_bill_over_the_api_cost_per_request(api_client):
    body = {
        "inference": INFERENCE,
        "budget": BUDGET,
        "options": [
            {
                "key": "external_api",
                "price_per_million_input_tokens": 0.15,
                "price_per_million_output_tokens": 0.6,
            },
            {"key": "rent_always_on"},
        ],
    }
    data = post(api_client, body)
    always_on = {**INFERENCE, "provisioning": "always_on"}
    estimate = api_client.post("/api/v1/estimate/", {"inference": always_on}, format="json").json()
    monthly_bill = estimate["inference"]["peak_accelerators"] * HOURS_PER_MONTH
    monthly_bill *= float(
        next(a for a in estimate["inference"]["assumptions"] if "per accelerator-hour" in a)
        .split("Price ")[1]
        .split(" USD")[0]
    )
    api_request = (1000 * 0.15 + 500 * 0.6) / 1e6
    [crossover] = data["crossovers"]
    assert crossover["options"] == ["rent_always_on", "external_api"]
    assert crossover["requests_per_month"] == pytest.approx(monthly_bill / api_request)
    assert data["cheapest"] == "external_api"
    assert data["condition"]["kind"] == "above"
    assert data["condition"]["text"].startswith(
        "Renting always-on accelerators beats the external API"
    )


def test_the_api_model_is_chosen_and_a_batch_discount_halves_its_cost(api_client):
    def api_cost(**choice):
        body = {
            "inference": INFERENCE,
            "budget": BUDGET,
            "options": [{"key": "external_api", **choice}],
        }
        return Decimal(post(api_client, body)["options"][0]["total"])

    mini, full = api_cost(), api_cost(api_model="openai-gpt-4o")
    assert full > mini > 0
    assert api_cost(api_model="openai-gpt-4o", batch_discount=0.5) == pytest.approx(
        full / 2, abs=Decimal("0.02")
    )


def test_an_option_that_does_not_resolve_is_an_error_at_its_index(api_client):
    body = {
        "inference": {**INFERENCE, "accelerator": "nvidia-l4"},
        "options": [{"key": "external_api"}, {"key": "own"}],
    }
    errors = post(api_client, body, status=400)
    assert list(errors) == ["options"]
    assert errors["options"]["1"]["inference"]["purchase_price"] == [
        "Give a purchase price: the catalogue has no purchase price for NVIDIA L4."
    ]


def test_a_default_option_that_does_not_resolve_is_listed_as_unavailable(api_client):
    data = post(api_client, {"inference": {**INFERENCE, "accelerator": "nvidia-l4"}})
    assert "own" not in by_key(data)
    assert list(data["unavailable"]) == ["own"]
    assert list(data["unavailable"]["own"]) == ["inference.purchase_price"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"training": TRAINING}, "inference"),
        ({"inference": INFERENCE, "options": [{"key": "own"}, {"key": "own"}]}, "options"),
        ({"inference": INFERENCE, "options": [{"key": "lease"}]}, "options"),
        ({"inference": INFERENCE, "options": []}, "options"),
        (
            {
                "inference": INFERENCE,
                "budget": {"period_start": "2028-01-01", "period_end": "2027-01-01"},
            },
            "budget",
        ),
        # An end without a start, before this month, the start then: a 400, not a 500.
        ({"inference": INFERENCE, "budget": {"period_end": "2000-01-01"}}, "budget"),
        ({"inference": INFERENCE, "options": [{"key": "build"}]}, "options"),
    ],
)
def test_bad_requests_are_400_at_their_field(api_client, body, field):
    assert field in post(api_client, body, status=400)


def test_the_saved_endpoint_is_the_owners_only_and_checks_its_query(api_client):
    owner, stranger = make_manager("owner"), make_manager("stranger")
    scenario = make_scenario(make_project(owner), inputs={"inference": INFERENCE})
    url = f"/api/v1/scenarios/{scenario.pk}/options/"
    assert api_client.get(url).status_code == 401
    api_client.force_authenticate(stranger)
    assert api_client.get(url).status_code == 404
    api_client.force_authenticate(owner)
    assert api_client.get(url, {"options": "own,lease"}).status_code == 400
    chosen = api_client.get(url, {"options": "external_api,own", "api_model": "openai-gpt-4o"})
    assert [o["key"] for o in chosen.json()["options"]] == ["external_api", "own"]
    assert api_client.get("/api/v1/scenarios/999999/options/").status_code == 404


def test_without_tokens_the_external_api_is_unavailable_until_the_choice_gives_them(api_client):
    seed_000 = {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 15_000,
    }
    data = post(api_client, {"inference": seed_000})
    assert set(data["unavailable"]["external_api"]) == {
        "inference.input_tokens",
        "inference.output_tokens",
    }
    chosen = {"key": "external_api", "input_tokens": 800, "output_tokens": 400}
    data = post(api_client, {"inference": seed_000, "options": [chosen, {"key": "own"}]})
    assert [option["key"] for option in data["options"]] == ["external_api", "own"]
