"""The options' ranges where they are kept and exported: the options record saved with each
version keeps each option's percentiles (5th, 50th, 95th and mean of its total, net present value
and cost per request), the share of samples in which it is the cheapest and the seed; share and
version pages show them as kept, in the pages' words and as a data table, in English and French
(records kept without them still show); and the exports carry them: CSV, XLSX and PDF in the
reader's language, JSON as the options API answers, in every language."""

import io
import json
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from apps.estimates.record import dump
from apps.options.kept import version_options
from apps.options.representation import options_representation
from apps.reviews.services import project_submit
from apps.sharing import services
from tests.factories import TRANSLATION_INFERENCE, make_project, make_scenario
from tests.integration.test_exports import client_for, csv_rows, download
from tests.integration.test_langexports_french_files import export
from tests.integration.test_scenario_page_ranges import text
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

# French typography: a no-break space before the colon, a narrow one before the percent sign.
FRENCH_RANGES_SECTION = "Options comparées\u00a0: plages (intervalles à 90\u202f%)"

RANGED = {
    "inference": TRANSLATION_INFERENCE,
    "ranges": {"inference.requests_per_month": {"low": 50_000, "high": 3_000_000}},
    "uncertainty": {"samples": 2_000, "seed": 3},
}
STATISTICS = ("p5", "p50", "p95", "mean")


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Assistant", period_start=date(2027, 1, 1), period_end=date(2028, 12, 31)
    )
    return make_scenario(project, "Pilote", inputs=RANGED, is_baseline=True)


def api_ranges(user, scenario) -> dict:
    response = client_for(user).get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert response.status_code == 200
    return response.json()


def words(content: bytes) -> str:
    return " ".join(pdf_text(content).split())


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_has_every_options_percentiles_cheapest_share_seed_and_samples(owner, scenario, via):
    api = api_ranges(owner, scenario)
    uncertainty = api["uncertainty"]
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    by_field = {r["field"]: r for r in rows if r["field"].startswith("options.uncertainty.")}
    assert by_field["options.uncertainty.seed"]["value"] == "3"
    assert by_field["options.uncertainty.samples"]["value"] == "2000"
    for option in api["options"]:
        key = option["key"]
        for figure in ("total", "npv", "cost_per_request"):
            for statistic in STATISTICS:
                row = by_field[f"options.uncertainty.figures.options.{key}.{figure}.{statistic}"]
                stored = uncertainty["figures"][f"options.{key}.{figure}"][statistic]
                assert Decimal(row["value"]) == Decimal(stored)
                assert row["unit"] == "USD"
        share = by_field[f"options.uncertainty.cheapest_share.{key}"]
        assert float(share["value"]) == uncertainty["cheapest_share"][key]
        assert share["unit"] == "share"
    row = by_field["options.uncertainty.figures.options.own.npv.p95"]
    assert row["section"] == "Options compared: ranges (90 % intervals)"
    assert row["figure"] == "Self-host on owned accelerators: Net present value, 95th percentile"
    # The spread is real: 3 million requests a month cost more than 50,000 on any per-use option.
    npv = uncertainty["figures"]["options.rent_pay_per_use.npv"]
    assert Decimal(npv["p95"]) > 10 * Decimal(npv["p5"])
    assert sum(uncertainty["cheapest_share"].values()) == pytest.approx(1)


def test_a_french_csv_names_the_ranges_in_french_with_the_same_numbers(owner, scenario):
    api = api_ranges(owner, scenario)["uncertainty"]
    rows = csv_rows(export(owner, scenario, "csv", "fr"))
    by_field = {r["champ"]: r for r in rows if r["champ"].startswith("options.uncertainty.")}
    row = by_field["options.uncertainty.figures.options.own.npv.p5"]
    assert row["section"] == FRENCH_RANGES_SECTION
    # Named as the options table's cells are ("option: column").
    assert row["indicateur"] == (
        "Héberger soi-même sur des accélérateurs en propriété: Valeur actuelle nette, 5e centile"
    )
    assert Decimal(row["valeur"]) == Decimal(api["figures"]["options.own.npv"]["p5"])
    share = by_field["options.uncertainty.cheapest_share.own"]
    assert share["indicateur"].endswith("part des tirages où elle est la moins chère")
    assert float(share["valeur"]) == api["cheapest_share"]["own"]
    assert by_field["options.uncertainty.seed"]["indicateur"] == "Graine"


def test_csv_without_ranges_has_no_option_ranges(owner):
    project = make_project(owner, "Plain")
    scenario = make_scenario(project, "Fixed", inputs={"inference": TRANSLATION_INFERENCE})
    rows = csv_rows(download(owner, "scenario", scenario, "csv", "api"))
    assert any(r["field"].startswith("options.options.") for r in rows)
    assert not any(r["field"].startswith("options.uncertainty") for r in rows)


