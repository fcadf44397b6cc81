"""The workplan pages in headless Chromium: a manager plans a project from a preset, changes a
scenario with live figures (JavaScript on) or by saving (JavaScript off), switches between one
request and many, adds a scenario and compares them; the charts, reduced motion, the keyboard,
and axe-core's WCAG 2.2 AA rules at desktop and phone widths on every page of the workplan."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Locator, Page, expect

from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import MANAGER
from tests.browser.conftest import VIEWPORTS, axe_violations, format_axe_violations, login

USERNAME = "maria"
PASSWORD = "a-long-test-password"
FINE_TUNE = PRESETS_BY_SLUG["fine-tune-7b"]  # "Fine-tune a 7B model and serve it on L4s"
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]
REQUESTS = "Requests in the first month"
SCENARIO_URL = re.compile(r"/scenarios/(\d+)/(\?view=(many|single))?$")


@pytest.fixture
def manager(settings):
    """A new manager, signed in by each test through the sign-in form."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    return user


@pytest.fixture
def fine_tune_scenario(manager):
    """A project with one scenario made from the fine-tune preset (12 months of inference)."""
    project = Project.objects.create(owner=manager, title="Support bot", unit="Section A")
    return project.scenarios.create(name=FINE_TUNE.name, inputs=FINE_TUNE.inputs, is_baseline=True)


def watch_for_script_errors(page: Page) -> list[str]:
    """Collect uncaught script errors and failed requests (4xx/5xx) while the test runs."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.request.method} {response.url}")
            if response.status >= 400
            else None
        ),
    )
    return problems


def create_project(page: Page, title: str, preset_name: str = FINE_TUNE.name) -> None:
    """Fill in the new-project form from the project list and land on the first scenario."""
    page.get_by_role("link", name="Plan a new project").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Plan a new project")
    page.get_by_label("Title", exact=True).fill(title)
    page.get_by_label("Organisational unit").fill("Section A")
    page.get_by_label(preset_name, exact=True).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    expect(page).to_have_url(SCENARIO_URL)
    expect(messages(page)).to_contain_text(f"Project “{title}” created")
    expect(page.get_by_role("heading", level=1)).to_have_text(preset_name)


def messages(page: Page) -> Locator:
    """The messages the last action left (Django's messages framework)."""
    return page.locator("main > .messages")


def comparison(page: Page) -> Locator:
    return page.locator("#comparison")


def figure(page: Page, term: str) -> Locator:
    """The value of a figure in the two-column comparison, found by its term."""
    return (
        comparison(page)
        .locator(".figures > div")
        .filter(has=page.locator("dt", has_text=re.compile(rf"^{re.escape(term)}$")))
        .locator("dd")
    )


def marker(page: Page, key: str) -> Locator:
    """A figure of the bottom strip: build_cost, run_cost or user_speed."""
    return page.locator(f"#strip .marker-{key} .marker-text")


def toggle(page: Page, name: str) -> Locator:
    return page.get_by_role("navigation", name="Show the decision view for").get_by_role(
        "link", name=name
    )


def expect_single_request_view(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"\?view=single$"))
    expect(toggle(page, "Single request")).to_have_attribute("aria-current", "true")
    expect(toggle(page, "Many requests")).not_to_have_attribute("aria-current", "true")
    expect(figure(page, "Cost per 1,000 requests")).to_be_visible()
    expect(figure(page, "Accelerators needed at peak")).to_have_count(0)
    expect(page.locator("#strip .marker-run_cost")).to_contain_text("per request")


def expect_many_requests_view(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"\?view=many$"))
    expect(toggle(page, "Many requests")).to_have_attribute("aria-current", "true")
    expect(toggle(page, "Single request")).not_to_have_attribute("aria-current", "true")
    expect(figure(page, "Accelerators needed at peak")).to_be_visible()
    expect(figure(page, "Cost per 1,000 requests")).to_have_count(0)


def set_marker(page: Page) -> None:
    """Mark the document: the mark survives HTMX swaps and is lost when the page reloads."""
    page.evaluate("window.__marker = 1")


def expect_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"


