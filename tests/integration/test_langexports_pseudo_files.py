"""Every word of every export file in the reader's language: the project's and each scenario's
CSV, XLSX and PDF, and the portfolio's CSV and XLSX, generated in the pseudo-locale, where every
message of the catalogue becomes ⟦message⟧. A word left outside the brackets bypassed gettext
(or printed a stored code), unless it is a number, a unit or name that is the same in every
language, or data on the allow-list below, each entry with its reason.

The world holds one of everything an export prints: a scenario with input ranges (so figure,
budget and option ranges), cost lines of every kind with either class, owned hardware (its
computed lines), a served language model (serving figures), an external API and a vendor's
fine-tuning, the decision view, and a submitted baseline summed in the portfolio.
"""

import csv
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.db import transaction
from django.test import Client
from openpyxl import load_workbook

from apps.budget.models import BudgetClass, Kind
from apps.budget.services import cost_line_create
from apps.reviews.services import project_submit
from tests.factories import (
    SEED_000_TRAINING,
    TRANSLATION_INFERENCE,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.pseudo_world import API_FINE_TUNE, EXTERNAL_API
from tests.integration.test_langexports_pseudo_pages import catalogue_words
from tests.integration.test_pseudo_locale import (  # noqa: F401 (a fixture)
    AS_IS,
    INNERMOST,
    PSEUDO,
    pseudo_locale,
    without_data,
    write_pseudo_catalog,
)
from tests.pdf import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pseudo_locale")]

RANGED = {
    "training": {**SEED_000_TRAINING, "accelerator_hours": 20_000, "accelerator_count": 64},
    "inference": {**TRANSLATION_INFERENCE, "model": "llama-3.1-8b", "monthly_growth": 0.05},
    "energy_profile": "world-average-grid-hyperscale-pue",
    "ranges": {
        "training.accelerator_hours": {"low": 10_000, "high": 40_000},
        "inference.requests_per_month": {"low": 100_000, "high": 900_000},
        "inference.monthly_growth": {"low": 0.01, "high": 0.1},
    },
    "uncertainty": {"seed": 7, "samples": 1_000},
}
OWNED = {
    "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
    "inference": seed_000_inference(15_000, pricing_mode="own", provisioning="always_on"),
}
VENDOR = {"training": API_FINE_TUNE, "inference": EXTERNAL_API}

# What people typed, printed as they typed it in every language: the project's title, unit and
# description, the scenarios' names, the cost lines' names, units and bases, and the usernames.
TYPED = [
    "Translation assistant",
    "Language services",
    "Rented pilot",
    "Owned pilot",
    "Vendor API",
    "amina",
    "FTE",
    "1.5 FTE × loaded annual cost of a P3.",
    *(f"Item {index}" for index in range(len(Kind))),
]
# Names that are the same in every language, beside the catalogue's (tests/integration/
# test_langexports_pseudo_pages.catalogue_words: accelerators, language models, API models):
CODES = re.compile(
    # ISO 4217 currency codes, in headings "(USD)" and the portfolio's sheet and column;
    r"\b[A-Z]{3}\b|"
    # a fiscal year's key ("FY2026") in the portfolio CSV's year column, a contract
    # (apps.budget.fiscal_labels); the headings write it through gettext;
    r"\bFY\d{4}\b|"
    # the CSV's dates and times in ISO 8601, for machines (apps.exports.report.Report.facts);
    r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)?)?|"
    # numbers as Babel writes them in en_GB (the pseudo-locale's): "1.5k", "£", "US$", "%";
    r"\bUS\$|"
    # units whose symbol is the same in French ("GB", "TFLOP/s", "kWh" …, see AS_IS too).
    r"\b(?:GB|TB|kWh|MWh|GWh|tokens/s)\b"
)
# The CSV column that holds each figure's machine path ("training.cost"), by design unlocalised.
CSV_MACHINE_COLUMNS = {"field"}
MACHINE_PATH = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")


def _data() -> list[str]:
    return sorted({*TYPED, *catalogue_words()}, key=len, reverse=True)


def leftovers(texts: list[str], data: list[str]) -> list[str]:
    """The texts with words left once the translated messages, the data, the codes and the
    names and units the same in every language are taken out."""
    found = []
    for text in texts:
        rest = text
        while INNERMOST.search(rest):
            rest = INNERMOST.sub(" ", rest)
        rest = AS_IS.sub(" ", CODES.sub(" ", without_data(rest, data)))
        if re.search(r"[^\W\d_]", rest):
            found.append(text)
    return sorted(set(found))


def assert_translated(texts: list[str]) -> None:
    found = leftovers(texts, _data())
    assert not found, "left untranslated:\n" + "\n".join(found)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once, in a transaction rolled back at the end; each test runs in a savepoint."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield world_build()
        transaction.set_rollback(True)


def world_build() -> dict:
    owner = make_manager("amina")
    project = make_project(
        owner,
        "Translation assistant",
        unit="Language services",
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
    )
    rented = make_scenario(project, "Rented pilot", is_baseline=True, inputs=RANGED)
    classes = [BudgetClass.CAPEX, BudgetClass.OPEX, ""]
    for index, kind in enumerate(Kind):
        cost_line_create(
            scenario=rented,
            fields={
                "name": f"Item {index}",
                "kind": kind.value,
                "quantity": Decimal("1.5"),
                "unit": "FTE",
                "unit_price": Decimal("9000"),
                "recurrence": "yearly",
                "start": date(2026, 1, 1),
                "end": date(2027, 12, 31),
                "budget_class": classes[index % 3],
                "category": index % 7 + 1,
                "basis": "1.5 FTE × loaded annual cost of a P3.",
            },
            user=owner,
        )
    make_scenario(project, "Owned pilot", inputs=OWNED)
    make_scenario(project, "Vendor API", inputs=VENDOR)
    make_scenario(project, "[?]")  # no character a sheet's name may hold: the sheet is named
    rented.refresh_from_db()
    project_submit(project=project, user=owner)
    return {"owner": owner, "project": project, "rented": rented}


