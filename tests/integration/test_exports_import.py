"""Importing a project from its JSON export: a lossless round trip, strict checks, permissions."""

import copy
import datetime
import json
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from apps.budget.models import CostLine
from apps.exports.json_export import MAX_IMPORT_BYTES
from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from tests.factories import (
    SEED_000_TRAINING,
    load_ecb,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db
IMPORT = "/api/v1/projects/import/"


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def importer():
    return make_manager("importer")


@pytest.fixture
def project(owner):
    project = make_project(
        owner,
        "  Translation assistant  ",
        unit="Language services",
        description="Pilot first.\n\nThen every office.",
        classification="internal",
        period_start=datetime.date(2026, 1, 1),
        period_end=datetime.date(2027, 6, 30),
    )
    project.collaborators.add(get_user_model().objects.create_user("colleague"))
    make_scenario(
        project,
        "Pilot",
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)},
        is_baseline=True,
    )
    make_scenario(project, "Chat", inputs=PRESETS_BY_SLUG["chat-service-rented"].inputs)
    make_scenario(project, "Pre-train", inputs=PRESETS_BY_SLUG["pre-train-70b"].inputs)
    make_scenario(project, "Chat", inputs={"inference": seed_000_inference(99, months=36)})
    return project


def export(user, project) -> dict:
    response = client_for(user).get(f"/api/v1/projects/{project.pk}/export/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def without_source(document: dict) -> dict:
    """The document apart from where it came from: ids, owner, status, dates."""
    document = copy.deepcopy(document)
    del document["source"]
    for scenario in document["project"]["scenarios"]:
        del scenario["source"]
    return document


def post(user, body: bytes | str | dict):
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    return client_for(user).generic("POST", IMPORT, body, content_type="application/json")


def test_export_import_export_gives_the_same_document_apart_from_its_source(
    owner, importer, project
):
    original = export(owner, project)
    response = post(importer, original)
    assert response.status_code == 201, response.content
    imported = Project.objects.get(pk=response.json()["id"])
    assert response["Location"] == f"http://testserver/api/v1/projects/{imported.pk}/"
    again = export(importer, imported)
    assert without_source(again) == without_source(original)
    assert imported.title == "  Translation assistant  "
    assert again["source"]["owner"] == "importer"
    assert again["source"]["collaborators"] == []
    assert again["source"]["status"] == "draft"
    assert [s["version"] for s in (x["source"] for x in again["project"]["scenarios"])] == [1] * 4


def test_an_import_is_a_new_project_nobody_else_can_reach(owner, importer, project):
    response = post(importer, export(owner, project))
    imported = Project.objects.get(pk=response.json()["id"])
    assert imported.owner == importer and imported.pk != project.pk
    assert project.scenarios.count() == 4 and imported.scenarios.count() == 4
    assert client_for(owner).get(f"/api/v1/projects/{imported.pk}/export/").status_code == 404
    assert imported.scenarios.get(is_baseline=True).name == "Pilot"


def test_a_scenario_export_imports_as_a_project_with_that_scenario(owner, importer, project):
    scenario = project.scenarios.get(name="Pre-train")
    document = json.loads(client_for(owner).get(f"/api/v1/scenarios/{scenario.pk}/export/").content)
    response = post(importer, document)
    assert response.status_code == 201
    imported = Project.objects.get(pk=response.json()["id"]).scenarios.get()
    assert imported.name == "Pre-train" and imported.inputs == scenario.inputs


def test_results_in_the_file_are_ignored_and_worked_out_again(owner, importer, project):
    document = export(owner, project)
    document["project"]["scenarios"][0]["results"]["training"]["cost"] = "0.01"
    imported = Project.objects.get(pk=post(importer, document).json()["id"])
    again = export(importer, imported)
    assert again["project"]["scenarios"][0]["results"]["training"]["cost"] == "599.00"


def minimal(**project) -> dict:
    return {
        "format": "compute-planner-project",
        "format_version": 1,
        "project": {
            "title": "Imported",
            "scenarios": [
                {"name": "Pilot", "is_baseline": True, "inputs": {"training": SEED_000_TRAINING}}
            ],
            **project,
        },
    }


def test_a_hand_written_document_with_only_the_required_fields_imports(importer):
    response = post(importer, minimal())
    assert response.status_code == 201, response.content
    project = Project.objects.get(pk=response.json()["id"])
    assert (project.classification, project.currency, project.unit) == ("public", "USD", "")


def scenario_with(**changes) -> dict:
    return {"name": "Pilot", "inputs": {"training": SEED_000_TRAINING}, **changes}


BAD_DOCUMENTS = [
    ("not JSON", b"title,unit\nx,y", "detail", "not valid JSON"),
    ("empty", b"", "format", "required"),
    ("Latin-1", '{"title": "Zürich"}'.encode("latin-1"), "detail", "not UTF-8"),
    ("NaN", b'{"format_version": NaN}', "detail", "not valid JSON"),
    ("nesting", b"[" * 50_000 + b"]" * 50_000, "detail", "not valid JSON"),
    ("a list", b"[]", "non_field_errors", "Expected a dictionary"),
    ("another format", {**minimal(), "format": "excel"}, "format", "not a valid choice"),
    ("a later version", {**minimal(), "format_version": 3}, "format_version", "version 3"),
    ("unknown field", {**minimal(), "owner": "admin"}, "owner", "Unknown field"),
    ("no title", minimal(title=""), "project.title", "may not be blank"),
    ("long title", minimal(title="x" * 201), "project.title", "no more than 200"),
    ("currency", minimal(currency="EURO"), "project.currency", "not a valid choice"),
    # An active currency no rate held converts into (no ECB rates loaded here).
    ("currency without rate", minimal(currency="EUR"), "project.currency", "No exchange rate"),
    (
        "period",
        minimal(period_start="2027-01-01", period_end="2026-01-01"),
        "project.period_end",
        "before its start",
    ),
    (
        "two baselines",
        minimal(scenarios=[scenario_with(is_baseline=True), scenario_with(is_baseline=True)]),
        "project.scenarios",
        "At most one",
    ),
    (
        "too many scenarios",
        minimal(scenarios=[scenario_with()] * 101),
        "project.scenarios",
        "no more than 100",
    ),
    (
        "unknown input",
        minimal(scenarios=[scenario_with(inputs={"training": {**SEED_000_TRAINING, "gpus": 8}})]),
        "project.scenarios.0.inputs.training.gpus",
        "Unknown field",
    ),
    (
        "input as text",
        minimal(
            scenarios=[
                scenario_with(inputs={"training": {**SEED_000_TRAINING, "accelerator_hours": "9"}})
            ]
        ),
        "project.scenarios.0.inputs.training.accelerator_hours",
        "Enter a number",
    ),
    (
        "unknown accelerator",
        minimal(
            scenarios=[
                scenario_with(inputs={"training": {**SEED_000_TRAINING, "accelerator": "tpu-v9"}})
            ]
        ),
        "project.scenarios.0.inputs.training.accelerator",
        "tpu-v9",
    ),
    (
        "engine refuses",
        minimal(
            scenarios=[scenario_with(inputs={"inference": seed_000_inference(15_000, months=0)})]
        ),
        "project.scenarios.0.inputs.inference.months",
        "",
    ),
]


def _at(errors, path: str):
    for part in path.split("."):
        errors = errors[int(part)] if isinstance(errors, list) else errors[part]
    return errors


@pytest.mark.parametrize(
    ("body", "path", "message"),
    [case[1:] for case in BAD_DOCUMENTS],
    ids=[case[0] for case in BAD_DOCUMENTS],
)
def test_a_bad_file_gets_a_400_saying_what_is_wrong_and_creates_nothing(
    importer, body, path, message
):
    response = post(importer, body)
    assert response.status_code == 400, response.content
    assert message in str(_at(response.json(), path))
    assert not Project.objects.exists()


def test_a_file_over_the_size_limit_is_refused(importer):
    body = json.dumps({**minimal(), "padding": "x" * MAX_IMPORT_BYTES})
    response = post(importer, body)
    assert response.status_code == 400
    assert "larger than 2 MB" in response.json()["detail"]


def test_an_export_larger_than_ordinary_api_bodies_still_imports(owner, importer, project):
    twenty_years = seed_000_inference(15_000, months=240)
    make_scenario(
        project, "Long", inputs={"training": SEED_000_TRAINING, "inference": twenty_years}
    )
    document = export(owner, project)
    body = json.dumps(document)
    assert len(body) > 64 * 1024
    assert post(importer, body).status_code == 201


def test_only_managers_import_and_anonymous_callers_get_401(owner, project):
    document = export(owner, project)
    reader = get_user_model().objects.create_user("reader")
    response = post(reader, document)
    assert response.status_code == 403
    response = APIClient().post(IMPORT, document, format="json")
    assert response.status_code == 401
    assert Project.objects.count() == 1


# The import page.


def upload(content: bytes, name: str = "project.json") -> dict:
    return {"file": SimpleUploadedFile(name, content, content_type="application/json")}


def test_a_manager_imports_a_file_on_the_import_page(client, owner, importer, project):
    content = json.dumps(export(owner, project)).encode()
    client.force_login(importer)
    page = client.get("/projects/import/")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()
    response = client.post("/projects/import/", upload(content))
    imported = Project.objects.get(owner=importer)
    assert response.status_code == 302 and response["Location"] == f"/projects/{imported.pk}/"
    assert without_source(export(importer, imported)) == without_source(export(owner, project))
    followed = client.get(response["Location"])
    assert "imported" in followed.content.decode()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "The file is not valid JSON"),
        (json.dumps(minimal(title="")).encode(), "project.title: This field may not be blank."),
        (
            json.dumps(
                minimal(
                    scenarios=[
                        scenario_with(inputs={"training": {**SEED_000_TRAINING, "mfu": "x"}})
                    ]
                )
            ).encode(),
            "project.scenarios.0.inputs.training.mfu: Enter a number.",
        ),
        (b"{" + b" " * MAX_IMPORT_BYTES + b"}", "larger than 2 MB"),
    ],
)
def test_the_import_page_explains_a_bad_file_and_creates_nothing(
    client, importer, content, message
):
    client.force_login(importer)
    response = client.post("/projects/import/", upload(content))
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html and message in html
    assert not Project.objects.exists()


