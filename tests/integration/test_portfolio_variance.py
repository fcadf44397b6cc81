"""The portfolio's plan against actual per project and fiscal year in GET
/api/v1/portfolio/budget/, export.csv and export.xlsx, in each project's currency, with the
page's figures (apps.actuals.selectors.portfolio_variance), in a fixed number of queries."""

import csv
import io
import json
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.actuals_worlds import submitted_with_actuals
from tests.factories import load_ecb, make_front_office, make_manager
from tests.integration.test_api_schema_behaviour import accepts
from tests.integration.test_portfolio import api

pytestmark = pytest.mark.django_db
PERIOD_END = date(2027, 12, 31)
# Training priced at nothing: the plan is the storage line alone, 10 TB-month × 25.00 a month
# in the project's currency, 3,000.00 in each fiscal year (January to December).
FREE_TRAINING = {
    "training": {
        "method": "accelerator_hours",
        "accelerator_hours": 200,
        "accelerator": "nvidia-h100-sxm",
        "price_per_accelerator_hour": 0,
    }
}


def billed(owner, title: str, currency: str, spent: dict[date, int]):
    return submitted_with_actuals(
        owner, title, currency, spent, period_end=PERIOD_END, inputs=FREE_TRAINING
    )


@pytest.fixture
def world():
    load_ecb()
    maria = make_manager("maria")
    return {
        "front": make_front_office("fiona"),
        "maria": maria,
        # FY2026: 300 + 200 = 500 against 3,000, 2,500 under (−83.3 %); FY2027: 3,300, 300
        # over (+10.0 %).
        "helpdesk": billed(
            maria,
            "Helpdesk",
            "USD",
            {date(2026, 1, 1): 300, date(2026, 2, 1): 200, date(2027, 3, 1): 3300},
        ),
        # FY2026: 3,600 against 3,000, 600 over (+20.0 %); FY2027: 3,000, on plan (0.0 %).
        "traduction": billed(
            maria, "Traduction", "EUR", {date(2026, 6, 1): 3600, date(2027, 1, 1): 3000}
        ),
        "search": billed(maria, "Search", "USD", {}),  # no actuals
    }


def _projects(body: dict) -> dict[str, dict]:
    return {
        project["title"]: {**project, "currency": item["currency"], "years": item["fiscal_years"]}
        for item in body["portfolios"]
        for project in item["projects"]
    }


def test_the_api_gives_each_projects_actual_and_variance_by_fiscal_year(world):
    body = api(world["front"])
    projects = _projects(body)
    helpdesk, traduction = projects["Helpdesk"], projects["Traduction"]
    assert (helpdesk["currency"], helpdesk["years"]) == ("USD", ["FY2026", "FY2027"])
    assert helpdesk["plan"] == ["3000.00", "3000.00"]
    assert helpdesk["actual"] == ["500.00", "3300.00"]
    assert helpdesk["variance"] == ["-2500.00", "300.00"]
    assert helpdesk["variance_share"] == pytest.approx([-2500 / 3000, 0.1])
    assert (traduction["currency"], traduction["years"]) == ("EUR", ["FY2026", "FY2027"])
    assert traduction["plan"] == ["3000.00", "3000.00"]
    assert traduction["actual"] == ["3600.00", "3000.00"]
    assert traduction["variance"] == ["600.00", "0.00"]
    assert traduction["variance_share"] == pytest.approx([0.2, 0.0])
    # The fields that were there stay as they were.
    assert {"id", "title", "total", "npv", "exchange_rates"} <= set(helpdesk)


def test_a_project_without_actuals_has_none_in_the_api_as_on_the_page(client, world):
    search = _projects(api(world["front"]))["Search"]
    assert (search["plan"], search["actual"], search["variance"], search["variance_share"]) == (
        None,
        None,
        None,
        None,
    )
    client.force_login(world["front"])
    variances = client.get("/portfolio/").context["variances"]
    assert "Search" not in {p.title for item in variances for p in item.projects}


def test_the_api_answer_with_actuals_is_valid_against_its_schema(world):
    client = APIClient()
    client.force_authenticate(world["front"])
    document = client.get("/api/schema/?format=json").json()
    body = api(world["front"])
    assert accepts(document, "Portfolio", body)
    properties = document["components"]["schemas"]["PortfolioProject"]["properties"]
    for name in ("plan", "actual", "variance", "variance_share"):
        assert properties[name]["type"] == "array" and properties[name]["nullable"], name
        assert properties[name]["items"]["nullable"], name
    # An answer whose actual is not a list of amounts is not.
    body["portfolios"][0]["projects"][0]["actual"] = "500.00"
    assert not accepts(document, "Portfolio", body)