def download(user, path: str) -> bytes:
    client = Client()
    client.force_login(user)
    response = client.get(path, headers={"accept-language": PSEUDO})
    assert response.status_code == 200, response.content[:300]
    return response.content


def csv_texts(content: bytes) -> list[str]:
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    header, body = rows[0], rows[1:]
    machine = {i for i, name in enumerate(header) if name.strip("⟦⟧") in CSV_MACHINE_COLUMNS}
    return header + [cell for row in body for i, cell in enumerate(row) if i not in machine]


def xlsx_texts(content: bytes) -> list[str]:
    """Every text cell and sheet name, but the machine paths under a "Field" heading (the
    figures table's column that names each figure's path in the response, as the CSV's)."""
    workbook = load_workbook(io.BytesIO(content))
    texts = list(workbook.sheetnames)
    for sheet in workbook.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        machine = {i for row in rows for i, c in enumerate(row) if c == "⟦Field⟧"}
        texts += [
            c
            for row in rows
            for i, c in enumerate(row)
            if isinstance(c, str) and not (i in machine and MACHINE_PATH.fullmatch(c))
        ]
    return texts


# The PDF's marks: the chart's labels and the page numbers are drawn in one font, Noto Sans,
# which has no "⟦"; it has these, which no message holds.
PDF_MARKS = ("‹", "›")
PDF_INNERMOST = re.compile(r"‹[^‹›]*›")


@pytest.fixture
def pdf_marks(settings, tmp_path_factory):
    """The pseudo-locale with the PDF's marks around every message."""
    root = tmp_path_factory.mktemp("pdf-pseudo")
    write_pseudo_catalog(root, PDF_MARKS)
    settings.LOCALE_PATHS = [root]


def pdf_leftovers(content: bytes) -> list[str]:
    """The words of the PDF outside the marks and the data, each with the text around it.

    The text is read in the order it is drawn (pdftotext -raw), so a cell's wrapped lines follow
    each other, and joined into one, so that a name or a message wrapped over lines is whole."""
    text = " ".join(pdf_text(content, raw=True).split())
    assert len(text) > 10_000, "the whole report was read"
    while PDF_INNERMOST.search(text):
        text = PDF_INNERMOST.sub(" ", text)
    text = AS_IS.sub(" ", CODES.sub(" ", without_data(text, _data())))
    return [
        text[max(0, m.start() - 30) : m.end() + 30] for m in re.finditer(r"\S*[^\W\d_]\S*", text)
    ]


def test_the_check_finds_a_word_outside_the_brackets():
    assert leftovers(["⟦Kind⟧", "staff", "USD", "1,234.5", "Rented pilot"], _data()) == ["staff"]
    assert leftovers(["⟦Training⟧: tokens"], []) == ["⟦Training⟧: tokens"]


@pytest.mark.parametrize("kind", ["projects", "scenarios"])
def test_every_word_of_a_csv_export_is_in_the_readers_language(world, kind):
    subject = world["project"] if kind == "projects" else world["rented"]
    texts = csv_texts(download(world["owner"], f"/{kind}/{subject.pk}/export.csv"))
    assert_translated(texts)


@pytest.mark.parametrize("kind", ["projects", "scenarios"])
def test_every_word_of_an_xlsx_export_is_in_the_readers_language(world, kind):
    subject = world["project"] if kind == "projects" else world["rented"]
    texts = xlsx_texts(download(world["owner"], f"/{kind}/{subject.pk}/export.xlsx"))
    assert_translated(texts)


def test_every_word_of_the_pdf_export_is_in_the_readers_language(world, pdf_marks):
    found = pdf_leftovers(download(world["owner"], f"/projects/{world['project'].pk}/export.pdf"))
    assert not found, "left untranslated:\n" + "\n".join(found)


def test_every_word_of_the_portfolio_exports_is_in_the_readers_language(world):
    reviewer = make_front_office("kofi")
    texts = csv_texts(download(reviewer, "/portfolio/export.csv"))
    assert len(texts) > 10
    assert_translated(texts)
    texts = xlsx_texts(download(reviewer, "/portfolio/export.xlsx"))
    assert_translated(texts)


def test_the_world_prints_every_part_an_export_has(world):
    """The check above reads what is there: each part it is meant to cover is."""
    fields = {
        row[-1]
        for row in csv.reader(
            io.StringIO(
                download(world["owner"], f"/projects/{world['project'].pk}/export.csv").decode(
                    "utf-8-sig"
                )
            )
        )
    }
    for prefix in (
        "inputs.ranges.",
        "inputs.uncertainty.",
        "inputs.training.method",
        "inputs.inference.model",
        "inputs.inference.provisioning",
        "inputs.energy_profile",
        "uncertainty.figures.",
        "inference.serving.",
        "budget.uncertainty.",
        "options.options.",
        "options.uncertainty.",
        "training.thresholds.",
    ):
        assert any(field.startswith(prefix) for field in fields), prefix
    kinds = {field for field in fields if re.fullmatch(r"budget\.lines\.\d+\.kind", field)}
    assert len(kinds) >= len(Kind) + 2  # every kind, and the computed lines
