"""Capacity rented on commitment through the API: the catalogue's sourced discounts, the estimate
with a discount given, a provider's or the providers' median, the refusals at their fields, and
the decision view's option committed for a term (issue 23)."""

from decimal import Decimal

import pytest

from apps.estimates.units import HOURS_PER_MONTH
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

# 300,000 requests a month × 2 accelerator-seconds at 3.00 an accelerator-hour: one accelerator
# at the peak, 166.67 busy hours a month.
COMMITTED = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "price_per_accelerator_hour": 3.0,
    "requests_per_month": 300_000,
    "months": 12,
    "provisioning": "committed",
    "commitment_years": 1,
}


def estimate(api_client, status=200, **inference):
    response = api_client.post(
        "/api/v1/estimate/", {"inference": {**COMMITTED, **inference}}, format="json"
    )
    assert response.status_code == status, response.json()
    return response.json()


def test_every_commitment_discount_has_its_source_and_says_why_where_none_is_given(api_client):
    rows = api_client.get("/api/v1/commitment-discounts/").json()
    assert {(row["provider"], row["term_years"], row["payment"]) for row in rows} == {
        (provider, years, payment)
        for provider in ("aws", "google-cloud", "azure")
        for years in (1, 3)
        for payment in ("no_upfront", "partial_upfront", "all_upfront")
    }
    for row in rows:
        (source,) = row["sources"]
        assert source["source"] and source["as_of"] and source["evidence"] in "PSDU"
        if row["discount"] is None:
            assert source["notes"].startswith(("Not published", "Not offered")), row
    aws = {(r["term_years"], r["payment"]): r["discount"] for r in rows if r["provider"] == "aws"}
    assert aws[(1, "partial_upfront")] == "0.4700"


def test_a_discount_given_prices_the_committed_capacity(api_client):
    inference = estimate(api_client, commitment_discount=0.4, upfront_share=0.5)["inference"]
    commitment = inference["commitment"]
    # 730.5 h × 12 × 3.00 × (1 − 0.4) = 15,778.80, half of it upfront.
    assert inference["total"]["cost"] == "15778.80"
    assert commitment["commitment_cost"] == "15778.80"
    assert commitment["upfront_per_term"] == "7889.40"
    assert commitment["monthly_payment"] == "657.45"
    assert commitment["idle_cost"] == "12178.80"  # (8,766 − 2,000) h × 1.80
    assert commitment["committed_accelerators"] == 1
    assert commitment["discount"] == 0.4


def test_a_provider_s_published_discount_is_used_for_its_term_and_payment(api_client):
    # AWS, one year, partial upfront: 47 % off (catalogue, evidence U).
    commitment = estimate(api_client, commitment_provider="aws", upfront_share=0.5)["inference"][
        "commitment"
    ]
    assert commitment["discount"] == 0.47
    assert commitment["commitment_cost"] == f"{HOURS_PER_MONTH * 12 * 3.0 * 0.53:.2f}"


def test_without_a_provider_the_median_of_the_providers_discounts_is_used(api_client):
    # One year, no upfront: AWS, Google Cloud and Azure are each at 35 % in the catalogue.
    commitment = estimate(api_client)["inference"]["commitment"]
    assert commitment["discount"] == 0.35


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            {"commitment_provider": "google-cloud", "commitment_years": 3},
            "The catalogue has no published discount for Google Cloud, 3-year, no upfront: "
            "give the discount of your offer.",
        ),
        (
            {"commitment_years": 3, "upfront_share": 1},
            "No provider in the catalogue publishes a discount for a 3-year commitment, all "
            "upfront: give the discount of your offer.",
        ),
        (
            {"commitment_years": 2, "commitment_discount": 0.3},
            "The commitment term is 1 or 3 years.",
        ),
        (
            {"pricing_mode": "own", "purchase_price": 30000, "commitment_discount": 0.3},
            "Capacity is bought on commitment from a cloud provider: rent the accelerators, or "
            "choose another way to pay for capacity.",
        ),
    ],
)
def test_a_commitment_that_cannot_be_priced_is_refused_at_its_field(api_client, given, message):
    errors = estimate(api_client, status=400, **given)["inference"]
    assert message in [text for messages in errors.values() for text in messages]