def _csv(user, language: str) -> list[list[str]]:
    client = Client()
    client.force_login(user)
    response = client.get("/portfolio/export.csv", headers={"accept-language": language})
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize(
    ("language", "header"),
    [
        (
            "en",
            [
                "currency",
                "row",
                "class",
                "category",
                "fiscal year",
                "amount",
                "actual",
                "variance",
                "variance (% of plan)",
                "project",
            ],
        ),
        (
            "fr",
            [
                "devise",
                "ligne",
                "nature",
                "catégorie",
                "exercice budgétaire",
                "montant",
                "réalisé",
                "écart",
                "écart (% du prévu)",
                "projet",
            ],
        ),
    ],
)
def test_the_csv_carries_each_projects_actual_and_variance_by_fiscal_year(world, language, header):
    rows = _csv(world["front"], language)
    assert rows[0] == header
    by_project = [row for row in rows[1:] if row[9]]
    helpdesk, traduction = world["helpdesk"].pk, world["traduction"].pk
    assert by_project == [
        ["EUR", "Traduction", "", "", "FY2026", "3000.00", "3600.00", "600.00", "20.0", f"{traduction}"],
        ["EUR", "Traduction", "", "", "FY2027", "3000.00", "3000.00", "0.00", "0.0", f"{traduction}"],
        ["USD", "Helpdesk", "", "", "FY2026", "3000.00", "500.00", "-2500.00", "-83.3", f"{helpdesk}"],
        ["USD", "Helpdesk", "", "", "FY2027", "3000.00", "3300.00", "300.00", "10.0", f"{helpdesk}"],
    ]  # fmt: skip
    # The budget's rows keep their amounts and leave the new columns empty.
    budget_rows = [row for row in rows[1:] if not row[9]]
    assert len(budget_rows) == len(rows) - 1 - 4
    assert all(row[5] and row[6:] == ["", "", "", ""] for row in budget_rows)


@pytest.mark.parametrize(
    ("language", "sheet_name", "headings"),
    [
        (
            "en",
            "USD, plan against actual",
            [
                "Project",
                "FY2026 (USD)",
                "FY2026 actual (USD)",
                "FY2026 variance (USD)",
                "FY2026 variance (% of plan)",
                "FY2027 (USD)",
                "FY2027 actual (USD)",
                "FY2027 variance (USD)",
                "FY2027 variance (% of plan)",
            ],
        ),
        (
            "fr",
            "USD, prévu et réalisé",
            [
                "Projet",
                "Exercice 2026 (USD)",
                "Exercice 2026 réalisé (USD)",
                "Exercice 2026 écart (USD)",
                "Exercice 2026 écart (% du prévu)",
                "Exercice 2027 (USD)",
                "Exercice 2027 réalisé (USD)",
                "Exercice 2027 écart (USD)",
                "Exercice 2027 écart (% du prévu)",
            ],
        ),
    ],
)
def test_the_xlsx_carries_each_projects_actual_and_variance_by_fiscal_year(
    world, language, sheet_name, headings
):
    client = Client()
    client.force_login(world["front"])
    response = client.get("/portfolio/export.xlsx", headers={"accept-language": language})
    workbook = load_workbook(io.BytesIO(response.content))
    rows = list(workbook[sheet_name].iter_rows(values_only=True))
    # Search, without actuals, is not listed, as on the page.
    assert [list(row) for row in rows] == [
        headings,
        ["Helpdesk", 3000, 500, -2500, -83.3, 3000, 3300, 300, 10],
    ]
    euros = workbook[sheet_name.replace("USD", "EUR")].iter_rows(values_only=True)
    assert list(list(euros)[1]) == ["Traduction", 3000, 3600, 600, 20, 3000, 3000, 0, 0]
    # The budget's own sheets come first, as they were: a row label, a column per year, total.
    assert workbook.sheetnames[:2] == ["EUR", sheet_name.replace("USD", "EUR")]
    assert len(next(workbook["USD"].iter_rows(values_only=True))) == 4


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def _billed_projects(client: Client, url: str) -> int:
    """How many projects the answer gives plan against actual for."""
    content = client.get(url).content
    if url.endswith(".csv"):
        _header, *rows = csv.reader(io.StringIO(content.decode("utf-8-sig")))
        return len({row[9] for row in rows if row[9]})
    if url.endswith(".xlsx"):
        workbook = load_workbook(io.BytesIO(content))
        sheets = [name for name in workbook.sheetnames if "," in name]
        return sum(workbook[name].max_row - 1 for name in sheets)
    projects = _projects(json.loads(content))
    return sum(project["actual"] is not None for project in projects.values())


@pytest.mark.parametrize(
    "url", ["/api/v1/portfolio/budget/", "/portfolio/export.csv", "/portfolio/export.xlsx"]
)
def test_plan_against_actual_takes_as_many_queries_for_many_projects_as_for_two(world, url):
    client = Client()
    client.force_login(world["front"])
    client.get(url)  # submissions' budgets read once, then kept by the process
    two = _queries(client, url)
    for n in range(4):
        billed(world["maria"], f"More {n}", "USD", {date(2026, 1 + n, 1): 100 * (n + 1)})
        billed(world["maria"], f"Plus {n}", "EUR", {date(2027, 1 + n, 1): 100 * (n + 1)})
    client.get(url)
    assert _queries(client, url) == two
    assert _billed_projects(client, url) == 2 + 8
