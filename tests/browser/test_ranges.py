"""Ranges on the scenario page in headless Chromium: a manager gives a 90 % range (typed, or a
typical one), sees central estimates with 9 in 10 ranges live and after saving, and gets an error
beside a bad range; axe-core's WCAG 2.2 AA rules at 1280 and 390 px on the form with ranges,
with an error and with results. (Without JavaScript: tests/integration/test_scenario_page_ranges.py
posts the same form as a plain form post.)"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects import services as projects
from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import MANAGER
from apps.sharing import services as sharing
from tests.browser.conftest import (
    BOTH_VIEWPORTS,
    at_each_width,
    axe_violations,
    format_axe_violations,
    login,
    reveal,
)

USERNAME = "maria"
PASSWORD = "a-long-test-password"
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]


@pytest.fixture
def scenario(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(owner=user, title="Translation", unit="Section A")
    return project.scenarios.create(
        name=str(TRANSLATION.name), inputs=TRANSLATION.inputs, is_baseline=True
    )


def range_group(page: Page, label: str):
    """The Low and High of a number's range, once its disclosure is open."""
    return page.get_by_role("group", name=re.compile(rf"^{re.escape(label)}: I am 90 % sure"))


def range_summary(page: Page, label: str):
    """The summary of a number's range disclosure, found by the words a screen reader reads in
    it: "Add a range for <label> (…)" or "Range for <label>: …" (the label visually hidden)."""
    return page.locator("details.range-disclosure > summary").filter(
        has_text=re.compile(rf" {re.escape(label)}(?:\s*:| \()")
    )


def open_range(page: Page, label: str):
    """Opens a number's range as a user does, by clicking its summary (shown once the section's
    ranges are switched on): its Low and High."""
    reveal(range_summary(page, label)).click()
    return range_group(page, label)


def lines(page: Page):
    return page.get_by_role("region", name="How sure: 90 % ranges")


def assert_no_axe_violations(page: Page, where: str) -> None:
    violations = axe_violations(page)
    assert not violations, f"{where}:\n{format_axe_violations(violations)}"


def assert_no_axe_violations_at_each_width(page: Page, where: str) -> None:
    """At 1280 and at 390 px, the page resized in place (at_each_width)."""
    for size in at_each_width(page):
        assert_no_axe_violations(page, f"{where} at {size}")


# The flows below ran at each width (BOTH_VIEWPORTS); each now runs at one, its pages audited at
# both: typing at 1280 px, the fan and a bad range at 390 px, the shared version at 1280 px.
PHONE = pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])


