"""Every UN script in every export: a title in Latin with accents, Chinese, Arabic, Cyrillic and
Spanish comes back intact from the PDF (fonts embedded, Arabic in reading order), XLSX and CSV."""

import csv
import io
import shutil
import subprocess

import pytest
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.exports.pdf_fonts import missing_fonts_message, pdf_fonts
from tests.factories import make_manager, make_project, make_scenario
from tests.pdf import pdf_fonts as fonts_in
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

PARTS = ("Plan d'été", "翻译助手", "مساعد الترجمة", "Помощник", "Asistente de traducción")
TITLE = " — ".join(PARTS)
SCENARIO = "Пилот — 试点 — تجريبي"
EMBEDDED_FONTS = {"NotoSans-Regular", "NotoSans-Bold", "NotoSansArabic-Bold", "DroidSansFallback"}


@pytest.fixture
def owner():
    return make_manager("amina")


@pytest.fixture
def project(owner):
    project = make_project(owner, TITLE, unit="Département — 部门 — إدارة — Отдел")
    make_scenario(project, SCENARIO, is_baseline=True)
    return project


def export(owner, project, export_format: str) -> bytes:
    client = APIClient()
    client.force_login(owner)
    response = client.get(f"/projects/{project.pk}/export.{export_format}")
    assert response.status_code == 200
    return response.content


@pytest.fixture
def pdf(owner, project) -> bytes:
    if not pdf_fonts().embedded:
        pytest.skip(missing_fonts_message(["the PDF fonts"]))
    return export(owner, project, "pdf")


def test_the_pdf_keeps_every_script_of_the_title_arabic_in_reading_order(pdf):
    text = " ".join(pdf_text(pdf).split())
    for part in PARTS:
        assert part in text, part
    # pdftotext gives right-to-left text in logical order: the first word read comes first.
    assert "مساعد الترجمة" in text and "الترجمة مساعد" not in text
    for part in [*SCENARIO.split(" — "), "部门", "إدارة", "Отдел"]:
        assert part in text, part
    assert "?" not in text.split("Project")[0], "nothing of the title fell back to a ?"


def test_the_pdf_embeds_every_font_it_uses(pdf):
    fonts = fonts_in(pdf)
    assert fonts.keys() >= EMBEDDED_FONTS, fonts
    assert all(fonts.values()), f"not embedded: {[n for n, e in fonts.items() if not e]}"


def test_the_pdf_properties_carry_the_title(pdf):
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo is part of poppler-utils")
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True)
    assert f"Title:           {TITLE}" in info.stdout.decode()


def test_the_xlsx_and_csv_cells_hold_the_title_as_typed(owner, project):
    workbook = load_workbook(io.BytesIO(export(owner, project, "xlsx")))
    cells = {
        cell for sheet in workbook for row in sheet.iter_rows(values_only=True) for cell in row
    }
    assert TITLE in cells and SCENARIO in cells
    rows = list(csv.reader(io.StringIO(export(owner, project, "csv").decode("utf-8-sig"))))
    values = {value for row in rows for value in row}
    assert TITLE in values and SCENARIO in values
