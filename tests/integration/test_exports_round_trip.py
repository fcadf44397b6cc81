"""Export → import is lossless: a project with everything set (budget settings, timing, ranges
and a seed, several cost lines) comes back from its JSON export as a project whose pages,
budgets and exports read the same as the original's, in English and in French; and a file
exported before budgets were part of it (format version 1) still imports, saying what it lacked."""

import copy
import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.budget.models import CostLine
from apps.exports import report
from apps.projects.models import Project
from tests.factories import make_manager
from tests.integration.full_project import PILOT_LINES, RANGED_INPUTS, make_full_project
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db
IMPORT = "/api/v1/projects/import/"
# An export of make_full_project made by main before exports held the budget (format version 1).
VERSION_1_FILE = Path(__file__).parent / "data" / "project_export_format_1.json"


@pytest.fixture
def owner():
    return make_manager("maria")


def api_for(user, language: str = "en") -> APIClient:
    client = APIClient(headers={"accept-language": language})
    client.force_authenticate(user)
    return client


def export_document(user, project) -> dict:
    response = api_for(user).get(f"/api/v1/projects/{project.pk}/export/", {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def imported(response) -> Project:
    assert response.status_code == 201, response.content
    return Project.objects.get(pk=response.json()["id"])


def test_the_export_holds_the_settings_timing_ranges_and_cost_lines(owner):
    project = make_full_project(owner)
    details = export_document(owner, project)["project"]
    assert {name: details[name] for name in SETTINGS} == {
        "fiscal_year_start_month": 7,
        "fiscal_year_label": "start_end",
        "capitalisation_threshold": "2500.00",
        "discount_rate": 0.05,
        "contingency_capex": 0.1,
        "contingency_opex": 0.05,
        "indirect_rate": 0.07,
    }
    pilot, pre_train, wider = details["scenarios"]
    assert (pilot["name"], pre_train["name"], wider["name"]) == ("Pilot", "Pre-train", "Wider use")
    assert pilot["inputs"] == RANGED_INPUTS
    assert (pilot["training_start"], pilot["service_start"]) == ("2026-02-01", "2026-05-01")
    assert (wider["training_start"], wider["service_start"]) == (None, "2027-01-01")
    assert [line["name"] for line in pilot["cost_lines"]] == [
        "Red-teaming", "Vector database", "Data scientist", "Object storage",
    ]  # fmt: skip
    assert pilot["cost_lines"][3] == {
        "name": "Object storage", "kind": "storage", "quantity": 20.25, "unit": "TB-month",
        "unit_price": "23.0050", "currency": "USD", "recurrence": "monthly",
        "start": "2026-03-01", "end": None, "annual_escalation": 0.015, "budget_class": None,
        "category": 4, "basis": "",
    }  # fmt: skip
    assert pre_train["cost_lines"] == [] and len(wider["cost_lines"]) == 1


SETTINGS = (
    "fiscal_year_start_month",
    "fiscal_year_label",
    "capitalisation_threshold",
    "discount_rate",
    "contingency_capex",
    "contingency_opex",
    "indirect_rate",
)


def test_an_import_restores_every_field_as_version_1_and_notes_nothing(owner):
    project = make_full_project(owner)
    response = api_for(owner).post(IMPORT, export_document(owner, project), format="json")
    copy = imported(response)
    assert response.json()["notes"] == []
    for name in ("title", "unit", "description", "classification", "period_start", *SETTINGS):
        assert getattr(copy, name) == getattr(project, name), name
    for original, restored in zip(
        project.scenarios.order_by("name"), copy.scenarios.order_by("name"), strict=True
    ):
        assert restored.version == 1 and restored.versions.count() == 1
        for name in ("name", "is_baseline", "inputs", "training_start", "service_start"):
            assert getattr(restored, name) == getattr(original, name), name
        assert lines_of(restored) == lines_of(original)
        assert restored.versions.get().budget["cost_lines"] != [] or not lines_of(original)


def lines_of(scenario) -> list[dict]:
    fields = [field.name for field in CostLine._meta.fields if field.name not in IGNORED]
    return list(scenario.cost_lines.order_by("kind", "name").values(*fields))


IGNORED = {"id", "scenario", "created_at", "updated_at"}


# What may differ between the original's pages and the copy's: the objects' ids, wherever a page
# names them, CSRF tokens, and the number of saves behind a scenario (the copy's are version 1).
PAGE_NOISE = [
    (re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+'), r"\1…"),
    (re.compile(r"(/(?:projects|scenarios|cost-lines)/)\d+(?=/)"), r"\1…"),
    (re.compile(r"([?&](?:amp;)?(?:s|with)=)\d+"), r"\1…"),
    (re.compile(r'(name="s" value=")\d+'), r"\1…"),
    (re.compile(r'((?:id|for|aria-labelledby)="[a-z-]*-)\d+(?=")'), r"\1…"),
    (re.compile(r'(name="version" value=")\d+'), r"\1…"),
]


def page(client: Client, url: str, language: str) -> str:
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200, url
    html = response.content.decode()
    for pattern, replacement in PAGE_NOISE:
        html = pattern.sub(replacement, html)
    return html


def pages(client: Client, project: Project, language: str) -> dict[str, str]:
    scenarios = list(project.scenarios.order_by("name"))
    chosen = "&".join(f"s={scenario.pk}" for scenario in scenarios)
    shown = {
        "project": page(client, f"/projects/{project.pk}/", language),
        "comparison": page(client, f"/projects/{project.pk}/compare/?{chosen}", language),
    }
    for scenario in scenarios:
        shown[scenario.name] = page(client, f"/scenarios/{scenario.pk}/", language)
        shown[f"{scenario.name} budget"] = page(
            client, f"/scenarios/{scenario.pk}/budget/", language
        )
    return shown


def budgets(user, project: Project, language: str) -> dict[str, dict]:
    api = api_for(user, language)
    answers = {"project": api.get(f"/api/v1/projects/{project.pk}/budget/").json()}
    for scenario in project.scenarios.all():
        answers[scenario.name] = api.get(f"/api/v1/scenarios/{scenario.pk}/budget/").json()
    return answers


def exports(user, project: Project, language: str) -> dict[str, object]:
    api = api_for(user, language)

    def download(export_format: str) -> bytes:
        url = f"/api/v1/projects/{project.pk}/export/"
        response = api.get(url, {"format": export_format})
        assert response.status_code == 200
        return response.content

    document = json.loads(download("json"))
    del document["source"]
    for scenario in document["project"]["scenarios"]:
        del scenario["source"]
    workbook = load_workbook(io.BytesIO(download("xlsx")))
    return {
        "json": document,
        "csv": list(csv.reader(io.StringIO(download("csv").decode("utf-8-sig")))),
        "xlsx": {
            sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in workbook.worksheets
        },
        "pdf": pdf_text(download("pdf")),
    }


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_copy_reads_as_the_original_on_its_pages_budgets_and_exports(
    owner, language, monkeypatch
):
    # Both exported at the same moment, which each file writes down.
    moment = timezone.now()
    monkeypatch.setattr(report, "timezone", SimpleNamespace(now=lambda: moment))
    project = make_full_project(owner)
    copy = imported(api_for(owner).post(IMPORT, export_document(owner, project), format="json"))
    client = Client()
    client.force_login(owner)

    original_pages, copy_pages = pages(client, project, language), pages(client, copy, language)
    assert original_pages.keys() == copy_pages.keys()
    for name, html in original_pages.items():
        assert copy_pages[name] == html, name
    assert budgets(owner, copy, language) == budgets(owner, project, language)
    original_exports, copy_exports = (
        exports(owner, project, language),
        exports(owner, copy, language),
    )
    for name, content in original_exports.items():
        assert copy_exports[name] == content, name
    # What was compared is the budget as the settings and cost lines make it, in the language.
    caption = {"en": "Budget by fiscal year, in USD", "fr": "Budget par exercice budgétaire"}
    assert caption[language] in original_pages["Pilot budget"]
    assert "Red-teaming" in original_pages["Pilot budget"]
    assert [year["label"] for year in budgets(owner, copy, language)["Pilot"]["fiscal_years"]] == [
        "2025/26", "2026/27", "2027/28",
    ]  # fmt: skip


# Files of format version 1, made by main before exports held the budget.


def version_1_document() -> dict:
    return json.loads(VERSION_1_FILE.read_text(encoding="utf-8"))


def test_a_version_1_file_imports_with_defaults_for_what_it_lacks_and_says_which(owner):
    document = version_1_document()
    assert document["format_version"] == 1 and "cost_lines" not in str(document["project"])
    response = api_for(owner).post(IMPORT, document, format="json")
    copy = imported(response)
    assert response.json()["notes"] == [
        "The file is of format version 1, written before exports held the budget settings, "
        "timing and cost lines.",
        "The file gives no fiscal_year_start_month, fiscal_year_label, capitalisation_threshold, "
        "discount_rate, contingency_capex, contingency_opex, indirect_rate: the project has the "
        "default of each.",
        "The file gives no training_start for “Pilot”, “Pre-train”, “Wider use”: training "
        "starts at the start of the planning period, as by default.",
        "The file gives no service_start for “Pilot”, “Pre-train”, “Wider use”: serving starts "
        "once training has ended, as by default.",
        "The file gives no cost_lines for “Pilot”, “Pre-train”, “Wider use”: they have no cost "
        "lines, only their compute.",
    ]
    defaults = Project(owner=owner, title="Defaults")
    assert [getattr(copy, name) for name in SETTINGS] == [
        getattr(defaults, name) for name in SETTINGS
    ]
    assert response.json()["discount_rate"] == 0.035
    pilot = copy.scenarios.get(is_baseline=True)
    assert pilot.name == "Pilot" and pilot.inputs == RANGED_INPUTS
    assert (pilot.training_start, pilot.service_start) == (None, None)
    assert not CostLine.objects.filter(scenario__project=copy).exists()
    again = export_document(owner, copy)
    assert again["format_version"] == 2
    assert [scenario["cost_lines"] for scenario in again["project"]["scenarios"]] == [[], [], []]


def test_a_version_1_file_says_what_it_lacked_in_french_too(owner):
    response = api_for(owner, "fr").post(IMPORT, version_1_document(), format="json")
    notes = imported(response) and response.json()["notes"]
    assert len(notes) == 5
    assert notes[0].startswith("Le fichier est au format de version 1")
    assert "«\u00a0Pilot\u00a0», «\u00a0Pre-train\u00a0», «\u00a0Wider use\u00a0»" in notes[4]


def test_the_import_page_shows_what_a_version_1_file_lacked(client, owner):
    client.force_login(owner)
    upload = io.BytesIO(VERSION_1_FILE.read_bytes())
    upload.name = "project.json"
    response = client.post("/projects/import/", {"file": upload}, follow=True)
    html = response.content.decode()
    assert "Project “Translation assistant” imported." in html
    assert "The file is of format version 1" in html
    assert "The file gives no cost_lines for “Pilot”, “Pre-train”, “Wider use”" in html


def test_a_version_2_file_that_leaves_out_some_fields_names_only_those(owner):
    document = export_document(owner, make_full_project(owner))
    del document["project"]["discount_rate"]
    del document["project"]["scenarios"][2]["service_start"]
    response = api_for(owner).post(IMPORT, document, format="json")
    copy = imported(response)
    assert response.json()["notes"] == [
        "The file gives no discount_rate: the project has the default of each.",
        "The file gives no service_start for “Wider use”: serving starts once training has "
        "ended, as by default.",
    ]
    assert copy.contingency_capex == Decimal("0.1") and copy.discount_rate == Decimal("0.035")
    assert copy.scenarios.get(name="Wider use").service_start is None


# A file the pages or the API would refuse is refused whole: nothing of it is created.


def with_change(document: dict, change) -> dict:
    document = copy.deepcopy(document)
    change(document["project"])
    return document


def set_line(index: int, **fields):
    return lambda project: project["scenarios"][0]["cost_lines"][index].update(fields)


REFUSED = [
    (
        "a one-off line with an end",
        set_line(0, end="2027-01-01"),
        "project.scenarios.0.cost_lines.0.end",
        "A one-off line falls in one month",
    ),
    (
        "a line ending before it starts",
        set_line(2, end="2025-12-01"),
        "project.scenarios.0.cost_lines.2.end",
        "The end is before the start.",
    ),
    (
        "a negative unit price",
        set_line(1, unit_price="-1.00"),
        "project.scenarios.0.cost_lines.1.unit_price",
        "A valid number is required.",
    ),
    (
        "a line's unknown field",
        set_line(1, id=7),
        "project.scenarios.0.cost_lines.1.id",
        "Unknown field.",
    ),
    (
        "a rate above 1",
        lambda project: project.update(discount_rate=1.5),
        "project.discount_rate",
        "less than or equal to 1",
    ),
    (
        "a fiscal year starting in month 13",
        lambda project: project.update(fiscal_year_start_month=13),
        "project.fiscal_year_start_month",
        "less than or equal to 12",
    ),
    (
        "a start outside the planning dates",
        lambda project: project["scenarios"][1].update(training_start="1900-01-01"),
        "project.scenarios.1.training_start",
        "Enter a date from 1 Jan 1990",
    ),
    (
        "a threshold as a number",
        lambda project: project.update(capitalisation_threshold=2500),
        "project.capitalisation_threshold",
        "A valid number is required.",
    ),
]


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_a_file_with_a_refused_setting_timing_or_line_creates_nothing(owner, change, path, message):
    project = make_full_project(owner)
    document = with_change(export_document(owner, project), change)
    response = api_for(owner).post(IMPORT, document, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()
    for part in path.split("."):
        errors = errors[int(part)] if isinstance(errors, list) else errors[part]
    assert message in str(errors)
    assert list(Project.objects.all()) == [project]
    assert CostLine.objects.count() == len(PILOT_LINES) + 1