def live_preview(page: Page) -> Callable:
    """Wait for the next live preview's response (the #comparison partial)."""
    return page.expect_response(
        lambda response: "/preview/" in response.url and response.request.method == "POST"
    )


def add_scenario_and_compare(page: Page, first_name: str, second_preset_name: str) -> None:
    """From a scenario page: add a scenario on the project page, then compare the two."""
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link").nth(1).click()
    expect(page.get_by_role("heading", name="Add a scenario")).to_be_visible()
    page.get_by_label("Start from").select_option(label=second_preset_name)
    with page.expect_navigation():
        page.get_by_role("button", name="Add scenario").click()
    expect(page).to_have_url(SCENARIO_URL)
    expect(page.get_by_role("heading", level=1)).to_have_text(second_preset_name)
    expect(messages(page)).to_contain_text("added")
    second_id = SCENARIO_URL.search(page.url).group(1)

    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link").nth(1).click()
    # One scenario only: the page asks for two to four.
    page.get_by_label(f"Compare {first_name}").check()
    page.get_by_role("button", name="Compare selected scenarios").click()
    expect(page.get_by_role("alert")).to_have_text("Choose two to four scenarios to compare.")
    expect(page.get_by_role("table")).to_have_count(0)

    page.get_by_label(first_name).check()
    page.get_by_label(second_preset_name).check()
    page.get_by_role("button", name="Compare").click()
    expect(page).to_have_url(re.compile(rf"/projects/\d+/compare/\?s=\d+&s={second_id}$"))
    table = page.get_by_role("table", name="Scenarios side by side")
    expect(table.get_by_role("columnheader")).to_have_text(
        ["Figure", first_name, second_preset_name]
    )
    # The second scenario differs from the first in many figures: those cells are marked.
    expect(table.locator("td.differs").first).to_be_visible()
    assert table.locator("td.differs").count() >= 3
    expect(table.locator("td.differs").first).to_contain_text("changed")
    expect(table.get_by_role("rowheader").first).to_be_visible()


# 1. The whole flow with JavaScript on ----------------------------------------------------------


def test_manager_plans_with_live_figures_with_javascript(page: Page, live_server, manager) -> None:
    problems = watch_for_script_errors(page)
    login(page, live_server, USERNAME, PASSWORD, next_path="/projects/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your projects")
    expect(page.get_by_role("main")).to_contain_text("No projects yet.")
    create_project(page, "Support bot")
    expect(page).to_have_url(re.compile(r"/scenarios/\d+/$"))
    scenario_url = page.url
    expect(figure(page, "Accelerators needed at peak")).to_be_visible()  # many requests at first

    # Typing changes the figures in place: an HTMX swap of #comparison, no reload.
    requests = page.get_by_label(REQUESTS)
    expect(requests).to_have_value("100000")
    first_month = figure(page, "First month")
    run_cost = marker(page, "run_cost")
    first_month_before, run_cost_before = first_month.inner_text(), run_cost.inner_text()
    assert "100,000 requests" in first_month_before
    set_marker(page)
    with live_preview(page) as preview:
        requests.fill("1,000,000")
    assert preview.value.ok
    expect(first_month).to_contain_text("1,000,000 requests")
    expect(first_month).not_to_have_text(first_month_before)
    expect(run_cost).not_to_have_text(run_cost_before)
    expect(page.locator("#live-status")).to_have_text("Figures updated.")
    expect(requests).to_be_focused()  # the form is not swapped: typing goes on
    expect(page).to_have_url(scenario_url)
    expect_not_reloaded(page)

    # The toggle swaps the right column and the strip, and pushes ?view=single to the address.
    user_speed_many = marker(page, "user_speed").inner_text()
    with live_preview(page):
        toggle(page, "Single request").click()
    expect_single_request_view(page)
    expect(marker(page, "user_speed")).not_to_have_text(user_speed_many)
    expect(requests).to_have_value("1,000,000")  # what was typed is kept, still unsaved
    expect_not_reloaded(page)

    # Typing in the single-request view keeps that view.
    cost_per_1000 = figure(page, "Cost per 1,000 requests")
    cost_per_1000_before = cost_per_1000.inner_text()
    with live_preview(page):
        page.get_by_label("Output tokens per request").fill("500")
    expect(cost_per_1000).not_to_have_text(cost_per_1000_before)
    expect_single_request_view(page)
    expect_not_reloaded(page)

    with live_preview(page):
        toggle(page, "Many requests").click()
    expect_many_requests_view(page)
    expect(first_month).to_contain_text("1,000,000 requests")
    expect_not_reloaded(page)

    # Back and forward through the pushed addresses.
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?view=single$"))
    page.go_forward()
    expect(page).to_have_url(re.compile(r"\?view=many$"))

    # Saving stores the figures: after the reload they are the saved ones.
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(page.get_by_label(REQUESTS)).to_have_value("1000000")
    expect(page.get_by_label("Output tokens per request")).to_have_value("500")
    expect(figure(page, "First month")).to_contain_text("1,000,000 requests")
    assert page.evaluate("window.__marker") is None  # a real reload this time

    add_scenario_and_compare(page, FINE_TUNE.name, TRANSLATION.name)
    assert problems == []