def test_the_decision_view_compares_the_option_committed_for_a_term(api_client):
    owner = make_manager()
    project = make_project(owner)
    inputs = {"inference": {**COMMITTED, "provisioning": "pay_per_use", "months": 24}}
    scenario = make_scenario(project, inputs=inputs)
    api_client.force_authenticate(owner)
    query = (
        "options=rent_pay_per_use,rent_always_on,rent_committed"
        "&commitment_years=1&upfront_share=1&commitment_discount=0.4"
    )
    response = api_client.get(f"/api/v1/scenarios/{scenario.pk}/options/?{query}")
    assert response.status_code == 200, response.json()
    data = response.json()
    options = {option["key"]: option for option in data["options"]}
    committed = options["rent_committed"]
    assert committed["commitment"]["upfront_per_term"] == f"{730.5 * 12 * 1.8:.2f}"
    assert committed["commitment"]["terms"] == 2
    assert options["rent_pay_per_use"]["commitment"] is None
    # 166.67 busy hours of 730.5 a month: a 40 % discount needs a busy share above 0.6.
    assert data["commitment_crossover"] == {
        "discount": 0.4,
        "term_months": 12,
        "busy_share_over_pay_per_use": pytest.approx(0.6),
        "service_months_over_always_on": pytest.approx(7.2),
    }
    assert Decimal(committed["total"]) < Decimal(options["rent_always_on"]["total"])
    assert Decimal(committed["total"]) > Decimal(options["rent_pay_per_use"]["total"])
    crossovers = {tuple(c["options"]): c["requests_per_month"] for c in data["crossovers"]}
    # The committed month (730.5 × 1.80) over a request's 2 s × 3.00 / 3,600.
    assert crossovers[("rent_committed", "rent_pay_per_use")] == pytest.approx(
        730.5 * 1.8 / (2 * 3.0 / 3600)
    )


def test_the_stateless_options_take_the_commitment_in_the_choice(api_client):
    body = {
        "inference": {**COMMITTED, "provisioning": "pay_per_use"},
        "options": [
            {"key": "rent_pay_per_use"},
            {
                "key": "rent_committed",
                "commitment_years": 3,
                "upfront_share": 0.5,
                "commitment_discount": 0.6,
            },
        ],
        "budget": {"period_start": "2027-01-01"},
    }
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    # The period runs to the end of the 36-month commitment, not the 12-month service.
    assert data["period_end"] == "2029-12-31"
    committed = next(o for o in data["options"] if o["key"] == "rent_committed")
    # 730.5 × 36 × 3.00 × 0.4 = 31,557.60, all of it in the budget's total.
    assert committed["total"] == "31557.60"
    assert committed["commitment"]["months_after_horizon"] == 24


def test_a_range_on_the_price_moves_the_committed_option_s_total_in_proportion(api_client):
    # The commitment's cost is 730.5 × 12 × price × 0.6, linear in the price: its percentiles
    # are the central total times the price's percentiles over the central price (3.00).
    body = {
        "inference": {**COMMITTED, "provisioning": "pay_per_use"},
        "options": [{"key": "rent_committed", "commitment_discount": 0.4}],
        "budget": {
            "period_start": "2027-01-01",
            "period_end": "2027-12-31",
            "service_start": "2027-01-01",
        },
        "ranges": {"inference.price_per_accelerator_hour": {"low": 1.5, "high": 6.0}},
        "uncertainty": {"samples": 20_000, "seed": 7},
    }
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    total = data["uncertainty"]["figures"]["options.rent_committed.total"]
    central = float(data["options"][0]["total"])
    assert central == pytest.approx(730.5 * 12 * 3.0 * 0.6, abs=0.01)
    # A lognormal with its 5th and 95th percentiles at 1.5 and 6.0 (median 3.0).
    assert float(total["p5"]) == pytest.approx(central * 1.5 / 3.0, rel=0.03)
    assert float(total["p50"]) == pytest.approx(central, rel=0.03)
    assert float(total["p95"]) == pytest.approx(central * 6.0 / 3.0, rel=0.03)
