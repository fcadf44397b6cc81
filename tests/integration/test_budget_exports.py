"""Exports carry the budget table: each line with its basis, per fiscal year, equal to
GET /api/v1/scenarios/{id}/budget/ to the cent, in CSV, XLSX, PDF and JSON."""

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.budget.services import cost_line_create
from tests.factories import make_project, make_scenario
from tests.integration.test_budget_models import STAFF
from tests.integration.test_budget_review import LICENCE
from tests.integration.test_exports import PILOT, client_for, csv_rows, download
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Helpdesk", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    scenario = make_scenario(project, "Pilot", inputs=PILOT, is_baseline=True)
    cost_line_create(scenario=scenario, fields=STAFF)
    cost_line_create(scenario=scenario, fields=LICENCE)
    return scenario


def api_budget(user, scenario) -> dict:
    response = client_for(user).get(f"/api/v1/scenarios/{scenario.pk}/budget/")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_carries_each_line_its_basis_and_every_fiscal_year_as_the_api(owner, scenario, via):
    api = api_budget(owner, scenario)
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    by_field = {r["field"]: r for r in rows if r["field"].startswith("budget.")}
    assert len(api["lines"]) >= 3  # the computed compute lines and the two added ones
    for n, line in enumerate(api["lines"]):
        assert by_field[f"budget.lines.{n}.basis"]["value"] == line["basis"]
        assert by_field[f"budget.lines.{n}.total"]["value"] == line["total"]
        for i, amount in enumerate(line["amounts"]):
            cell = by_field[f"budget.lines.{n}.amounts.{i}"]
            label = api["fiscal_years"][i]["label"]
            assert cell["value"] == amount and cell["unit"] == api["currency"]
            assert cell["figure"] == f"{line['name']}: {label}"
    assert [by_field[f"budget.totals.total.{i}"]["value"] for i in range(2)] == api["totals"][
        "total"
    ]
    assert STAFF["basis"] in {r["value"] for r in rows}


@pytest.mark.parametrize("via", ["page", "api"])
def test_xlsx_has_the_budget_table_with_money_as_numbers(owner, scenario, via):
    api = api_budget(owner, scenario)
    sheet = load_workbook(io.BytesIO(download(owner, "scenario", scenario, "xlsx", via)))["Pilot"]
    rows = [[cell for cell in row] for row in sheet.iter_rows()]
    (title_row,) = [i for i, row in enumerate(rows) if row[0].value == "Budget by fiscal year"]
    header = [cell.value for cell in rows[title_row + 1] if cell.value is not None]
    labels = [year["label"] for year in api["fiscal_years"]]
    assert header == [
        "Line", "Kind", "Class", "Category (UNDG)", "Basis",
        *(f"{label} ({api['currency']})" for label in labels), f"Total ({api['currency']})",
    ]  # fmt: skip
    for n, line in enumerate(api["lines"]):
        cells = rows[title_row + 2 + n]
        assert [cells[0].value, cells[4].value] == [line["name"], line["basis"]]
        amounts = [Decimal(repr(c.value)).quantize(Decimal("0.01")) for c in cells[5:8]]
        assert amounts == [Decimal(a) for a in (*line["amounts"], line["total"])]
        assert cells[5].number_format == "#,##0.00"
    total = rows[title_row + 2 + len(api["lines"]) + 4]
    assert total[0].value == "Total"
    assert [Decimal(repr(c.value)).quantize(Decimal("0.01")) for c in total[5:7]] == [
        Decimal(a) for a in api["totals"]["total"]
    ]


@pytest.mark.parametrize("via", ["page", "api"])
def test_pdf_prints_the_budget_table_to_the_cent(owner, scenario, via):
    api = api_budget(owner, scenario)
    text = pdf_text(download(owner, "scenario", scenario, "pdf", via))
    assert "Budget by fiscal year" in text
    words = set(text.split())
    for line in api["lines"]:
        for amount in (*line["amounts"], line["total"]):
            assert f"{Decimal(amount):,.2f}" in words
    for amount in api["totals"]["total"]:
        assert f"{Decimal(amount):,.2f}" in words


@pytest.mark.parametrize("via", ["page", "api"])
def test_json_carries_the_budget_exactly_as_the_api(owner, scenario, via):
    api = api_budget(owner, scenario)
    document = json.loads(download(owner, "project", scenario.project, "json", via))
    (exported,) = document["project"]["scenarios"]
    assert exported["budget"] == api and exported["budget_error"] is None


def test_a_json_export_with_its_budget_imports_back(client, owner, scenario):
    content = download(owner, "project", scenario.project, "json", "api")
    response = client_for(owner).post(
        "/api/v1/projects/import/", json.loads(content), format="json"
    )
    assert response.status_code == 201, response.content