# 2. The same flow with JavaScript off ----------------------------------------------------------


def test_manager_plans_by_submit_and_reload_without_javascript(
    page_no_js: Page, live_server, manager
) -> None:
    page = page_no_js
    problems = watch_for_script_errors(page)
    login(page, live_server, USERNAME, PASSWORD, next_path="/projects/")
    expect(page.get_by_role("main")).to_contain_text("No projects yet.")
    create_project(page, "Support bot")
    scenario_path = SCENARIO_URL.search(page.url).group(0)

    first_month = figure(page, "First month")
    first_month_before = first_month.inner_text()
    page.get_by_label(REQUESTS).fill("1,000,000")
    expect(first_month).to_have_text(first_month_before)  # nothing changes until saved
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(page).to_have_url(re.compile(r"\?view=many$"))
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(page.get_by_label(REQUESTS)).to_have_value("1000000")
    expect(first_month).to_contain_text("1,000,000 requests")

    # The toggle links are plain links: each loads the page in that view.
    with page.expect_navigation():
        toggle(page, "Single request").click()
    expect_single_request_view(page)
    # Saving in the single-request view comes back to it.
    page.get_by_label("Output tokens per request").fill("500")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect_single_request_view(page)
    expect(page.get_by_label("Output tokens per request")).to_have_value("500")
    with page.expect_navigation():
        toggle(page, "Many requests").click()
    expect_many_requests_view(page)
    assert scenario_path.split("?")[0] in page.url

    add_scenario_and_compare(page, FINE_TUNE.name, TRANSLATION.name)
    assert problems == []


# 3. The charts and reduced motion ---------------------------------------------------------------

CHARTS = ("chart-hours", "chart-cost")
CHART_STATE = """(ids) => ids.map((id) => {
    const canvas = document.getElementById(id);
    const chart = window.Chart && Chart.getChart(canvas);
    return {
        id,
        drawn: Boolean(chart),
        width: canvas.width,
        height: canvas.height,
        datasets: chart ? chart.data.datasets.map((d) => d.data.length) : [],
        animation: chart ? chart.options.animation : null,
        inked: chart ? canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height)
            .data.some((value, i) => i % 4 === 3 && value > 0) : false,
    };
})"""
WAIT_FOR_CHARTS = (
    "(ids) => window.Chart && ids.every((id) => Chart.getChart(document.getElementById(id)))"
)


def chart_state(page: Page) -> list[dict]:
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))
    return page.evaluate(CHART_STATE, list(CHARTS))


def expect_month_rows(page: Page, months: int) -> None:
    """The data table beside the charts: month 0 (training), then one row per month."""
    table = page.get_by_role("table", name="Cumulative figures by month (month 0 is training)")
    expect(table.locator("tbody tr")).to_have_count(months + 1)
    expect(table.locator("tbody th")).to_have_text([str(m) for m in range(months + 1)])


