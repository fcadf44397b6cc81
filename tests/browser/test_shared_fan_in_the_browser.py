"""The fan on a shared version in Chromium: a board member opening the link sees the cumulative
cost's 90 % band as it was saved, told apart without colour, with its table of percentiles;
axe-clean at 1280 and 390 px; nothing moves under reduced motion."""

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
)
from tests.browser.test_ranges import (  # noqa: F401 - fixtures
    chart_state,
    expect_the_fan_and_its_table,
    fan_table,
    scenario,
    shared_path,
)


def test_the_shared_version_draws_its_fan_and_table_and_passes_axe(
    page: Page,
    viewport: dict,
    live_server,
    shared_path,  # noqa: F811
) -> None:
    page.goto(shared_path)
    expect_the_fan_and_its_table(page)
    expect(fan_table(page)).to_contain_text("(seed 7)")  # as the version was saved
    assert_no_axe_violations_at_each_width(page, "shared version with its fan,")


def test_nothing_moves_on_the_shared_fan_under_reduced_motion(
    new_page,
    live_server,
    shared_path,  # noqa: F811
) -> None:
    page = new_page(reduced_motion="reduce")
    page.goto(shared_path)
    page.wait_for_function("() => window.Chart && window.Chart.getChart('chart-fan')")
    state = chart_state(page)
    assert state["animation"] is False
    assert state["running"] == 0
    expect(fan_table(page).get_by_role("row")).not_to_have_count(0)
