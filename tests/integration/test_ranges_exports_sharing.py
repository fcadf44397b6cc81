"""Exports, versions and share links of a scenario with ranges carry the ranges, the seed and the
percentiles of the headline figures, in the scenario page's words where people read them."""

import re
from decimal import Decimal

import pytest

from apps.projects.versions import version_estimate
from apps.sharing import services as sharing
from tests.factories import make_project, make_scenario
from tests.integration.test_exports import (
    api_estimate,
    csv_figure,
    csv_rows,
    download,
    xlsx_figures,
)
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS, text
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Ranged"), "Pilot", inputs=RANGED_INPUTS)


def test_the_version_keeps_the_ranges_the_seed_and_the_percentiles(scenario):
    version = scenario.versions.get(number=scenario.version)
    assert version.inputs["ranges"] == RANGED_INPUTS["ranges"]
    assert version.inputs["uncertainty"]["seed"] == 7
    kept = version_estimate(version).ranges
    assert (kept.samples, kept.seed) == (2_000, 7)
    assert isinstance(kept.figures["training.cost"].p50, Decimal)
    assert kept.figures["comparison.break_even_months"].probability_never is not None


def test_csv_carries_input_ranges_seed_and_percentiles_as_the_api_gives_them(owner, scenario):
    rows = csv_rows(download(owner, "scenario", scenario, "csv", "api"))
    api = api_estimate(owner, scenario)["uncertainty"]
    assert csv_figure(rows, "Pilot", "inputs.ranges.training.accelerator_hours") == (
        "between 100 and 400"
    )
    assert csv_figure(rows, "Pilot", "inputs.uncertainty.seed") == "7"
    assert csv_figure(rows, "Pilot", "uncertainty.seed") == "7"
    assert csv_figure(rows, "Pilot", "uncertainty.samples") == "2000"
    for key in ("p5", "p50", "p95", "mean"):
        cell = csv_figure(rows, "Pilot", f"uncertainty.figures.training.cost.{key}")
        assert Decimal(cell) == Decimal(api["figures"]["training.cost"][key])
    never = csv_figure(
        rows, "Pilot", "uncertainty.figures.comparison.break_even_months.probability_never"
    )
    assert float(never) == api["figures"]["comparison.break_even_months"]["probability_never"]
    (row,) = [r for r in rows if r["field"] == "uncertainty.figures.training.cost.p95"]
    assert row["section"] == "Ranges (90 % intervals)"
    assert row["figure"] == "Training: Cost, 95th percentile" and row["unit"] == "USD"


def test_xlsx_carries_the_percentiles_as_numbers(owner, scenario):
    figures = xlsx_figures(download(owner, "scenario", scenario, "xlsx", "page"), "Pilot")
    api = api_estimate(owner, scenario)["uncertainty"]["figures"]
    cell = figures["uncertainty.figures.training.cost.p50"]
    assert isinstance(cell.value, (int, float)) and cell.number_format == "#,##0.00"
    assert Decimal(str(cell.value)) == Decimal(api["training.cost"]["p50"])
    assert figures["uncertainty.seed"].value == 7
    hours = figures["uncertainty.figures.training.accelerator_hours.p5"].value
    assert hours == pytest.approx(api["training.accelerator_hours"]["p5"])


def test_pdf_says_how_sure_in_the_scenario_pages_words(client, owner, scenario):
    words = " ".join(pdf_text(download(owner, "scenario", scenario, "pdf", "page")).split())
    assert "How sure: 90 % ranges" in words
    assert re.search(
        r"Training cost: central estimate \$590 \(9 in 10 chance between \$\d+ and", words
    )
    assert "From 2,000 Monte Carlo samples (seed 7)" in words
    client.force_login(owner)
    page = text(client.get(f"/scenarios/{scenario.pk}/").content.decode())
    assert "Training cost : central estimate $590 (9 in 10 chance between" in page


def test_json_holds_the_ranges_seed_and_percentiles(owner, scenario):
    import json

    document = json.loads(download(owner, "scenario", scenario, "json", "api"))
    (stored,) = document["project"]["scenarios"]
    assert stored["inputs"]["ranges"] == RANGED_INPUTS["ranges"]
    assert stored["inputs"]["uncertainty"] == {"seed": 7, "samples": 2_000}
    assert stored["results"]["uncertainty"]["figures"]["inference.total.cost"]["p95"]


def test_a_share_link_shows_the_ranges_and_intervals_as_the_scenario_page_does(
    client, owner, scenario
):
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board")
    client.force_login(owner)
    page = text(client.get(f"/scenarios/{scenario.pk}/").content.decode())
    client.logout()
    shared = text(client.get(f"/s/{token}/").content.decode())
    sentence = re.search(r"Training cost : central estimate [^)]*\)", page).group(0)
    assert sentence in shared
    never = re.search(r"\d+% of the samples never break even within the horizon", page).group(0)
    assert never in shared
    assert "Accelerator-hours : between 100 and 400" in shared
    assert "Requests in the first month : between 5,000 and 50,000" in shared
    assert "sampled with seed 7" in shared


def test_a_share_link_without_ranges_says_nothing_of_them(client, owner):
    scenario = make_scenario(make_project(owner, "Plain"))
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board")
    shared = text(client.get(f"/s/{token}/").content.decode())
    assert "9 in 10 chance" not in shared and "Ranges given" not in shared
