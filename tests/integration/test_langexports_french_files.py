"""Exports in the reader's language: a French reader's CSV, XLSX and PDF have French headers
and words; the JSON keeps its keys and values as they are in every language."""

import csv
import datetime
import io
import json
import re

import pytest
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.budget.services import cost_line_create
from apps.reviews.services import project_submit
from tests.factories import (
    SEED_000_TRAINING,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_budget_models import STAFF
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db
INPUTS = {"training": SEED_000_TRAINING, "inference": seed_000_inference(150_000)}


@pytest.fixture
def scenario(owner):
    project = make_project(owner, "Assistant de traduction")
    return make_scenario(project, "Pilote", inputs=INPUTS, is_baseline=True)


def export(user, scenario, export_format: str, language: str, via: str = "page") -> bytes:
    if via == "page":
        client = Client()
        client.force_login(user)
        response = client.get(
            f"/projects/{scenario.project.pk}/export.{export_format}",
            headers={"accept-language": language},
        )
    else:
        client = APIClient()
        client.force_authenticate(user)
        response = client.get(
            f"/api/v1/projects/{scenario.project.pk}/export/",
            {"format": export_format},
            headers={"accept-language": language},
        )
    assert response.status_code == 200, response.content[:300]
    return response.content


@pytest.mark.parametrize("via", ["page", "api"])
def test_a_french_csv_has_french_headers_and_words(owner, scenario, via):
    rows = list(
        csv.reader(io.StringIO(export(owner, scenario, "csv", "fr", via).decode("utf-8-sig")))
    )
    assert rows[0] == ["scénario", "section", "indicateur", "valeur", "unité", "mois", "champ"]
    words = {cell for row in rows[1:] for cell in row[1:3]}
    assert {"Projet", "Titre", "Entraînement", "Coût", "Référence"} <= words
    assert "Training" not in words and "Cost" not in words
    # The machine columns stay as they are: field paths and exact numbers.
    fields = {row[6] for row in rows[1:]}
    assert "training.cost" in fields


def test_an_english_csv_keeps_its_english_headers(owner, scenario):
    rows = list(
        csv.reader(io.StringIO(export(owner, scenario, "csv", "en-gb").decode("utf-8-sig")))
    )
    assert rows[0] == ["scenario", "section", "figure", "value", "unit", "month", "field"]
    assert "Training" in {row[1] for row in rows[1:]}


@pytest.mark.parametrize("via", ["page", "api"])
def test_a_french_xlsx_has_french_sheets_and_headers(owner, scenario, via):
    workbook = load_workbook(io.BytesIO(export(owner, scenario, "xlsx", "fr", via)))
    assert workbook.sheetnames[0] == "Synthèse"
    summary = [c for row in workbook["Synthèse"].iter_rows(values_only=True) for c in row if c]
    assert {"Titre", "Scénarios", "Scénario", "Feuille", "Référence"} <= set(summary)
    sheet = [c for row in workbook["Pilote"].iter_rows(values_only=True) for c in row if c]
    assert {"Chiffres", "Section", "Chiffre", "Valeur", "Unité", "Données"} <= set(sheet)
    assert "Entraînement" in sheet
    assert not {"Figures", "Value", "Inputs", "Training"} & set(sheet)


@pytest.mark.parametrize("via", ["page", "api"])
def test_a_french_pdf_has_french_headings(owner, scenario, via):
    text = " ".join(pdf_text(export(owner, scenario, "pdf", "fr", via)).split())
    for words in (
        "Plan de calcul, exporté le",
        "Entraînement et inférence",
        "Section Chiffre Valeur Unité",
        "Données",
        "Page 1",
        # the cumulative chart's axes and legend
        "Heures-accélérateur cumulées",
        "Entraînement (ponctuel)",
        "Inférence (cumulée)",
    ):
        assert words in text
    for words in (
        "Training against inference",
        "Compute workplan",
        "Inputs",
        "Cumulative accelerator-hours",
        "Inference (cumulative)",
        "Months",
    ):
        assert words not in text


def test_the_json_is_the_same_in_every_language(owner, scenario):
    english = json.loads(export(owner, scenario, "json", "en-gb"))
    french = json.loads(export(owner, scenario, "json", "fr"))
    for document in (english, french):
        document["source"].pop("exported_at")
    assert french == english


@pytest.fixture
def budgeted(owner):
    """A scenario with a staff line (opex) and a licence (capex), beside its computed lines."""
    project = make_project(
        owner,
        "Assistant de traduction",
        period_start=datetime.date(2026, 1, 1),
        period_end=datetime.date(2026, 12, 31),
    )
    scenario = make_scenario(project, "Pilote", inputs=INPUTS, is_baseline=True)
    for number, kind, budget_class in ((1, "staff", "opex"), (2, "licence", "capex")):
        cost_line_create(
            scenario=scenario,
            fields={**STAFF, "name": f"Ligne {number}", "kind": kind, "budget_class": budget_class},
            user=owner,
        )
    scenario.refresh_from_db()
    return scenario


# The scenario form's words for the inputs, and the budget's for its kinds and classes.
FRENCH_INPUT_WORDS = (
    "Entraînement (ponctuel)",
    "Accélérateur pour l’entraînement",
    "Je connais les heures-accélérateur",
    "Heures-accélérateur",
    "Demandes le premier mois",
)
FRENCH_BUDGET_WORDS = ("Personnel", "Licences logicielles", "Calcul d’inférence", "CAPEX", "OPEX")
# The machine words these replace.
CODES = ("accelerator_hours", "nvidia-h100-sxm", "requests_per_month", "staff", "licence", "opex")


def test_a_french_csv_says_the_inputs_and_the_budget_in_french(owner, budgeted):
    content = export(owner, budgeted, "csv", "fr").decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    words = " ".join(cell for row in rows for cell in row[:6])
    for phrase in (*FRENCH_INPUT_WORDS, *FRENCH_BUDGET_WORDS):
        assert phrase in words, phrase
    assert {row[3] for row in rows} >= {"Je connais les heures-accélérateur", "NVIDIA H100 SXM"}
    assert not set(CODES) & {cell for row in rows for cell in row[:6]}
    # The machine column keeps the inputs' paths.
    assert "inputs.training.method" in {row[6] for row in rows}


def test_a_french_xlsx_says_the_inputs_and_the_budget_in_french(owner, budgeted):
    workbook = load_workbook(io.BytesIO(export(owner, budgeted, "xlsx", "fr")))
    cells = [c for row in workbook["Pilote"].iter_rows(values_only=True) for c in row]
    for phrase in (*FRENCH_INPUT_WORDS, *FRENCH_BUDGET_WORDS):
        assert phrase in cells, phrase
    assert not set(CODES) & set(cells)


def test_a_french_pdf_says_the_inputs_and_the_budget_in_french(owner, budgeted):
    text = " ".join(pdf_text(export(owner, budgeted, "pdf", "fr"), raw=True).split())
    for phrase in (*FRENCH_INPUT_WORDS, *FRENCH_BUDGET_WORDS):
        assert phrase in text, phrase
    # An input's number as French writes it, grouped by a space (a narrow no-break one, which
    # the text read folds to a plain space).
    assert "Demandes le premier mois 150 000" in text
    for code in CODES:
        assert not re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text), code


def test_a_french_portfolio_csv_has_french_headers_and_classes(owner, budgeted):
    project_submit(project=budgeted.project, user=owner)
    client = Client()
    client.force_login(owner)
    response = client.get("/portfolio/export.csv", headers={"accept-language": "fr"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
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
    ]
    assert {row[2] for row in rows[1:]} == {"CAPEX", "OPEX", ""}
