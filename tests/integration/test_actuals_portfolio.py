"""Plan against actual across the portfolio, summed per currency and never across currencies,
and on the review page of a cleared workplan; the front office sees workplans in review or
cleared, other managers nothing of anyone else's."""

from datetime import date
from decimal import Decimal

import pytest

from apps.reviews import services
from tests.actuals_worlds import submitted_with_actuals
from tests.factories import make_front_office, make_manager
from tests.integration.test_api_projects import client_for
from tests.integration.test_exchange_rates import load_ecb

pytestmark = pytest.mark.django_db
PERIOD_END = date(2026, 12, 31)


def _project(owner, title: str, currency: str, spent: list[int]):
    """Storage billed `spent` from January 2026, a month each."""
    by_month = {date(2026, month, 1): amount for month, amount in enumerate(spent, start=1)}
    return submitted_with_actuals(owner, title, currency, by_month, period_end=PERIOD_END)


@pytest.fixture
def world():
    load_ecb()
    maria = make_manager("maria")
    return {
        "maria": maria,
        "front": make_front_office("fiona"),
        "helpdesk": _project(maria, "Helpdesk", "USD", [300, 200]),
        "search": _project(maria, "Search", "USD", [100]),
        "traduction": _project(maria, "Traduction", "EUR", [1000]),
    }


def _plan(user, project) -> Decimal:
    body = client_for(user).get(f"/api/v1/projects/{project.pk}/variance/").json()
    return Decimal(body["fiscal_years"][0]["plan"])


def test_the_portfolio_sums_plan_and_actual_per_currency(client, world):
    client.force_login(world["front"])
    page = client.get("/portfolio/")
    variances = {item.currency: item for item in page.context["variances"]}
    assert set(variances) == {"EUR", "USD"}
    usd = variances["USD"].years[0]
    # Dollars: 300 + 200 + 100 spent; euros apart: 1,000.
    assert usd.total.actual == Decimal("600.00")
    assert usd.total.plan == _plan(world["front"], world["helpdesk"]) + _plan(
        world["front"], world["search"]
    )
    assert usd.total.variance == usd.total.actual - usd.total.plan
    assert variances["EUR"].years[0].total.actual == Decimal("1000.00")
    text = page.content.decode()
    assert "Plan against actual by fiscal year, in USD, over 2 projects" in text


def test_a_manager_sees_only_their_projects_in_the_portfolio(client, world):
    stranger = make_manager("someone")
    client.force_login(stranger)
    assert client.get("/portfolio/").context["variances"] == []


def test_the_review_page_of_a_cleared_workplan_shows_plan_against_actual(client, world):
    project = world["helpdesk"]
    client.force_login(world["front"])
    assert "review-variance-heading" not in client.get(f"/reviews/{project.pk}/").content.decode()
    services.project_clear(project=project, user=world["front"])
    page = client.get(f"/reviews/{project.pk}/")
    assert page.context["variance"].years[0].total.actual == Decimal("500.00")
    assert "review-variance-heading" in page.content.decode()
    client.force_login(make_manager("someone"))
    assert client.get(f"/reviews/{project.pk}/").status_code == 404
