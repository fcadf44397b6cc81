"""Every page, export and share link of a project in euros shows no "$" and no "USD" but where a
price is quoted in its own currency beside its conversion: the rate's sentence ("1 USD =
0.8757 EUR (…)"), the note saying prices in USD were converted at a rate, and a catalogue price
quoted in USD in the note that converts it; a cost line entered in US dollars beside its
conversion. Pages: the figures of the project, scenario and budget pages (their budget and
comparison sections; the scenario's form states its price inputs in the catalogue's US dollars,
which the estimate converts), the decision view and the share pages; exports: CSV, XLSX, PDF
and JSON (its estimate requests apart, which state their prices in US dollars), of the project
and of a scenario."""

import io
import json
import re
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.budget.models import CostLine
from apps.reviews.services import project_submit
from apps.sharing.services import share_link_create
from tests.factories import load_ecb, make_euro_scenario
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

# What may name the dollar: a price quoted in its own currency beside its conversion.
QUOTED = (
    # A cost line's unit price in dollars, followed by the rate it is converted at.
    re.compile(r"\$[\d,.]+(?=(?:</data>)?\s*(?:<span class=\"form-note\">)?\(1\s*USD\s*=)"),
    # The rate's sentence: "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)".
    re.compile(r"1\s*USD\s*=\s*[\d.,\s\u00a0\u202f]+\s*EUR\s*\([^)]*\)"),
    # The estimate's note on its prices: "Prices in USD converted into EUR at … per USD."
    re.compile(r"Prices in USD converted into EUR at [\d.,]+ EUR per USD\."),
    # A catalogue price quoted in USD in the note that goes on to convert it.
    re.compile(r"USD per accelerator-hour: the median"),
    # A cost line's currency where it was entered in dollars, beside the amount converted.
    re.compile(r"Entered in USD"),
    re.compile(r'"(from|currency)":\s*"USD"'),  # JSON: the rate's `from`, a line's currency
)


def _unquoted(text: str) -> str:
    for pattern in QUOTED:
        text = pattern.sub("", text)
    return text


def _assert_no_dollar(what: str, text: str) -> None:
    left = _unquoted(text)
    for sign in ("$", "USD"):
        at = left.find(sign)
        assert at < 0, f"{what} shows {sign!r}: …{left[max(0, at - 400) : at + 200]}…"


@pytest.fixture
def euro_scenario(owner):
    load_ecb()
    scenario = make_euro_scenario(owner, fiscal_year_rates={"FY2027": "0.95"})
    CostLine.objects.create(
        scenario=scenario,
        name="Cloud support",
        kind="support",
        quantity=1,
        unit="contract",
        unit_price=Decimal(1000),
        currency="USD",
        recurrence="monthly",
        start=date(2026, 1, 1),
        category=4,
    )
    CostLine.objects.create(
        scenario=scenario,
        name="Swiss licence",
        kind="licence",
        quantity=1,
        unit="seat",
        unit_price=Decimal(1200),
        currency="CHF",
        recurrence="yearly",
        start=date(2026, 1, 1),
        category=7,
    )
    scenario.refresh_from_db()
    return scenario


def _content(response) -> bytes:
    assert response.status_code == 200, response.status_code
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_the_pages_of_a_euro_project_show_no_dollar(euro_scenario, owner, client):
    client.force_login(owner)
    project = euro_scenario.project
    pages = {
        "project page": project.get_absolute_url(),
        "scenario page": euro_scenario.get_absolute_url(),
        "budget page": f"/scenarios/{euro_scenario.pk}/budget/",
    }
    for what, url in pages.items():
        page = _content(client.get(url)).decode()
        for section in ("budget", "comparison"):
            if f'id="{section}"' in page:
                start = page.index(f'id="{section}"')
                _assert_no_dollar(
                    f"{what}, {section}", page[start : page.index("</section>", start)]
                )
    options = _content(client.get(f"/scenarios/{euro_scenario.pk}/options/")).decode()
    _assert_no_dollar("options page", options[options.index("<main") : options.index("</main>")])
    budget = _content(client.get(pages["budget page"])).decode()
    assert "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)" in budget
    assert "FY2027: 1 USD = 0.9500 EUR (the project&#x27;s rate for this fiscal year)" in budget
    assert "1 CHF = 1.0711 EUR (ECB reference rate of 2 June 2025)" in budget


@pytest.mark.parametrize("scope", ["project", "scenario"])
def test_the_exports_of_a_euro_project_show_no_dollar(euro_scenario, owner, client, scope):
    client.force_login(owner)
    subject = euro_scenario.project if scope == "project" else euro_scenario
    base = f"/{scope}s/{subject.pk}/export"
    csv_text = _content(client.get(f"{base}.csv")).decode("utf-8-sig")
    _assert_no_dollar("CSV", csv_text)
    assert "1 CHF = 1.0711 EUR" in csv_text
    book = load_workbook(io.BytesIO(_content(client.get(f"{base}.xlsx"))))
    cells = "\n".join(
        str(cell.value)
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.value is not None
    )
    cells += "\n".join(
        str(cell.number_format)
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
    )
    _assert_no_dollar("XLSX", cells)
    _assert_no_dollar("PDF", pdf_text(_content(client.get(f"{base}.pdf"))))
    document = json.loads(_content(client.get(f"{base}.json")))
    text = json.dumps(document, ensure_ascii=False)
    # The scenario's inputs are an estimate request, its prices in the catalogue's dollars as
    # the request states them: the rest is in euros.
    for scenario in document["project"]["scenarios"]:
        del scenario["inputs"]
    _assert_no_dollar("JSON", json.dumps(document, ensure_ascii=False))
    assert '"currency": "EUR"' in text


def test_the_share_links_of_a_euro_project_show_no_dollar(euro_scenario, owner, client):
    version = euro_scenario.versions.get(number=euro_scenario.version)
    _link, token = share_link_create(subject=version, user=owner, label="Board")
    page = _content(client.get(f"/s/{token}/")).decode()
    _assert_no_dollar("scenario share page", page[page.index("<main") : page.index("</main>")])
    snapshot = project_submit(project=euro_scenario.project, user=owner)
    _link, token = share_link_create(subject=snapshot, user=owner, label="Board")
    page = _content(client.get(f"/s/{token}/")).decode()
    _assert_no_dollar("project share page", page[page.index("<main") : page.index("</main>")])
