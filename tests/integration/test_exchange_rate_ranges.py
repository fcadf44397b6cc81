"""A range on a project's exchange rate: the ranges' percentiles show what a currency swing does
to the budget (the rate sampled as one driver of every converted price), the lines people add in
the project's currency do not move, and the API, the form and the model take and refuse it."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apps.budget.models import CostLine
from apps.projects.models import RATE_MIN
from tests.factories import load_ecb, make_euro_scenario, make_project
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db

RATE = Decimal("0.8757334267")  # 1 USD in EUR, the ECB's of 2 June 2025 (1 / 1.1419)
LOW, HIGH = Decimal("0.80"), Decimal("0.95")


@pytest.fixture
def ecb():
    load_ecb()


def _budget(owner, scenario) -> dict:
    return client_for(owner).get(f"/api/v1/scenarios/{scenario.pk}/budget/").json()


def test_a_range_on_the_rate_alone_widens_the_budgets_percentiles_by_the_rates_ends(ecb, owner):
    scenario = make_euro_scenario(owner, rate_low=LOW, rate_high=HIGH)
    body = _budget(owner, scenario)
    total = Decimal(body["summary"]["total"])
    assert total > 0
    # Every amount is a converted price: with the rate alone uncertain, the 5th and 95th
    # percentiles are the total at the rate's ends (100 000 samples: well within 1 %).
    figure = body["uncertainty"]["figures"]["summary.total"]
    assert float(figure["p5"]) == pytest.approx(float(total * LOW / RATE), rel=0.01)
    assert float(figure["p95"]) == pytest.approx(float(total * HIGH / RATE), rel=0.01)
    npv = body["uncertainty"]["figures"]["summary.npv"]
    assert float(npv["p95"]) == pytest.approx(
        float(Decimal(body["summary"]["npv"]) * HIGH / RATE), rel=0.01
    )
    [used] = body["exchange_rates"]
    assert (used["low"], used["high"]) == ("0.8", "0.95")


def test_a_line_in_the_projects_currency_does_not_move_with_the_rate(ecb, owner):
    scenario = make_euro_scenario(owner, rate_low=LOW, rate_high=HIGH)
    computed = Decimal(_budget(owner, scenario)["summary"]["total"])
    CostLine.objects.create(
        scenario=scenario,
        name="Staff",
        kind="staff",
        quantity=1,
        unit="FTE",
        unit_price=Decimal(10_000),
        recurrence="one_off",
        start=date(2026, 3, 1),
        category=1,
    )
    body = _budget(owner, scenario)
    figure = body["uncertainty"]["figures"]["summary.total"]
    assert float(figure["p5"]) == pytest.approx(float(computed * LOW / RATE + 10_000), rel=0.01)
    assert float(figure["p95"]) == pytest.approx(float(computed * HIGH / RATE + 10_000), rel=0.01)


def test_without_a_range_the_budget_answers_no_uncertainty(ecb, owner):
    body = _budget(owner, make_euro_scenario(owner))
    assert "uncertainty" not in body
    assert "low" not in body["exchange_rates"][0]


def test_the_estimates_percentiles_follow_the_rates_range(ecb, owner):
    scenario = make_euro_scenario(owner, rate_low=LOW, rate_high=HIGH)
    body = client_for(owner).get(f"/api/v1/scenarios/{scenario.pk}/estimate/").json()
    cost = float(body["inference"]["total"]["cost"])
    figure = body["uncertainty"]["figures"]["inference.total.cost"]
    assert float(figure["p5"]) == pytest.approx(cost * float(LOW / RATE), rel=0.01)
    assert float(figure["p95"]) == pytest.approx(cost * float(HIGH / RATE), rel=0.01)


def test_the_api_takes_a_rates_range_and_refuses_half_of_one_or_one_in_dollars(ecb, owner):
    api = client_for(owner)
    project = make_project(owner, "Traduction", currency="EUR", rate_date=date(2025, 6, 2))
    url = f"/api/v1/projects/{project.pk}/"
    answer = api.patch(url, {"rate_low": "0.80", "rate_high": "0.95"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert (answer.json()["rate_low"], answer.json()["rate_high"]) == (
        "0.8000000000",
        "0.9500000000",
    )
    half = api.patch(url, {"rate_low": None}, format="json")
    assert half.status_code == 400 and "rate_low" in half.json()
    upside_down = api.patch(url, {"rate_low": "0.99"}, format="json")
    assert upside_down.status_code == 400 and "rate_high" in upside_down.json()
    dollars = make_project(owner, "Dollars")
    refused = api.patch(
        f"/api/v1/projects/{dollars.pk}/", {"rate_low": "1", "rate_high": "1.1"}, format="json"
    )
    assert refused.status_code == 400 and "rate_low" in refused.json()


@pytest.mark.parametrize(
    ("language", "low_message", "high_message"),
    [
        ("en", "The low end must be more than 0.", "The high end must be more than 0."),
        (
            "fr",
            "La borne basse doit être supérieure à 0.",
            "La borne haute doit être supérieure à 0.",
        ),
    ],
)
def test_the_model_refuses_a_rate_of_0_in_the_readers_language_and_takes_the_smallest_rate(
    owner, language, low_message, high_message
):
    project = make_project(owner, "Traduction", currency="EUR", rate_low=0, rate_high=0)
    with translation.override(language):
        with pytest.raises(ValidationError) as refused:
            project.full_clean()
        assert refused.value.message_dict == {
            "rate_low": [low_message],
            "rate_high": [high_message],
        }
    project.rate_low = project.rate_high = RATE_MIN
    project.full_clean()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "An exchange rate must be more than 0."),
        ("fr", "Un taux de change doit être supérieur à 0."),
    ],
)
def test_the_api_refuses_a_rate_of_0_in_the_readers_language(owner, language, message):
    project = make_project(owner, "Traduction", currency="EUR", rate_date=date(2025, 6, 2))
    refused = client_for(owner).patch(
        f"/api/v1/projects/{project.pk}/",
        {"rate_low": "0", "rate_high": "0.95", "fiscal_year_rates": {"FY2027": "0.0"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "rate_low": [message],
        "fiscal_year_rates": {"FY2027": [message]},
    }
