"""Every UN script in every export: a title in Latin with accents, Chinese, Arabic, Cyrillic and
Spanish comes back intact from the PDF (fonts embedded, Arabic in reading order), XLSX and CSV,
of a project and of a scenario, and so do the scenario's name and a budget line's name (the
budget table is part of each export)."""

import csv
import io
import shutil
import subprocess
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.budget.services import cost_line_create
from apps.exports.pdf_fonts import missing_fonts_message, pdf_fonts
from tests.factories import make_manager, make_project, make_scenario
from tests.pdf import pdf_fonts as fonts_in
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

PARTS = ("Plan d'été", "翻译助手", "مساعد الترجمة", "Помощник", "Asistente de traducción")
TITLE = " — ".join(PARTS)
SCENARIO = "Пилот — 试点 — تجريبي"
LINE = "Серверы — 服务器 — خوادم — Servidores"
EMBEDDED_FONTS = {"NotoSans-Regular", "NotoSans-Bold", "NotoSansArabic-Bold", "DroidSansFallback"}


@pytest.fixture
def owner():
    return make_manager("amina")


@pytest.fixture
def project(owner):
    project = make_project(owner, TITLE, unit="Département — 部门 — إدارة — Отдел")
    scenario = make_scenario(project, SCENARIO, is_baseline=True)
    line = {
        "name": LINE,
        "kind": "storage",
        "quantity": Decimal(20),
        "unit": "TB-month",
        "unit_price": Decimal(25),
        "recurrence": "monthly",
        "start": date(2026, 1, 1),
        "category": 2,
    }
    cost_line_create(scenario=scenario, fields=line, user=owner)
    return project


def export(owner, project, export_format: str, of: str = "project") -> bytes:
    client = APIClient()
    client.force_login(owner)
    subject = project if of == "project" else project.scenarios.get()
    response = client.get(f"/{of}s/{subject.pk}/export.{export_format}")
    assert response.status_code == 200
    return response.content


@pytest.fixture(params=["project", "scenario"])
def pdf(request, owner, project) -> bytes:
    if not pdf_fonts().embedded:
        pytest.skip(missing_fonts_message(["the PDF fonts"]))
    return export(owner, project, "pdf", of=request.param)


def test_the_pdf_keeps_every_script_of_the_title_arabic_in_reading_order(pdf):
    text = " ".join(pdf_text(pdf).split())
    for part in PARTS:
        assert part in text, part
    # pdftotext gives right-to-left text in logical order: the first word read comes first.
    assert "مساعد الترجمة" in text and "الترجمة مساعد" not in text
    for part in [*SCENARIO.split(" — "), "部门", "إدارة", "Отдел"]:
        assert part in text, part
    assert "?" not in text.split("Project")[0], "nothing of the title fell back to a ?"


def test_the_pdfs_budget_table_keeps_every_script_of_a_lines_name(pdf):
    text = " ".join(pdf_text(pdf).split())
    for part in LINE.split(" — "):
        assert part in text, part


def test_the_pdf_embeds_every_font_it_uses(pdf):
    fonts = fonts_in(pdf)
    assert fonts.keys() >= EMBEDDED_FONTS, fonts
    assert all(fonts.values()), f"not embedded: {[n for n, e in fonts.items() if not e]}"


def test_the_pdf_properties_carry_the_title(pdf):
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo is part of poppler-utils")
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True)
    assert f"Title:           {TITLE}" in info.stdout.decode()


@pytest.mark.parametrize("of", ["project", "scenario"])
def test_the_xlsx_and_csv_cells_hold_the_title_as_typed(owner, project, of):
    workbook = load_workbook(io.BytesIO(export(owner, project, "xlsx", of)))
    cells = {
        cell for sheet in workbook for row in sheet.iter_rows(values_only=True) for cell in row
    }
    assert {TITLE, SCENARIO} <= cells
    assert LINE in cells or any(str(cell).startswith(f"{LINE}:") for cell in cells)
    rows = list(csv.reader(io.StringIO(export(owner, project, "csv", of).decode("utf-8-sig"))))
    values = {value for row in rows for value in row}
    assert {TITLE, SCENARIO} <= values
    assert any(value.startswith(f"{LINE}:") for value in values)  # "<line>: Total"