def _table(cells: list[list], title: str) -> tuple[list, list[list]]:
    (start,) = [i for i, row in enumerate(cells) if row[0] == title]
    body = []
    for row in cells[start + 2 :]:
        if row[0] is None:
            break
        body.append(row)
    return cells[start + 1], body


def test_xlsx_has_the_percentiles_and_cheapest_shares_as_numbers(owner, scenario):
    api = api_ranges(owner, scenario)
    book = load_workbook(io.BytesIO(download(owner, "scenario", scenario, "xlsx", "api")))
    cells = [[c.value for c in row] for row in book[book.sheetnames[1]].iter_rows()]
    header, body = _table(cells, "Options compared: ranges (90 % intervals)")
    assert header[:6] == [
        "Option",
        "Figure",
        "5th percentile (USD)",
        "Median (central estimate) (USD)",
        "95th percentile (USD)",
        "Mean (USD)",
    ]
    assert len(body) == 3 * len(api["options"])
    own = [row for row in body if row[0] == "Self-host on owned accelerators"]
    assert [row[1] for row in own] == ["Total", "Net present value", "Cost per request"]
    stored = api["uncertainty"]["figures"]["options.own.npv"]
    assert own[1][2:6] == [float(stored[key]) for key in STATISTICS]
    header, shares = _table(cells, "How often each option is the cheapest")
    assert header[1] == "Share of samples in which it is the cheapest"
    assert {row[0]: row[1] for row in shares}["Self-host on owned accelerators"] == (
        api["uncertainty"]["cheapest_share"]["own"]
    )
    assert any(
        str(row[0]).startswith("From 2,000 Monte Carlo samples (seed 3) of the ranges given")
        for row in cells
    )


def test_a_french_xlsx_titles_the_ranges_in_french(owner, scenario):
    book = load_workbook(io.BytesIO(export(owner, scenario, "xlsx", "fr")))
    cells = [[c.value for c in row] for row in book["Pilote"].iter_rows()]
    header, body = _table(cells, FRENCH_RANGES_SECTION)
    assert header[2:6] == [
        "5e centile (USD)",
        "Médiane (estimation centrale) (USD)",
        "95e centile (USD)",
        "Moyenne (USD)",
    ]
    assert "Valeur actuelle nette" in {row[1] for row in body}
    _table(cells, "À quelle fréquence chaque option est la moins chère")


def test_pdf_says_how_sure_each_option_is_in_the_pages_words(owner, scenario):
    api = api_ranges(owner, scenario)["uncertainty"]
    text = words(download(owner, "scenario", scenario, "pdf", "page"))
    assert "How sure: each option's 90 % range" in text
    assert re.search(
        r"Self-host on rented accelerators, pay per use: net present value: central estimate "
        r"\$[\d,.]+ \(9 in 10 chance between \$[\d,.]+ and \$[\d,.]+\); cheapest in \d+% of "
        r"samples",
        text,
    ), text
    assert "From 2,000 Monte Carlo samples (seed 3) of the ranges given" in text
    own = api["figures"]["options.own.total"]
    assert f"{Decimal(own['p50']):,.2f}" in text  # the table of percentiles, to the cent


def test_a_french_pdf_says_it_in_french(owner, scenario):
    text = words(export(owner, scenario, "pdf", "fr"))
    assert "Degré de certitude : la fourchette à 90 % de chaque option" in text
    assert re.search(
        r"Héberger soi-même sur des accélérateurs loués, paiement à l’usage ?: valeur actuelle "
        r"nette : estimation centrale [\d  ,]+ \$US \(9 chances sur 10 d’être entre",
        text,
    ), text
    assert re.search(r"la moins chère dans \d+ % des tirages", text), text
    assert "D’après 2 000 tirages de Monte-Carlo (graine 3)" in text


def test_json_keeps_the_options_ranges_as_the_api_gives_them_in_every_language(owner, scenario):
    api = api_ranges(owner, scenario)
    documents = [json.loads(export(owner, scenario, "json", language)) for language in ("en", "fr")]
    for document in documents:
        (exported,) = document["project"]["scenarios"]
        assert exported["options"]["uncertainty"] == api["uncertainty"]


# Kept with each version, shown on share pages.


def latest(scenario):
    return scenario.versions.get(number=scenario.version)


def kept_answer(version) -> dict:
    """The options a version kept, as the options API answers them."""
    return options_representation(version_options(version))


def keep_ranges(version, ranges) -> None:
    """The version's options record with other ranges (or none), saved."""
    version.budget["options"] = dump(replace(version_options(version), ranges=ranges))
    version.save()


def shared(client, version, language: str = "en") -> str:
    _link, token = services.share_link_create(subject=version, user=version.created_by, label="B")
    response = client.get(f"/s/{token}/", headers={"accept-language": language})
    assert response.status_code == 200
    return response.content.decode()


