"""Exports and share links carry the decision view: the options compared, their totals and net
present value, the cheapest, what would flip it and where the costs cross, as the options API
answers them (exports) or as they were when the version was saved (share links)."""

import io
import json
from dataclasses import replace
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.estimates.record import dump
from apps.options.kept import version_options
from apps.options.representation import options_representation
from apps.sharing import services
from tests.factories import make_translation_assistant
from tests.integration.test_exports import client_for, csv_rows, download
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(owner):
    return make_translation_assistant(owner)


def api_options(user, scenario) -> dict:
    response = client_for(user).get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert response.status_code == 200
    return response.json()


def test_json_carries_the_options_exactly_as_the_api(owner, scenario):
    api = api_options(owner, scenario)
    document = json.loads(download(owner, "scenario", scenario, "json", "api"))
    (exported,) = document["project"]["scenarios"]
    assert exported["options"] == api
    assert {o["key"] for o in api["options"]} == {
        "external_api",
        "rent_pay_per_use",
        "rent_always_on",
        "rent_committed",
        "own",
    }


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_carries_every_option_total_npv_cheapest_and_crossover(owner, scenario, via):
    api = api_options(owner, scenario)
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    by_field = {r["field"]: r for r in rows if r["field"].startswith("options.")}
    for n, option in enumerate(api["options"]):
        assert Decimal(by_field[f"options.options.{n}.total"]["value"]) == Decimal(option["total"])
        assert Decimal(by_field[f"options.options.{n}.npv"]["value"]) == Decimal(option["npv"])
        assert by_field[f"options.options.{n}.npv"]["unit"] == "USD"
    cheapest = by_field["options.cheapest"]
    assert cheapest["value"] == "Self-host on rented accelerators, pay per use"
    assert api["cheapest"] == "rent_pay_per_use"
    assert by_field["options.condition.text"]["value"] == api["condition"]["text"]
    for n, crossover in enumerate(api["crossovers"]):
        row = by_field[f"options.crossovers.{n}.requests_per_month"]
        assert float(row["value"]) == pytest.approx(crossover["requests_per_month"])
        assert row["unit"] == "requests a month"


def test_xlsx_has_the_options_table_with_money_as_numbers(owner, scenario):
    api = api_options(owner, scenario)
    book = load_workbook(io.BytesIO(download(owner, "scenario", scenario, "xlsx", "api")))
    sheet = book[book.sheetnames[1]]
    cells = [[c.value for c in row] for row in sheet.iter_rows()]
    (title,) = [i for i, row in enumerate(cells) if row[0] == "Options compared (decision view)"]
    header = cells[title + 1]
    npv = header.index("Net present value (USD)")
    body = cells[title + 2 : title + 2 + len(api["options"])]
    assert [row[npv] for row in body] == [float(o["npv"]) for o in api["options"]]
    assert any(str(row[0]).startswith("Cheapest by net present value: Self-host") for row in cells)


def test_pdf_prints_the_options_and_the_cheapest(owner, scenario):
    api = api_options(owner, scenario)
    text = pdf_text(download(owner, "scenario", scenario, "pdf", "api"))
    assert "Options compared (decision view)" in text
    assert "Cheapest by net present value: Self-host on rented accelerators, pay per use." in text
    own = next(o for o in api["options"] if o["key"] == "own")
    assert f"{Decimal(own['npv']):,.2f}" in text


def test_a_share_link_shows_the_decision_view_as_it_was_saved(client, owner, scenario):
    version = scenario.versions.get(number=scenario.version)
    kept = options_representation(version_options(version))
    assert kept == api_options(owner, scenario)
    _link, token = services.share_link_create(subject=version, user=owner, label="Board")
    html = client.get(f"/s/{token}/").content.decode()
    assert "Which way to go: the options compared, as saved" in html
    assert "Cheapest by net present value: Self-host on rented accelerators, pay per use" in html
    assert html.count("<tr") >= len(kept["options"]) + 1
    own = next(o for o in kept["options"] if o["key"] == "own")
    assert f'<data value="{own["npv"]}">' in html
    # Drawn from what was kept with the version, not compared again.
    options = version_options(version)
    first, *others = options.comparison.options
    comparison = replace(options.comparison, options=(replace(first, npv=Decimal("1.25")), *others))
    version.budget["options"] = dump(replace(options, comparison=comparison))
    version.save()
    assert '<data value="1.25">' in client.get(f"/s/{token}/").content.decode()
