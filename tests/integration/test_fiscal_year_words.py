"""A fiscal year as the reader's language names it: "FY2026" in English, "Exercice 2026" in
French, on the budget, the review queue, the portfolio and the exports' headings; the label
itself stays the key in data, JSON and URLs (`?sort=-fy:FY2026`)."""

import csv
import io
import re

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from apps.budget.fiscal_labels import fiscal_year_text
from apps.reviews.services import project_submit
from tests.factories import make_front_office, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "label", "text"),
    [
        ("en-gb", "FY2026", "FY2026"),
        ("fr", "FY2026", "Exercice 2026"),
        ("fr", "2025/26", "2025/26"),
        ("fr", "2026", "2026"),
    ],
)
def test_a_fiscal_year_is_named_in_the_active_language(language, label, text):
    with translation.override(language):
        assert fiscal_year_text(label) == text


@pytest.fixture
def owner():
    return make_manager("owner")


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Assistant"), "Pilote", is_baseline=True)


@pytest.fixture
def reviewer(owner, scenario):
    """A front office reviewing the scenario's project, submitted."""
    project_submit(project=scenario.project, user=owner)
    return make_front_office("reviewer")


def page(user, path: str, language: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(path, headers={"accept-language": language})
    assert response.status_code == 200, path
    return response.content.decode()


def labels(scenario) -> list[str]:
    client = Client()
    client.force_login(scenario.project.owner)
    budget = client.get(
        f"/api/v1/scenarios/{scenario.pk}/budget/", headers={"accept-language": "fr"}
    )
    found = [year["label"] for year in budget.json()["fiscal_years"]]
    assert found and all(re.fullmatch(r"FY\d{4}", label) for label in found)
    return found


def test_the_budget_names_its_years_in_french_and_its_api_keeps_the_labels(owner, scenario):
    years = labels(scenario)
    french = page(owner, f"/scenarios/{scenario.pk}/budget/", "fr")
    english = page(owner, f"/scenarios/{scenario.pk}/budget/", "en-gb")
    for label in years:
        year = label.removeprefix("FY")
        assert f'<th scope="col" class="number">Exercice {year}' in french
        assert f'<th scope="col" class="number">{label}' in english
        assert f">{label}<" not in french


def test_the_queue_names_its_year_columns_in_french_and_sorts_by_the_label(reviewer, scenario):
    label = labels(scenario)[0]
    french = page(reviewer, f"/reviews/?sort=-fy:{label}", "fr")
    year = label.removeprefix("FY")
    header = re.search(r'<th scope="col" aria-sort="descending"><a href="([^"]*)">([^<]*)', french)
    assert header is not None and header[2].strip() == f"Exercice {year}"
    assert f"sort=fy%3A{label}" in header[1] or f"sort=fy:{label}" in header[1]
    option = re.search(rf'<option value="-fy:{label}"[^>]*>([^<]*)</option>', french)
    assert option is not None and option[1].startswith(f"Exercice {year}")


def test_the_exports_headings_name_the_years_in_french(owner, scenario):
    years = labels(scenario)
    client = Client()
    client.force_login(owner)
    french = {"accept-language": "fr"}
    response = client.get(f"/projects/{scenario.project.pk}/export.csv", headers=french)
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    figure, field = list(rows[0])[2], list(rows[0])[6]
    budget = [row for row in rows if row[field].startswith("budget.") and ".amounts." in row[field]]
    assert budget, "the CSV has the budget's amounts"
    assert {row[figure].rpartition(": ")[2] for row in budget} == {
        f"Exercice {label.removeprefix('FY')}" for label in years
    }
    sheet = load_workbook(
        io.BytesIO(
            client.get(f"/projects/{scenario.project.pk}/export.xlsx", headers=french).content
        )
    )
    cells = {str(cell.value) for ws in sheet.worksheets for row in ws.iter_rows() for cell in row}
    assert f"Exercice {years[0].removeprefix('FY')} (USD)" in cells
    assert f"{years[0]} (USD)" not in cells


def test_the_portfolio_names_its_years_in_french(reviewer, scenario):
    label = labels(scenario)[0]
    year = label.removeprefix("FY")
    french = page(reviewer, "/portfolio/", "fr")
    assert f'<th scope="col" class="number">Exercice {year}</th>' in french
    client = Client()
    client.force_login(reviewer)
    sheet = load_workbook(
        io.BytesIO(client.get("/portfolio/export.xlsx", headers={"accept-language": "fr"}).content)
    )
    headings = [cell.value for cell in next(sheet.worksheets[0].iter_rows(max_row=1))]
    assert f"Exercice {year} (USD)" in headings