def test_charts_are_drawn_beside_a_table_of_every_month(
    page: Page, live_server, fine_tune_scenario
) -> None:
    problems = watch_for_script_errors(page)
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{fine_tune_scenario.pk}/")
    months = FINE_TUNE.inputs["inference"]["months"]
    expect_month_rows(page, months)
    for chart in chart_state(page):
        assert chart["drawn"] and chart["width"] > 0 and chart["height"] > 0, chart
        assert chart["datasets"] == [months + 1, months + 1], chart
        assert chart["inked"], f"nothing drawn on #{chart['id']}"
        assert chart["animation"] is not False, chart  # people who allow motion get it
    for canvas_id in CHARTS:
        box = page.locator(f"#{canvas_id}").bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, (canvas_id, box)

    # A longer horizon, typed: the table and the redrawn charts follow the swap.
    with live_preview(page):
        page.get_by_label("Planning horizon (months)").fill("24")
    expect_month_rows(page, 24)
    page.wait_for_function(
        "(ids) => ids.every((id) => Chart.getChart(document.getElementById(id))"
        "?.data.datasets[1].data.length === 25)",
        arg=list(CHARTS),
    )
    assert problems == []


def test_reduced_motion_turns_off_chart_and_css_animation(
    new_page, live_server, fine_tune_scenario
) -> None:
    page = new_page(reduced_motion="reduce")
    problems = watch_for_script_errors(page)
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{fine_tune_scenario.pk}/")
    page.wait_for_load_state("load")
    for chart in chart_state(page):
        assert chart["drawn"] and chart["width"] > 0 and chart["height"] > 0, chart
        assert chart["animation"] is False, chart
    assert page.evaluate("document.getAnimations().length") == 0
    # Still none after the figures are swapped in by a live preview.
    with live_preview(page):
        page.get_by_label(REQUESTS).fill("200,000")
    expect(figure(page, "First month")).to_contain_text("200,000 requests")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))
    assert all(chart["animation"] is False for chart in chart_state(page))
    assert page.evaluate("document.getAnimations().length") == 0
    assert problems == []


# 4. axe-core at desktop and phone widths --------------------------------------------------------


