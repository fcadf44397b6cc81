"""Sweeps in headless Chromium: a manager defines a sweep from a scenario with the point count
following what they type, runs it, follows its progress until the results appear (line chart,
heatmap, tables), with JavaScript and without; axe-core's WCAG 2.2 AA rules at desktop and phone
widths. With a broker (CI) the sweep runs on a real Celery worker; without one, in-process."""

import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import MANAGER
from tests.browser.conftest import VIEWPORTS, axe_violations, format_axe_violations, login
from tests.integration.test_sweeps_worker import own_queue, workers_on

USERNAME, PASSWORD = "sam", "a-long-test-password"
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]
SWEEP_URL = re.compile(r"/sweeps/(\d+)/(#[-\w]*)?$")


@pytest.fixture
def scenario(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(owner=user, title="Translation", unit="Section A")
    return project.scenarios.create(name="Pilot", inputs=TRANSLATION.inputs, is_baseline=True)


@pytest.fixture(scope="module")
def worker(live_server, tmp_path_factory) -> Iterator[None]:
    """A Celery worker on the test database when there is a broker (CI); else tasks run eagerly.
    One for the module's tests (it keeps no state of its own between them; starting and stopping
    one took about a third of each test's time)."""
    if not settings.CELERY_BROKER_URL:
        yield
        return
    with own_queue() as queue, workers_on(queue, tmp_path_factory.mktemp("worker")) as start:
        start()
        yield


def audit(page: Page, label: str) -> None:
    report = []
    for name, size in reversed(VIEWPORTS.items()):  # the page's own width last
        page.set_viewport_size(size)
        violations = axe_violations(page)
        if violations:
            report.append(f"{label} at {name} width:\n{format_axe_violations(violations)}")
    if report:
        pytest.fail("\n".join(report), pytrace=False)


def point_count(page: Page):
    return page.get_by_role("status").filter(has_text="point")


def test_a_manager_sweeps_demand_over_two_chips_and_reads_the_line_chart(
    page: Page, live_server, scenario, worker
):
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    page.get_by_role("link", name="Sweep: vary inputs over ranges").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sweep “Pilot”")

    first = page.get_by_role("group", name="Input 1")
    first.get_by_label("Input to vary").select_option(label="Requests in the first month")
    first.get_by_label("Range or list").select_option("log")
    first.get_by_label("Start").fill("1,000")
    first.get_by_label("Stop").fill("1e7")
    first.get_by_label("Steps").fill("25")
    expect(page.locator("#point-count")).to_have_text("This sweep computes 25 points.")
    page.get_by_label("NVIDIA H100 SXM", exact=True).check()
    page.get_by_label("NVIDIA L4", exact=True).check()
    expect(page.locator("#point-count")).to_have_text("This sweep computes 2 × 25 = 50 points.")
    first.get_by_label("Steps").fill("600000")
    expect(page.locator("#point-count")).to_contain_text("Too many points.")
    first.get_by_label("Steps").fill("25")
    first.get_by_label("Start").fill("0")
    page.get_by_role("button", name="Run the sweep").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Start: A logarithmic range needs a start and stop above 0."
    )
    expect(page.locator("#point-count")).to_have_text("This sweep computes 2 × 25 = 50 points.")
    audit(page, "the new sweep form with an error")
    page.get_by_role("group", name="Input 1").get_by_label("Start").fill("1,000")

    page.get_by_role("button", name="Run the sweep").click()
    expect(page).to_have_url(SWEEP_URL)
    polled = page.locator("#sweep-live").get_attribute("hx-trigger") is not None
    expect(page.locator(".sweep-status")).to_contain_text("Completed", timeout=60_000)
    if polled:  # the results arrived by polling, without a reload, and were announced
        expect(page.locator("#sweep-announcer")).to_have_text(
            "Sweep completed: all 50 points computed."
        )
    expect(page.locator("#sweep-progress-text")).to_have_text(
        "50 of 50 points (100%); 1 of 1 chunks."
    )
    expect(page.get_by_role("heading", name="Cheapest configurations (total cost)")).to_be_visible()
    expect(page.get_by_role("table", name="Each figure over all 50 points")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("Line chart of Total cost"))).to_be_visible()
    assert page.evaluate("() => Boolean(window.Chart && Chart.getChart('sweep-chart'))")
    page.get_by_label("Figure shown").select_option(label="User speed (latency per request)")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("figure")).to_contain_text("User speed (latency per request) against")
    audit(page, "a completed sweep with a line chart")
    assert not problems, problems


def test_without_javascript_the_form_counts_runs_and_the_heatmap_reads_as_a_table(
    page_no_js: Page, new_page, live_server, scenario, worker
):
    page = page_no_js
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/sweeps/new/")
    first = page.get_by_role("group", name="Input 1")
    first.get_by_label("Input to vary").select_option(label="Requests in the first month")
    first.get_by_label("Range or list").select_option("list")
    first.get_by_label("List of values").fill("1,000; 10,000; 100,000")
    second = page.get_by_role("group", name="Input 2 (optional)")
    second.get_by_label("Input to vary").select_option(label="Peak-to-average ratio")
    second.get_by_label("Range or list").select_option("linear")
    second.get_by_label("Start").fill("1")
    second.get_by_label("Stop").fill("0")
    second.get_by_label("Steps").fill("4")
    page.get_by_role("button", name="Count the points").click()
    expect(page.locator("#point-count")).to_have_text("This sweep computes 3 × 4 = 12 points.")
    page.get_by_role("button", name="Run the sweep").click()
    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("Stop: Peak-to-average ratio must be at least 1")
    summary.get_by_role("link").click()
    expect(
        page.get_by_role("group", name="Input 2 (optional)").get_by_label("Stop")
    ).to_be_focused()
    page.get_by_role("group", name="Input 2 (optional)").get_by_label("Stop").fill("4")
    page.get_by_role("button", name="Run the sweep").click()
    expect(page).to_have_url(SWEEP_URL)
    for _ in range(60):
        if "Completed" in page.locator(".sweep-status").inner_text():
            break
        page.wait_for_timeout(500)
        page.get_by_role("link", name="Refresh the progress").click()
    heatmap = page.get_by_role("table", name=re.compile("^Total cost"))
    expect(heatmap.get_by_role("columnheader")).to_have_count(4)
    expect(heatmap.get_by_role("rowheader")).to_have_text(["1,000", "10,000", "100,000"])
    # axe needs JavaScript: the same page, audited in a browser that runs it.
    audited = new_page()
    login(
        audited, live_server, USERNAME, PASSWORD, next_path=page.url.removeprefix(live_server.url)
    )
    expect(audited.get_by_role("table", name=re.compile("^Total cost"))).to_be_visible()
    audit(audited, "a completed sweep with a heatmap")