def test_ranges_typed_show_live_and_after_saving_and_pass_axe(
    page: Page, live_server, scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    assert_no_axe_violations_at_each_width(page, "scenario form with range inputs")
    # Empty ranges are closed: their Low and High are out of sight until the summary is clicked.
    expect(range_group(page, "Requests in the first month")).to_have_count(0)
    requests = open_range(page, "Requests in the first month")
    assert_no_axe_violations_at_each_width(page, "scenario form with a range open")
    requests.get_by_label("Low").fill("5,000")
    requests.get_by_label("High").fill("50,000")
    # The live preview shows the ranges while typing.
    expect(lines(page)).to_contain_text("9 in 10 chance between")
    expect(lines(page)).to_contain_text("Inference cost over the horizon")
    assert_no_axe_violations_at_each_width(page, "live results with ranges")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(lines(page)).to_contain_text("central estimate")
    expect(range_group(page, "Requests in the first month").get_by_label("Low")).to_have_value(
        "5000"
    )
    # Saved, the range is drawn open and its summary says it in words.
    expect(range_summary(page, "Requests in the first month")).to_have_text(
        "Range for Requests in the first month: between 5,000 and 50,000 requests"
    )
    assert_no_axe_violations_at_each_width(page, "saved scenario with ranges")


@PHONE
def test_a_bad_range_is_an_error_beside_it_and_its_summary_link_focuses_it(
    page: Page, live_server, scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    requests = open_range(page, "Requests in the first month")
    requests.get_by_label("Low").fill("50,000")
    requests.get_by_label("High").fill("5,000")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(page.get_by_role("alert").filter(has_text="There is a problem")).to_be_visible()
    low = range_group(page, "Requests in the first month").get_by_label("Low")
    expect(low).to_have_attribute("aria-invalid", "true")
    expect(low).to_have_value("50,000")  # nothing typed is lost
    expect(page.get_by_text("is above the high end").first).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "range error")
    # The error summary's link takes the keyboard to the range at fault.
    page.get_by_role("link", name=re.compile("low: The low end")).click()
    expect(low).to_be_focused()


def test_a_typical_range_is_filled_in_with_its_source(page: Page, live_server, scenario) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    price = open_range(page, "Accelerator-hours")
    expect(price.get_by_text("Epoch AI's prior for training compute")).to_be_visible()
    with page.expect_navigation():
        price.get_by_role("button", name="Use a typical range").click()
    hours = range_group(page, "Accelerator-hours")
    expect(hours.get_by_label("Low")).to_have_value("66.66666667")
    expect(hours.get_by_label("High")).to_have_value("600")
    expect(range_summary(page, "Accelerator-hours")).to_have_text(
        "Range for Accelerator-hours: between 66.7 and 600 accelerator-hours"
    )
    expect(lines(page)).to_contain_text("Training accelerator-hours")


def tab_until_focused(page: Page, target, presses: int = 4) -> None:
    """Presses Tab until `target` has the focus, as a keyboard user moves through the form."""
    for _ in range(presses):
        if target.evaluate("(element) => element === document.activeElement"):
            return
        page.keyboard.press("Tab")
    expect(target).to_be_focused()


def switch_ranges_on_by_keyboard(page: Page, section: str) -> None:
    toggle = page.locator(f"fieldset[data-section='{section}'] .ranges-toggle")
    toggle.focus()
    page.keyboard.press("Space")
    expect(toggle).to_be_checked()


@BOTH_VIEWPORTS
def test_a_keyboard_user_opens_a_range_with_enter_or_space_and_types_it(
    page: Page, viewport: dict, live_server, scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    label = "Requests in the first month"
    # Ranges are switched on for a section at once, from the keyboard too.
    switch_ranges_on_by_keyboard(page, "inference")
    page.get_by_label(f"{label}:", exact=True).focus()  # Django's label ends with ":"
    summary = range_summary(page, label)
    tab_until_focused(page, summary)
    page.keyboard.press("Enter")
    group = range_group(page, label)
    expect(group).to_be_visible()
    assert_no_axe_violations(page, f"a range opened from the keyboard, {viewport['width']}px")
    page.keyboard.press("Tab")
    expect(group.get_by_label("Low")).to_be_focused()
    page.keyboard.type("5,000")
    page.keyboard.press("Tab")
    expect(group.get_by_label("High")).to_be_focused()
    page.keyboard.type("50,000")
    # The live preview redraws the figures beside the form, not the form: the range stays
    # open and the caret where it was.
    expect(lines(page)).to_contain_text("9 in 10 chance between")
    expect(group.get_by_label("High")).to_be_focused()
    expect(group).to_be_visible()
    # A range with a value does not close: its summary cannot say what was typed since.
    summary.focus()
    page.keyboard.press("Enter")
    expect(group).to_be_visible()
    # Space opens a summary too.
    switch_ranges_on_by_keyboard(page, "training")
    hours = range_summary(page, "Accelerator-hours")
    hours.focus()
    page.keyboard.press("Space")
    expect(range_group(page, "Accelerator-hours")).to_be_visible()


def test_nothing_moves_when_a_range_opens_under_reduced_motion(
    new_page, live_server, scenario
) -> None:
    page = new_page(reduced_motion="reduce")
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    expect(open_range(page, "Requests in the first month")).to_be_visible()
    assert page.evaluate("() => document.getAnimations().length") == 0


def fan(page: Page):
    return page.get_by_role("figure", name=re.compile("^How sure the cumulative cost is"))


def fan_table(page: Page):
    return page.get_by_role("table", name=re.compile("^Cumulative inference cost by month"))


def chart_state(page: Page) -> dict | None:
    """The fan chart as Chart.js drew it: its datasets' labels and dashes, and its animation."""
    return page.evaluate(
        """() => {
          const chart = window.Chart && window.Chart.getChart("chart-fan");
          if (!chart) return null;
          return {
            labels: chart.data.datasets.map((d) => d.label),
            dashes: chart.data.datasets.map((d) => (d.borderDash || []).join(",")),
            animation: chart.options.animation,
            running: document.getAnimations().length,
          };
        }"""
    )


def expect_the_fan_and_its_table(page: Page) -> None:
    """The fan drawn, its table's columns and first month, and its lines told apart."""
    expect(fan(page)).to_be_visible()
    table = fan_table(page)
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


@PHONE
def test_the_fan_and_its_table_appear_live_and_after_saving_and_pass_axe(
    page: Page, live_server, scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    expect(fan(page)).to_have_count(0)  # no ranges, no fan
    requests = open_range(page, "Requests in the first month")
    requests.get_by_label("Low").fill("5,000")
    requests.get_by_label("High").fill("50,000")
    # While typing: the fan, its words and its table of percentiles.
    expect_the_fan_and_its_table(page)
    expect(fan(page)).to_contain_text("never break even within the horizon")
    assert_no_axe_violations_at_each_width(page, "live fan and its table")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(fan_table(page).get_by_role("row")).not_to_have_count(0)
    page.wait_for_function("() => window.Chart && window.Chart.getChart('chart-fan')")
    assert_no_axe_violations_at_each_width(page, "saved scenario with its fan")


def test_nothing_moves_on_the_fan_under_reduced_motion(new_page, live_server, scenario) -> None:
    page = new_page(reduced_motion="reduce")
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    requests = open_range(page, "Requests in the first month")
    requests.get_by_label("Low").fill("5,000")
    requests.get_by_label("High").fill("50,000")
    page.wait_for_function("() => window.Chart && window.Chart.getChart('chart-fan')")
    state = chart_state(page)
    assert state["animation"] is False
    assert state["running"] == 0


@pytest.fixture
def shared_path(scenario) -> str:
    """The share link of the scenario's version with a range on its demand (seed 7)."""
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


def test_a_shared_version_with_ranges_says_how_sure_and_passes_axe(
    page: Page, live_server, shared_path
) -> None:
    page.goto(shared_path)
    expect(lines(page)).to_contain_text("9 in 10 chance between")
    ranges = page.get_by_role("region", name=re.compile("^Ranges given"))
    expect(ranges).to_contain_text("Requests in the first month: between 5,000 and 50,000")
    expect(ranges).to_contain_text("sampled with seed 7")
    assert_no_axe_violations_at_each_width(page, "shared version with ranges")