def test_the_import_page_is_for_managers_and_signed_in_users_only(client):
    assert client.get("/projects/import/")["Location"].startswith("/accounts/login/")
    client.force_login(get_user_model().objects.create_user("reader"))
    assert client.get("/projects/import/").status_code == 403
    assert client.post("/projects/import/", upload(b"{}")).status_code == 403


def test_a_cost_line_in_another_currency_keeps_it_through_export_and_import(
    owner, importer, project
):
    load_ecb()
    Project.objects.filter(pk=project.pk).update(
        currency="EUR",
        rate_date=datetime.date(2025, 6, 2),
        rate_low=Decimal("0.8"),
        rate_high=Decimal("0.95"),
        fiscal_year_rates={"FY2027": "0.95"},
    )
    pilot = project.scenarios.get(name="Pilot")
    CostLine.objects.create(
        scenario=pilot,
        name="Swiss licence",
        kind="licence",
        quantity=1,
        unit="seat",
        unit_price=1200,
        currency="CHF",
        recurrence="monthly",
        start=datetime.date(2026, 1, 1),
        category=7,
    )
    original = export(owner, project)
    [exported] = next(s for s in original["project"]["scenarios"] if s["name"] == "Pilot")[
        "cost_lines"
    ]
    assert exported["currency"] == "CHF"
    response = post(importer, original)
    assert response.status_code == 201, response.content
    imported = Project.objects.get(pk=response.json()["id"])
    line = CostLine.objects.get(scenario__project=imported)
    assert line.currency == "CHF"
    assert (imported.currency, imported.rate_date) == ("EUR", datetime.date(2025, 6, 2))
    assert (imported.rate_low, imported.rate_high) == (Decimal("0.8"), Decimal("0.95"))
    assert imported.fiscal_year_rates == {"FY2027": "0.95"}
    assert without_source(export(importer, imported)) == without_source(original)
