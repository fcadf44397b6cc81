"""The budget's ranges on its pages: the summary's central estimates with 9 in 10 ranges, each
fiscal year's percentiles in a table, the chart's whiskers; on the scenario and project pages,
in French, and as a version kept them on share links and the version comparison."""

import json
import re
from datetime import date

import pytest

from apps.budget import selectors
from apps.budget.services import cost_line_create
from apps.projects.services import scenario_update
from apps.sharing import services as sharing
from tests.factories import (
    SEED_000_TRAINING,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration import test_budget_pages
from tests.integration.test_budget_models import STAFF
from tests.integration.test_scenario_page_ranges import text

pytestmark = pytest.mark.django_db
# Compute large enough beside the staff line for its ranges to show at two significant figures.
RANGED_INPUTS = {
    # On 64 accelerators: a week to a month of training, then a year of serving.
    "training": {**SEED_000_TRAINING, "accelerator_hours": 20_000, "accelerator_count": 64},
    "inference": seed_000_inference(1_500_000),
    "ranges": {
        "training.accelerator_hours": {"low": 10_000, "high": 40_000},
        "inference.requests_per_month": {"low": 500_000, "high": 5_000_000},
    },
    "uncertainty": {"seed": 7, "samples": 2_000},
}
owner = test_budget_pages.owner  # a manager, signed in
SENTENCE = r"central estimate \$[\d,.]+( \w+)? \(9 in 10 chance between \$[\d,.]+( \w+)? and "


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Translation assistant", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    scenario = make_scenario(project, "Pilot", is_baseline=True, inputs=RANGED_INPUTS)
    cost_line_create(scenario=scenario, fields=dict(STAFF))
    scenario.refresh_from_db()
    return scenario


def api_budget(client, scenario) -> dict:
    return client.get(f"/api/v1/scenarios/{scenario.pk}/budget/").json()


def chart_data(html: str) -> dict:
    found = re.search(
        r'<script id="budget-chart-data" type="application/json">(.*?)</script>', html
    )
    return json.loads(found.group(1))


def test_the_budget_page_says_how_sure_each_headline_total_is(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/budget/").content.decode()
    words = text(html)
    assert "How sure the budget is: 90 % ranges" in words
    for label in ("Total over the period", "Net present value"):
        assert re.search(rf"{re.escape(label)} : {SENTENCE}", words), label
    # The last twelve months are mostly the staff line: the same to two significant figures.
    assert re.search(r"Annual run-rate \(steady-state opex\) : central estimate \$", words)
    # Nothing is bought: no capex in any sample.
    assert re.search(
        r"Upfront \(capex\) : central estimate \$0 ?, the same in 9 in 10 samples", words
    )
    # Ranges are written "between … and …", never with a dash a screen reader reads as minus.
    assert not re.search(r"\$[\d,.]+ ?[–-] ?\$", words)


def test_the_years_table_and_the_chart_whiskers_are_the_apis_percentiles(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/budget/").content.decode()
    figures = api_budget(client, scenario)["uncertainty"]["figures"]
    table = re.search(r'<table class="budget-ranges-table">.*?</table>', html, re.S).group(0)
    caption = text(re.search(r"<caption[^>]*>.*?</caption>", table, re.S).group(0))
    assert "Each fiscal year’s total, contingency and indirect costs included" in caption
    assert "percentiles of 2,000 samples (seed 7)" in caption
    rows = re.findall(r"<tr><th scope=\"row\">(FY\d{4})</th>(.*?)</tr>", table, re.S)
    assert [label for label, _ in rows] == ["FY2026", "FY2027"]
    for index, (_, cells) in enumerate(rows):
        values = [float(v) for v in re.findall(r'<data value="([\d.]+)">', cells)]
        figure = figures[f"totals.total.{index}"]
        # Two significant figures, as the range sentences give them.
        for value, key in zip(values, ("p5", "p50", "p95"), strict=True):
            assert value == pytest.approx(float(figure[key]), rel=0.05)
    whiskers = chart_data(html)["range"]
    for key in ("p5", "p50", "p95"):
        assert whiskers[key] == [float(figures[f"totals.total.{i}"][key]) for i in range(2)]
    assert "a whisker spans the year’s total in 9 in 10 samples" in text(html)


def test_without_ranges_the_budget_section_says_nothing_of_them(client, owner):
    project = make_project(
        owner, "Plain", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    scenario = make_scenario(project, "Pilot", is_baseline=True)
    html = client.get(f"/scenarios/{scenario.pk}/budget/").content.decode()
    assert "How sure the budget is" not in html and "budget-ranges-table" not in html
    assert chart_data(html)["range"] is None


def test_the_scenario_page_and_the_project_page_show_the_budgets_ranges(client, scenario):
    scenario_page = text(client.get(f"/scenarios/{scenario.pk}/").content.decode())
    assert re.search(rf"Total over the period : {SENTENCE}", scenario_page)
    project_page = text(client.get(f"/projects/{scenario.project_id}/").content.decode())
    assert re.search(rf"Net present value : {SENTENCE}", project_page)


def test_the_project_page_samples_only_the_baselines_budget(client, scenario, monkeypatch):
    make_scenario(scenario.project, "Alternative", inputs=RANGED_INPUTS)
    sampled = []
    real = selectors.budget_uncertainty

    def counting(*args, **kwargs):
        sampled.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "budget_uncertainty", counting)
    assert client.get(f"/projects/{scenario.project_id}/").status_code == 200
    assert len(sampled) == 1


def test_the_budget_page_in_french_says_how_sure_in_french(client, scenario):
    html = client.get(
        f"/scenarios/{scenario.pk}/budget/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    words = text(html)
    assert "estimation centrale" in words
    assert "9 chances sur 10 d’être entre" in words
    assert "Degré de certitude du budget : fourchettes à 90" in words
    assert "How sure the budget is" not in words
    assert "Each fiscal year" not in words


def test_a_share_link_and_the_version_comparison_show_the_ranges_as_they_were_saved(
    client, owner, scenario
):
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board")
    live = text(client.get(f"/scenarios/{scenario.pk}/budget/").content.decode())
    sentence = re.search(rf"Total over the period : {SENTENCE}[^)]*\)", live).group(0)
    # Later the ranges change: the link still shows the version as it was saved.
    wider = {**RANGED_INPUTS, "ranges": {**RANGED_INPUTS["ranges"]}}
    wider["ranges"]["inference.requests_per_month"] = {"low": 5_000, "high": 500_000}
    scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=wider,
        user=owner,
        expected_version=scenario.version,
    )
    now = text(client.get(f"/scenarios/{scenario.pk}/budget/").content.decode())
    assert sentence not in now
    client.logout()
    shared = text(client.get(f"/s/{token}/").content.decode())
    assert sentence in shared
    assert "percentiles of 2,000 samples (seed 7)" in shared
    client.force_login(owner)
    compared = text(
        client.get(
            f"/scenarios/{scenario.pk}/versions/compare/?old={version.number}"
            f"&new={version.number + 1}"
        ).content.decode()
    )
    assert "How sure the budget is: 90 % ranges, as each version kept them" in compared
    kept = sentence.removeprefix("Total over the period : ")
    assert f"Total over the period {kept}" in compared
