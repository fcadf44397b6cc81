"""The budget with ranges in headless Chromium: the summary's central estimates with 9 in 10
ranges, the table of each fiscal year's percentiles, whiskers and diamonds on the chart's bars
told apart without colour; axe-core finds no WCAG 2.2 AA violation at 1280 and 390 px, and
nothing moves under reduced motion."""

import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from apps.budget.services import cost_line_create
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.browser.test_workplans import PASSWORD, USERNAME, manager  # noqa: F401
from tests.factories import make_project, make_scenario
from tests.integration.test_budget_models import STAFF
from tests.integration.test_budget_pages_ranges import RANGED_INPUTS

pytestmark = pytest.mark.browser


@pytest.fixture
def scenario(manager):  # noqa: F811
    project = make_project(
        manager,
        "Translation assistant",
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
        contingency_opex="0.10",
    )
    scenario = make_scenario(project, "Pilot", is_baseline=True, inputs=RANGED_INPUTS)
    cost_line_create(scenario=scenario, fields=dict(STAFF))
    return scenario


def chart_state(page: Page) -> dict:
    """The budget chart as Chart.js drew it: legend labels, which fills are patterns, the
    whiskers it was given, and its animation."""
    page.wait_for_function("() => window.Chart && window.Chart.getChart('budget-chart')")
    return page.evaluate(
        """() => {
          const chart = window.Chart.getChart("budget-chart");
          return {
            labels: chart.data.datasets.map((d) => d.label),
            patterned: chart.data.datasets.map((d) => d.backgroundColor instanceof CanvasPattern),
            pointStyles: chart.data.datasets.map((d) => d.pointStyle),
            range: chart.options.plugins.yearRange.range,
            animation: chart.options.animation,
            running: document.getAnimations().length,
          };
        }"""
    )


def test_the_budget_page_with_ranges_says_how_sure_and_passes_axe(
    page: Page, live_server, scenario, viewport: dict
):
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    ranges = page.get_by_role("region", name="How sure the budget is: 90 % ranges")
    expect(ranges).to_contain_text(
        re.compile(r"Total over the period: central estimate \$[\d,.]+ (thousand )?\(9 in 10 ")
    )
    expect(ranges).to_contain_text("9 in 10 chance between")
    table = page.get_by_role("table", name=re.compile("^Each fiscal year’s total"))
    expect(table).to_contain_text("percentiles of 2,000 samples (seed 7)")
    expect(table.get_by_role("columnheader")).to_have_text(
        [
            "Fiscal year",
            "Low: 5th percentile (USD)",
            "Central estimate: median (USD)",
            "High: 95th percentile (USD)",
        ]
    )
    expect(table.get_by_role("rowheader")).to_have_text(["FY2026", "FY2027"])
    state = chart_state(page)
    # Capex solid, opex hatched, contingency dotted; the whisker and the diamond in the legend.
    assert state["labels"] == [
        "Capital expenditure (capex)",
        "Operating expenditure (opex)",
        "Contingency and indirect costs",
        "Year’s total: 9 in 10 chance between the whisker’s ends",
        "Year’s total: central estimate (median)",
    ]
    assert state["patterned"][:3] == [False, True, True]
    assert state["pointStyles"][3:] == ["line", "rectRot"]
    assert len(state["range"]["p50"]) == 2
    assert all(
        low < middle < high
        for low, middle, high in zip(
            *(state["range"][k] for k in ("p5", "p50", "p95")), strict=True
        )
    )
    assert_no_axe_violations_at_each_width(page, "budget page with ranges")
    page.goto(f"/scenarios/{scenario.pk}/")
    expect(page.get_by_role("region", name="How sure the budget is: 90 % ranges")).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "scenario page with the budget's ranges")


def test_nothing_moves_on_the_budget_chart_under_reduced_motion(new_page, live_server, scenario):
    page = new_page(reduced_motion="reduce")
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    state = chart_state(page)
    assert state["range"] is not None
    assert state["animation"] is False
    assert state["running"] == 0
