"""A budget with ranges in what is kept and sent: the frozen record of a version keeps its
percentiles and seed and gives them back unchanged; CSV, XLSX, PDF and JSON exports carry them
as GET /api/v1/scenarios/{id}/budget/ answers them (JSON unlocalised)."""

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.budget.kept import drawn_up_from_record, drawn_up_record, version_budget
from apps.budget.selectors import scenario_budget
from apps.budget.serializers import BudgetSerializer
from tests.factories import make_project, make_scenario
from tests.integration import test_budget_pages_ranges as ranged
from tests.integration.test_exports import client_for, csv_rows, download
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db
STATISTICS = ("p5", "p50", "p95", "mean")
# A manager's baseline with ranges on two inputs and a staff line, as on the pages.
owner, scenario = ranged.owner, ranged.scenario


def api_budget(user, scenario, **headers) -> dict:
    response = client_for(user).get(f"/api/v1/scenarios/{scenario.pk}/budget/", **headers)
    assert response.status_code == 200
    return response.json()


def test_the_frozen_record_keeps_the_percentiles_and_seed_and_gives_them_back(owner, scenario):
    drawn_up = scenario_budget(scenario)
    record = drawn_up_record(drawn_up)
    back = drawn_up_from_record(json.loads(json.dumps(record)))
    assert (back.ranges.seed, back.ranges.samples) == (7, 2_000)
    assert back.ranges == drawn_up.ranges  # money as Decimal, to the cent
    assert back.budget == drawn_up.budget
    # The version saved with the last line holds the same record, as the API answers it.
    saved = drawn_up_from_record(version_budget(scenario.versions.get(number=scenario.version)))
    assert BudgetSerializer(saved).data["uncertainty"] == api_budget(owner, scenario)["uncertainty"]


def test_a_record_without_ranges_has_none(owner):
    plain = make_scenario(make_project(owner, "Plain"), "Pilot")
    record = drawn_up_record(scenario_budget(plain))
    assert drawn_up_from_record(record).ranges is None


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_carries_the_samples_the_seed_and_every_percentile(owner, scenario, via):
    api = api_budget(owner, scenario)["uncertainty"]
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    by_field = {row["field"]: row for row in rows if row["field"].startswith("budget.unc")}
    assert by_field["budget.uncertainty.seed"]["value"] == "7"
    assert by_field["budget.uncertainty.samples"]["value"] == "2000"
    for path, figure in api["figures"].items():
        for key in STATISTICS:
            cell = by_field[f"budget.uncertainty.figures.{path}.{key}"]
            assert cell["value"] == figure[key] and cell["unit"] == "USD"
    total = by_field["budget.uncertainty.figures.summary.total.p95"]
    assert total["figure"] == "Total over the period: 95th percentile"
    assert by_field["budget.uncertainty.figures.totals.total.1.p50"]["figure"] == (
        "FY2027: Total: median (central estimate)"
    )
    assert "seed 7" in total["section"] and "2,000 samples" in total["section"]


def test_xlsx_has_a_table_of_the_percentiles_as_numbers(owner, scenario):
    api = api_budget(owner, scenario)["uncertainty"]["figures"]
    sheet = load_workbook(io.BytesIO(download(owner, "scenario", scenario, "xlsx", "page")))
    rows = [list(row) for row in sheet["Pilot"].iter_rows()]
    (title,) = [i for i, row in enumerate(rows) if str(row[0].value).startswith("Budget ranges")]
    assert rows[title][0].value == (
        "Budget ranges (90 % intervals): percentiles of 2,000 samples, seed 7"
    )
    header = [cell.value for cell in rows[title + 1] if cell.value is not None]
    assert header == [
        "Figure",
        "5th percentile (USD)",
        "median (central estimate) (USD)",
        "95th percentile (USD)",
        "mean (USD)",
    ]
    by_label = {row[0].value: row for row in rows[title + 2 : title + 2 + len(api)]}
    cells = by_label["Net present value"]
    for cell, key in zip(cells[1:5], STATISTICS, strict=True):
        assert Decimal(repr(cell.value)).quantize(Decimal("0.01")) == Decimal(
            api["summary.npv"][key]
        )
        assert cell.number_format == "#,##0.00"


def test_pdf_prints_the_percentiles_and_the_seed(owner, scenario):
    api = api_budget(owner, scenario)["uncertainty"]["figures"]
    text = " ".join(pdf_text(download(owner, "scenario", scenario, "pdf", "page")).split())
    assert "Budget ranges (90 % intervals): percentiles of 2,000 samples, seed 7" in text
    words = set(text.split())
    for key in ("p5", "p50", "p95"):
        assert f"{Decimal(api['summary.total'][key]):,.2f}" in words


def test_json_carries_the_budgets_uncertainty_unlocalised_as_the_api(owner, scenario):
    api = api_budget(owner, scenario)
    content = download(owner, "project", scenario.project, "json", "api")
    french = (
        client_for(owner)
        .get(
            f"/api/v1/projects/{scenario.project_id}/export/",
            {"format": "json"},
            HTTP_ACCEPT_LANGUAGE="fr",
        )
        .content
    )
    for document in (json.loads(content), json.loads(french)):
        (exported,) = document["project"]["scenarios"]
        assert exported["budget"]["uncertainty"] == api["uncertainty"]
    total = api["uncertainty"]["figures"]["summary.total"]["p50"]
    assert Decimal(total) > 0 and "," not in total


def test_exports_without_ranges_carry_no_percentile_rows(owner):
    project = make_project(
        owner, "Plain", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    plain = make_scenario(project, "Pilot", is_baseline=True)
    rows = csv_rows(download(owner, "scenario", plain, "csv", "api"))
    assert not [row for row in rows if row["field"].startswith("budget.uncertainty")]
    text = pdf_text(download(owner, "scenario", plain, "pdf", "api"))
    assert "Budget ranges" not in text
