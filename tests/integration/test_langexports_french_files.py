"""Exports in the reader's language: a French reader's CSV, XLSX and PDF have French headers
and words; the JSON keeps its keys and values as they are in every language."""

import csv
import io
import json

import pytest
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.factories import (
    SEED_000_TRAINING,
    make_project,
    make_scenario,
    seed_000_inference,
)
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
