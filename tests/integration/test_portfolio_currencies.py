"""The portfolio of projects in euros and in dollars: one portfolio per currency, never adding
euros to dollars, each project listed with its figures in its own currency and the rate it was
converted at (issue 23)."""

from datetime import date
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from apps.budget.selectors import scenario_budget
from apps.budget.services import cost_line_create
from apps.reviews import services
from tests.factories import make_front_office, make_manager, make_project, make_scenario
from tests.integration.test_budget_review import LICENCE
from tests.integration.test_exchange_rates import load_ecb

pytestmark = pytest.mark.django_db
PERIOD = {"period_start": date(2026, 1, 1), "period_end": date(2027, 12, 31)}
RATE = Decimal("0.8757334267")  # 1 USD in EUR: the ECB's 1.1419 USD per euro of 2 June 2025


def submitted(owner, title: str, currency: str):
    project = make_project(
        owner, title, currency=currency, rate_date=date(2025, 6, 2), unit="Section A", **PERIOD
    )
    baseline = make_scenario(project, "Pilot", is_baseline=True)
    cost_line_create(scenario=baseline, fields=LICENCE)
    services.project_submit(project=project, user=owner)
    return baseline


@pytest.fixture
def world():
    load_ecb()
    maria = make_manager("maria")
    return {
        "reviewer": make_front_office("fiona"),
        "usd": submitted(maria, "Helpdesk", "USD"),
        "eur": submitted(maria, "Traduction", "EUR"),
    }


def test_euros_and_dollars_are_summed_apart_each_project_in_its_currency(world):
    client = APIClient()
    client.force_authenticate(world["reviewer"])
    eur, usd = client.get("/api/v1/portfolio/budget/").json()["portfolios"]
    in_euros, in_dollars = scenario_budget(world["eur"]), scenario_budget(world["usd"])
    assert (eur["currency"], usd["currency"]) == ("EUR", "USD")
    assert eur["total"] == [f"{v:.2f}" for v in in_euros.budget.totals.total]
    assert usd["total"] == [f"{v:.2f}" for v in in_dollars.budget.totals.total]
    [traduction] = eur["projects"]
    assert traduction["title"] == "Traduction"
    assert traduction["total"] == f"{in_euros.budget.summary.total:.2f}"
    assert traduction["npv"] == f"{in_euros.budget.summary.npv:.2f}"
    [used] = traduction["exchange_rates"]
    assert (used["from"], used["to"], used["rate"], used["date"]) == (
        "USD",
        "EUR",
        str(RATE),
        "2025-06-02",
    )
    [helpdesk] = usd["projects"]
    assert (helpdesk["title"], helpdesk["exchange_rates"]) == ("Helpdesk", [])
    assert helpdesk["total"] == f"{in_dollars.budget.summary.total:.2f}"
    # The same inputs, the same licence: only the computed lines differ, converted into euros.
    assert Decimal(traduction["total"]) < Decimal(helpdesk["total"])


def test_the_page_lists_each_project_in_its_currency_with_its_rate(client, world):
    client.force_login(world["reviewer"])
    html = client.get("/portfolio/").content.decode()
    euros = html[html.index('id="portfolio-EUR"') : html.index('id="portfolio-USD"')]
    assert "The projects summed, each in EUR" in euros
    assert "Traduction" in euros and "Helpdesk" not in euros
    assert "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)" in euros
    total = scenario_budget(world["eur"]).budget.summary.total
    assert f'<data value="{total:.2f}">' in euros
    assert "$" not in euros
    dollars = html[html.index('id="portfolio-USD"') :]
    assert "Helpdesk" in dollars and "Traduction" not in dollars