class AxeAudit:
    """Runs axe at every width of VIEWPORTS on each page state and reports all at the end."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.report: list[str] = []
        self.audited: list[str] = []

    def __call__(self, label: str) -> None:
        for name, size in VIEWPORTS.items():
            self.page.set_viewport_size(size)
            where = f"{label} at {size['width']}px ({name}, {self.page.url})"
            self.audited.append(where)
            violations = axe_violations(self.page)
            if violations:
                self.report.append(f"{where}:\n{format_axe_violations(violations)}")
        self.page.set_viewport_size(VIEWPORTS["desktop"])

    def check(self) -> None:
        if self.report:
            pytest.fail(
                f"axe found WCAG 2.2 AA violations on {len(self.report)} of "
                f"{len(self.audited)} page states:\n" + "\n".join(self.report),
                pytrace=False,
            )


def submit(page: Page, button: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=button, exact=True).click()


def test_workplan_pages_have_no_axe_violations_at_1280_and_390(
    page: Page, live_server, manager
) -> None:
    audit = AxeAudit(page)

    page.goto("/accounts/login/")
    audit("sign-in, empty")
    submit(page, "Sign in")
    expect(page.locator(".error-summary")).to_be_visible()
    audit("sign-in, with errors")

    login(page, live_server, USERNAME, PASSWORD, next_path="/projects/")
    expect(page.get_by_role("main")).to_contain_text("No projects yet.")
    audit("project list, empty")

    page.goto("/projects/new/")
    audit("new project, empty")
    page.get_by_label("Collaborators").fill("nobody-by-this-name")
    submit(page, "Create project")
    expect(page.locator(".error-summary")).to_contain_text("Title")
    audit("new project, with errors")

    page.goto("/projects/")
    create_project(page, "Support bot")
    scenario_url = page.url
    audit("scenario, with results (after creating the project)")

    with live_preview(page):
        page.get_by_label("Planning horizon (months)").fill("0")
    expect(comparison(page)).to_contain_text("The figures appear when every value is valid")
    audit("scenario, live preview with an invalid value")

    page.goto(scenario_url)
    page.get_by_label("Model FLOP utilisation (%)").fill("150")
    page.get_by_label("Planning horizon (months)").fill("abc")
    submit(page, "Save scenario")
    expect(page.locator(".error-summary")).to_be_visible()
    audit("scenario, with errors after a bad POST")

    page.goto(f"{scenario_url}?view=single")
    expect(figure(page, "Cost per 1,000 requests")).to_be_visible()
    audit("scenario, single-request view")

    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link").nth(1).click()
    expect(page.get_by_role("heading", name="Add a scenario")).to_be_visible()
    project_url = page.url
    audit("project detail")

    page.get_by_role("link", name="Edit project details and collaborators").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Edit")
    audit("project edit")

    page.goto(project_url)
    page.get_by_label("Start from").select_option(TRANSLATION.slug)
    submit(page, "Add scenario")
    ids = [str(pk) for pk in Project.objects.get().scenarios.values_list("pk", flat=True)]
    page.goto(f"{project_url}compare/?s={ids[0]}")
    expect(page.get_by_role("alert")).to_be_visible()
    audit("compare, with the two-to-four error")
    page.goto(f"{project_url}compare/?s={ids[0]}&s={ids[1]}")
    expect(page.locator("td.differs").first).to_be_visible()
    audit("compare, with results")

    page.goto("/projects/")
    expect(page.get_by_role("table")).to_be_visible()
    audit("project list, with projects")

    page.goto("/accounts/tokens/")
    expect(page.get_by_role("main")).to_contain_text("You have no API tokens yet.")
    audit("API tokens, empty")
    page.get_by_label("Name").fill("Spreadsheet")
    submit(page, "Create token")
    expect(page.get_by_role("heading", name="Your new token “Spreadsheet”")).to_be_visible()
    audit("API tokens, after creating a token")

    page.goto("/accounts/password/")
    audit("password change, empty")
    submit(page, "Change password")
    expect(page.locator(".error-summary")).to_be_visible()
    audit("password change, with errors")

    audit.check()


# 5. The keyboard --------------------------------------------------------------------------------


def tab_to(page: Page, target: Locator, *, backwards: bool = False, limit: int = 150) -> int:
    """Press Tab (or Shift+Tab) until the target has the focus; return how many presses."""
    key = "Shift+Tab" if backwards else "Tab"
    for presses in range(1, limit + 1):
        page.keyboard.press(key)
        if target.evaluate("(element) => element === document.activeElement"):
            return presses
    pytest.fail(f"{target} not reached with {limit} presses of {key}", pytrace=False)


def test_keyboard_reaches_and_works_the_toggle_save_and_error_links(
    page: Page, live_server, fine_tune_scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{fine_tune_scenario.pk}/")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))  # scripts ran
    set_marker(page)
    page.locator("body").focus()

    single = toggle(page, "Single request")
    tab_to(page, single)
    with live_preview(page):
        page.keyboard.press("Enter")
    expect_single_request_view(page)
    expect_not_reloaded(page)
    # The link was swapped for a new one: the focus stays on it rather than falling to the body.
    expect(toggle(page, "Single request")).to_be_focused()

    many = toggle(page, "Many requests")
    tab_to(page, many)
    with live_preview(page):
        page.keyboard.press("Enter")
    expect_many_requests_view(page)
    expect(toggle(page, "Many requests")).to_be_focused()

    # The Save button: after the last field typed in.
    save = page.get_by_role("button", name="Save scenario")
    page.get_by_label(REQUESTS).fill("250,000")
    tab_to(page, save)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(page.get_by_label(REQUESTS)).to_have_value("250000")

    # A bad value: the error summary's links move the focus to the field.
    page.get_by_label("Planning horizon (months)").fill("abc")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").press("Enter")
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("There is a problem")
    link = summary.get_by_role("link", name=re.compile(r"^Planning horizon \(months\):"))
    page.locator("body").focus()
    tab_to(page, link)
    page.keyboard.press("Enter")
    expect(page.get_by_label("Planning horizon (months)")).to_be_focused()
    expect(page.get_by_label("Planning horizon (months)")).to_have_value("abc")