def ranges_section(html: str) -> str:
    match = re.search(r'<section class="option-ranges".*?</section>', html, flags=re.S)
    assert match, "no ranges of the options on the page"
    return match.group(0)


def test_a_saved_version_keeps_the_options_percentiles_cheapest_shares_and_seed(owner, scenario):
    kept = kept_answer(latest(scenario))["uncertainty"]
    assert kept == api_ranges(owner, scenario)["uncertainty"]
    assert (kept["samples"], kept["seed"]) == (2_000, 3)
    assert set(kept["figures"]["options.own.npv"]) == {"p5", "p50", "p95", "mean"}
    assert "options.own.cost_per_request" in kept["figures"]
    assert sum(kept["cheapest_share"].values()) == pytest.approx(1)


def test_the_share_page_shows_each_options_range_and_how_often_it_is_cheapest(client, scenario):
    version = latest(scenario)
    kept = kept_answer(version)["uncertainty"]
    section = ranges_section(shared(client, version))
    words = text(section)
    assert "How sure: each option's 90 % range" in words
    assert "From 2,000 Monte Carlo samples of the ranges given (seed 3)" in words
    assert re.search(
        r"Self-host on rented accelerators, pay per use : net present value: central estimate "
        r"\$[\d,.]+ \(9 in 10 chance between \$[\d,.]+ and \$[\d,.]+ \); cheapest in \d+% of "
        r"samples",
        words,
    ), words
    # The data table: every percentile as kept (cost per 1,000 requests, as the options table).
    assert "Each option's percentiles (USD) and how often it is the cheapest" in words
    npv = kept["figures"]["options.own.npv"]
    for statistic in ("p5", "p50", "p95", "mean"):
        assert f'<data value="{npv[statistic]}">' in section
    share = kept["cheapest_share"]["rent_pay_per_use"]
    assert f'<data value="{share}">' in section or f'<data value="{share!r}">' in section
    assert section.count('<th scope="rowgroup"') == len(kept_answer(version)["options"])


def test_the_share_page_says_it_in_french(client, scenario):
    words = text(ranges_section(shared(client, latest(scenario), "fr")))
    assert "Degré de certitude : la fourchette à 90 % de chaque option" in words
    assert "D’après 2 000 tirages de Monte-Carlo des fourchettes données (graine 3)" in words
    assert re.search(
        r"valeur actuelle nette : estimation centrale [\d  ,]+ \$US \(9 chances sur 10 d’être "
        r"entre .+?\) ; la moins chère dans \d+ % des tirages",
        words,
    ), words
    assert "Centiles de chaque option (USD) et fréquence à laquelle elle est la moins chère" in (
        words
    )


def test_the_page_draws_the_kept_ranges_not_new_ones(client, scenario):
    version = latest(scenario)
    ranges = version_options(version).ranges
    npv = replace(ranges.figures["options.own.npv"], p95=Decimal("123456.78"))
    keep_ranges(version, replace(ranges, figures={**ranges.figures, "options.own.npv": npv}))
    assert '<data value="123456.78">' in ranges_section(shared(client, version))


def test_records_kept_before_the_ranges_or_the_cost_per_request_still_show(client, scenario):
    version = latest(scenario)
    ranges = version_options(version).ranges
    before_costs = {
        path: figure
        for path, figure in ranges.figures.items()
        if not path.endswith(".cost_per_request")
    }
    keep_ranges(version, replace(ranges, figures=before_costs))
    section = ranges_section(shared(client, version))
    assert "Net present value" in section and "Cost per 1,000 requests" not in section
    keep_ranges(version, None)
    html = shared(client, version)
    assert "Which way to go: the options compared, as saved" in html
    assert 'class="option-ranges"' not in html and "Cheapest in (share of samples)" not in html


def test_each_version_page_of_a_submitted_project_shows_its_options_ranges(client, owner):
    project = make_project(owner, "Assistant")
    make_scenario(project, "Fixed", inputs={"inference": TRANSLATION_INFERENCE}, is_baseline=True)
    make_scenario(project, "Ranged", inputs=RANGED)
    snapshot = project_submit(project=project, user=owner)
    _link, token = services.share_link_create(subject=snapshot, user=owner, label="Board")
    pages = {
        name: client.get(f"/s/{token}/{position}/").content.decode()
        for position, name in enumerate(("Fixed", "Ranged"), start=1)
    }
    assert "<strong>Ranged</strong>: snapshot of" in pages["Ranged"]
    assert 'class="option-ranges"' in pages["Ranged"]
    assert "Which way to go" in pages["Fixed"] and 'class="option-ranges"' not in pages["Fixed"]


def test_the_decision_page_shows_the_same_ranges_as_the_version_kept_today(client, owner, scenario):
    client.force_login(owner)
    live = client.get(f"/scenarios/{scenario.pk}/options/").content.decode()
    client.logout()
    assert ranges_section(live) == ranges_section(shared(client, latest(scenario)))
