"""The fan on a shared version in Chromium: a board member opening the link sees the cumulative
cost's 90 % band as it was saved, told apart without colour, with its table of percentiles;
axe-clean at 1280 and 390 px; nothing moves under reduced motion."""

import re

import pytest
from playwright.sync_api import Page, expect

from apps.projects import services as projects
from apps.sharing import services as sharing
from tests.browser.conftest import BOTH_VIEWPORTS, assert_no_axe_violations
from tests.browser.test_ranges import (  # noqa: F401 - fixture
    TRANSLATION,
    chart_state,
    fan,
    fan_table,
    scenario,
)


@pytest.fixture
def shared_path(scenario) -> str:  # noqa: F811
    inputs = {
        **TRANSLATION.inputs,
        "ranges": {"inference.requests_per_month": {"low": 5_000, "high": 50_000}},
        "uncertainty": {"seed": 7, "samples": 2_000},
    }
    projects.scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=inputs,
        user=scenario.project.owner,
        expected_version=scenario.version,
    )
    scenario.refresh_from_db()
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(
        subject=version, user=scenario.project.owner, label="Board"
    )
    return f"/s/{token}/"


@BOTH_VIEWPORTS
def test_the_shared_version_draws_its_fan_and_table_and_passes_axe(
    page: Page, viewport: dict, live_server, shared_path
) -> None:
    page.goto(shared_path)
    expect(fan(page)).to_be_visible()
    table = fan_table(page)
    expect(table).to_contain_text("(seed 7)")
    expect(table.get_by_role("columnheader")).to_have_text(
        [
            "Month",
            re.compile(r"^Low: 5th percentile \(\w+\)$"),
            re.compile(r"^Central estimate: median \(\w+\)$"),
            re.compile(r"^High: 95th percentile \(\w+\)$"),
        ]
    )
    expect(table.get_by_role("row").nth(1).get_by_role("rowheader")).to_have_text("0")
    page.wait_for_function("() => window.Chart && window.Chart.getChart('chart-fan')")
    state = chart_state(page)
    # Told apart without colour: dashed high, dotted low, solid median, each named.
    assert state["labels"][:3] == [
        "Inference, 95th percentile (high)",
        "Inference, 5th percentile (low)",
        "Inference, central estimate (median)",
    ]
    assert state["dashes"][:3] == ["8,4", "2,3", ""]
    assert_no_axe_violations(page, f"shared version with its fan, {viewport['width']}px")


def test_nothing_moves_on_the_shared_fan_under_reduced_motion(
    new_page, live_server, shared_path
) -> None:
    page = new_page(reduced_motion="reduce")
    page.goto(shared_path)
    page.wait_for_function("() => window.Chart && window.Chart.getChart('chart-fan')")
    state = chart_state(page)
    assert state["animation"] is False
    assert state["running"] == 0
    expect(fan_table(page).get_by_role("row")).not_to_have_count(0)
