"""The portfolio: baseline budgets as last submitted, summed by fiscal year × class × category,
for the front office (every project in review) and each manager (their own), filtered by status
and unit, as a page, CSV, XLSX and GET /api/v1/portfolio/budget/."""

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.budget.selectors import scenario_budget
from apps.budget.services import cost_line_create
from apps.estimates.budget import portfolio
from apps.reviews import services
from tests.factories import make_front_office, make_manager, make_project, make_scenario
from tests.integration.test_budget_models import STAFF
from tests.integration.test_budget_review import LICENCE

pytestmark = pytest.mark.django_db
PERIOD = {"period_start": date(2026, 1, 1), "period_end": date(2027, 12, 31)}


def workplan(owner, title: str, unit: str, line: dict, *, submit: bool = True):
    project = make_project(owner, title, unit=unit, **PERIOD)
    baseline = make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(project, "Alternative")  # an alternative: never in the sums
    cost_line_create(scenario=baseline, fields=line)
    if submit:
        services.project_submit(project=project, user=owner)
    return project, baseline


@pytest.fixture
def world():
    maria, omar = make_manager("maria"), make_manager("omar")
    reviewer = make_front_office("fiona")
    _, a_base = workplan(maria, "Helpdesk", "Section A", STAFF)
    _, b_base = workplan(omar, "Translation", "Section B", LICENCE)
    c, _ = workplan(maria, "Returned one", "Section A", LICENCE)
    services.project_return(project=c, user=reviewer, comment="Redo")
    workplan(maria, "Draft", "Section A", STAFF, submit=False)
    return {"maria": maria, "omar": omar, "reviewer": reviewer, "a": a_base, "b": b_base}


def api(user, query: str = "") -> dict:
    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/v1/portfolio/budget/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def sums(*scenarios):
    return portfolio(scenario_budget(s).budget for s in scenarios)


def test_the_front_office_sees_every_submitted_and_cleared_baseline_summed(world):
    (usd,) = api(world["reviewer"])["portfolios"]
    expected = sums(world["a"], world["b"])
    assert usd["currency"] == "USD" and usd["budgets"] == 2
    assert usd["fiscal_years"] == ["FY2026", "FY2027"]
    assert usd["total"] == [f"{v:.2f}" for v in expected.total]
    assert usd["rows"] == [
        {
            "budget_class": row.budget_class,
            "category": row.category,
            "amounts": [f"{v:.2f}" for v in row.amounts],
            "total": f"{row.total:.2f}",
        }
        for row in expected.rows
    ]
    staff = next(r for r in usd["rows"] if r["category"] == 1)
    assert staff["amounts"] == ["135000.00", "135000.00"]  # 1.5 FTE × 90,000 a year


def test_a_manager_sees_only_their_own(world):
    (usd,) = api(world["maria"])["portfolios"]
    assert usd["budgets"] == 1
    assert usd["total"] == [f"{v:.2f}" for v in sums(world["a"]).total]
    assert api(make_manager("nobody"))["portfolios"] == []


def test_the_status_and_unit_filters(world):
    (returned,) = api(world["reviewer"], "?status=returned")["portfolios"]
    assert returned["budgets"] == 1
    assert api(world["reviewer"], "?status=all")["portfolios"][0]["budgets"] == 3
    (section_b,) = api(world["reviewer"], "?unit=Section+B")["portfolios"]
    assert section_b["total"] == [f"{v:.2f}" for v in sums(world["b"]).total]
    client = APIClient()
    client.force_authenticate(world["reviewer"])
    assert client.get("/api/v1/portfolio/budget/?status=draft").status_code == 400


def test_the_page_and_its_downloads_show_the_same_sums(client, world):
    client.force_login(world["reviewer"])
    expected = sums(world["a"], world["b"])
    html = client.get("/portfolio/?unit=").content.decode()
    assert "Portfolio budget" in html and "FY2027" in html
    assert f'<data value="{sum(expected.total):.2f}">' in html
    assert 'href="/portfolio/export.csv?unit="' in html
    rows = list(
        csv.DictReader(io.StringIO(client.get("/portfolio/export.csv").content.decode("utf-8-sig")))
    )
    totals = [r["amount"] for r in rows if r["row"] == "Total"]
    assert totals == [f"{v:.2f}" for v in expected.total]
    sheet = load_workbook(io.BytesIO(client.get("/portfolio/export.xlsx").content))["USD"]
    last = list(sheet.iter_rows(values_only=True))[-1]
    assert last[0] == "Total"
    assert [Decimal(repr(v)).quantize(Decimal("0.01")) for v in last[1:3]] == list(expected.total)


def test_the_portfolio_takes_as_many_queries_for_many_projects_as_for_one(client, world):
    client.force_login(world["reviewer"])
    client.get("/portfolio/")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/portfolio/").status_code == 200
        return len(captured)

    warm = queries()
    # A submission's budget is read once (one query for all those not read yet), then kept.
    workplan(world["omar"], "One more", "Unit 9", STAFF)
    one = queries()
    assert one == warm + 1
    assert queries() == warm
    for n in range(4):
        workplan(world["omar"], f"More {n}", f"Unit {n}", STAFF)
    assert queries() == one
