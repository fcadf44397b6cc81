"""The project's exports carry plan against actual when it has actuals: by fiscal year and by
month, per kind of line in money, then accelerator-hours and tokens, in CSV, XLSX and PDF, in
English and French; read back from the files."""

import io
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.actuals.models import ActualAmount
from apps.actuals.services import actual_enter
from tests.actuals_worlds import baseline_project
from tests.factories import make_project, make_scenario
from tests.integration.test_api_projects import client_for
from tests.integration.test_exports import csv_rows, download
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    project = baseline_project(owner, "Assistant", inference=True)
    # January: 300.00 of storage against 250.00 planned (10 TB × 25.00), 812,000 input tokens.
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=Decimal(300))
    ActualAmount.objects.create(
        project=project,
        source="gateway",
        billing_period=date(2026, 1, 1),
        month=date(2026, 1, 1),
        kind="inference_compute",
        token_type="input",
        amount=Decimal("1.50"),
        tokens=812_000,
    )
    return project


def test_the_csv_has_the_variance_cells(owner, project):
    rows = csv_rows(download(owner, "project", project, "csv", "page"))
    by_figure = {(r["section"], r["figure"]): r for r in rows}
    money = "Plan against actual by month, in USD"
    january = "2026-01 — Storage"
    assert by_figure[money, f"{january}: Plan"]["value"] == "250.00"
    assert by_figure[money, f"{january}: Actual"]["value"] == "300.00"
    assert by_figure[money, f"{january}: Variance"]["value"] == "50.00"
    assert by_figure[money, f"{january}: Variance as a share of plan"]["value"] == "20.0"
    usage = "Accelerator-hours and tokens by month, planned and used"
    # 1,000 requests × (1,000 − 200) input tokens planned; 812,000 used.
    assert by_figure[usage, "2026-01: Tokens planned, input"]["value"] == "800000"
    assert by_figure[usage, "2026-01: Tokens used, input"]["value"] == "812000"
    years = "Plan against actual by fiscal year, in USD"
    assert by_figure[years, "FY2026 — Storage: Plan"]["value"] == "3000.00"


def test_the_workbook_has_a_variance_sheet_in_french(owner, project):
    client = client_for(owner)
    answer = client.get(
        f"/api/v1/projects/{project.pk}/export/",
        {"format": "xlsx"},
        headers={"accept-language": "fr"},
    )
    assert answer.status_code == 200
    content = answer.content
    workbook = load_workbook(io.BytesIO(content))
    sheet = workbook["Prévu et réalisé"]
    cells = [[cell.value for cell in row] for row in sheet.iter_rows()]
    titles = [row[0] for row in cells if row[0]]
    assert any("exercice" in str(title) for title in titles), titles
    january = next(row for row in cells if row[0] == "2026-01" and row[1] == "Stockage")
    assert january[2:5] == [250, 300, 50]


def test_the_pdf_has_the_variance_tables(owner, project):
    text = pdf_text(download(owner, "project", project, "pdf", "page"), raw=True)
    assert "Plan against actual by fiscal year, in USD" in text
    assert "Accelerator-hours and tokens by month, planned and used" in text
    assert "800,000" in text and "812,000" in text


def test_a_project_without_actuals_exports_no_variance(owner):
    project = make_project(owner, "Seeds")
    make_scenario(project, "Pilot", is_baseline=True)
    rows = csv_rows(download(owner, "project", project, "csv", "page"))
    assert not [r for r in rows if r["section"].startswith("Plan against actual")]
