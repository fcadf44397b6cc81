"""The workplan pages in headless Chromium: a manager plans a project from a preset, changes a
scenario with live figures (JavaScript on) or by saving (JavaScript off), switches between one
request and many, adds a scenario and compares them; the charts, reduced motion, the keyboard,
and axe-core's WCAG 2.2 AA rules at desktop and phone widths on every page of the workplan."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Locator, Page, expect

from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import MANAGER
from tests.browser.conftest import (
    VIEWPORTS,
    axe_violations,
    format_axe_violations,
    live_preview,
    login,
    reveal,
)

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
    return project.scenarios.create(
        name=str(FINE_TUNE.name), inputs=FINE_TUNE.inputs, is_baseline=True
    )


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


def create_project(page: Page, title: str, preset_name: str = str(FINE_TUNE.name)) -> None:
    """The quick start from the project list, then the title and unit on the project's settings,
    and back to the first scenario."""
    page.get_by_role("link", name="Plan a new project").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Plan a new project")
    page.get_by_label(preset_name, exact=True).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    expect(page).to_have_url(SCENARIO_URL)
    expect(messages(page)).to_contain_text(f"Project “{preset_name}” created")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{preset_name} Baseline")
    scenario_url = page.url
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link").nth(1).click()
    page.get_by_role("link", name=re.compile("^Project settings")).click()
    field(page, "Title").fill(title)
    field(page, "Organisational unit").fill("Section A")
    with page.expect_navigation():
        page.get_by_role("button", name="Save project").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    page.goto(scenario_url)


def field(page: Page, label: str) -> Locator:
    """A form field by its whole label (Django's labels end with a colon)."""
    # Folded under "More assumptions" or not, the field is brought into view first.
    return reveal(page.get_by_label(re.compile(rf"^{re.escape(label)}:?$")))


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
        .filter(
            has=page.locator(
                "dt", has_text=re.compile(rf"^{re.escape(term)}(\s+What is this\?.*)?$", re.S)
            )
        )
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
    """Mark the window (lost if the page reloads) and the figures (gone once HTMX swaps them)."""
    page.evaluate(
        "window.__marker = 1; document.getElementById('comparison').dataset.stale = 'yes'"
    )


def expect_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"


def expect_swapped_in_place(page: Page) -> None:
    """#comparison was replaced by HTMX, without a reload; mark the new one for the next swap."""
    expect(page.locator("#comparison[data-stale]")).to_have_count(0)
    expect_not_reloaded(page)
    set_marker(page)


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


def duplicate_mark_baseline_and_compare(page: Page, scenario_path: str, name: str) -> None:
    """The scenario page's action buttons (one form holds their CSRF token) and its compare link."""
    page.goto(page.url.split("/projects/")[0] + scenario_path)
    with page.expect_navigation():
        page.get_by_role("button", name="Duplicate").click()
    copy_name = f"Copy of {name}"
    expect(messages(page)).to_have_text(f"“{copy_name}” created.")
    expect(page.get_by_role("heading", level=1)).to_have_text(copy_name)
    with page.expect_navigation():
        page.get_by_role("button", name="Mark as baseline").click()
    expect(messages(page)).to_have_text(f"“{copy_name}” is now the baseline.")
    page.get_by_role("link", name=copy_name).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Baseline")
    expect(page.get_by_role("button", name="Mark as baseline")).to_have_count(0)
    # From a scenario: that scenario first, beside the project's others (up to three).
    page.get_by_role("link", name="Compare with other scenarios").click()
    table = page.get_by_role("table", name="Scenarios side by side")
    expect(table.get_by_role("columnheader").nth(1)).to_have_text(copy_name)
    expect(table.get_by_role("columnheader")).to_have_count(4)


class AxeAudit:
    """Runs axe at every width of VIEWPORTS on each page state and reports all at the end."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.report: list[str] = []
        self.audited: list[str] = []

    def __call__(self, label: str) -> None:
        for name, size in reversed(VIEWPORTS.items()):  # the page's own width (desktop) last
            self.page.set_viewport_size(size)
            where = f"{label} at {size['width']}px ({name}, {self.page.url})"
            self.audited.append(where)
            violations = axe_violations(self.page)
            if violations:
                self.report.append(f"{where}:\n{format_axe_violations(violations)}")

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
    breadcrumb = page.get_by_role("navigation", name="Breadcrumb").aria_snapshot()
    assert "Support bot" in breadcrumb and "›" not in breadcrumb  # separators not read out
    expect(field(page, "Training tokens")).to_be_visible()  # the preset's method…
    expect(field(page, "Accelerator-hours")).to_be_hidden()  # …and not the other methods' fields

    # Typing changes the figures in place: an HTMX swap of #comparison, no reload.
    requests = field(page, REQUESTS)
    expect(requests).to_have_value("100000")
    first_month = figure(page, "First month")
    run_cost = marker(page, "run_cost")
    first_month_before, run_cost_before = first_month.inner_text(), run_cost.inner_text()
    assert "100,000 requests" in first_month_before
    set_marker(page)
    with live_preview(page) as preview:
        requests.fill("1,000,000")
    assert preview.value.ok
    expect(first_month).to_contain_text("1 million requests")
    expect(first_month).not_to_have_text(first_month_before)
    expect(run_cost).not_to_have_text(run_cost_before)
    expect(page.locator("#live-status")).to_have_text("Figures updated.")
    expect(requests).to_be_focused()  # the form is not swapped: typing goes on
    expect(page).to_have_url(scenario_url)
    expect_swapped_in_place(page)

    # The toggle swaps the right column and the strip, and pushes ?view=single to the address.
    run_cost_many = run_cost.inner_text()
    expect(page.locator("#strip .marker-user_speed")).to_contain_text("needed at peak")
    with live_preview(page):
        toggle(page, "Single request").click()
    expect_single_request_view(page)
    expect(run_cost).not_to_have_text(run_cost_many)
    expect(page.locator("#strip .marker-user_speed")).not_to_contain_text("needed at peak")
    expect(requests).to_have_value("1,000,000")  # what was typed is kept, still unsaved
    expect_swapped_in_place(page)

    # Typing in the single-request view keeps that view.
    cost_per_1000 = figure(page, "Cost per 1,000 requests")
    cost_per_1000_before = cost_per_1000.inner_text()
    with live_preview(page):
        field(page, "Output tokens per request").fill("500")
    expect(cost_per_1000).not_to_have_text(cost_per_1000_before)
    expect_single_request_view(page)
    expect_swapped_in_place(page)
    cost_per_1000_at_500_tokens = cost_per_1000.inner_text()

    with live_preview(page):
        toggle(page, "Many requests").click()
    expect_many_requests_view(page)
    expect(first_month).to_contain_text("1 million requests")
    expect_swapped_in_place(page)

    # Typing, then switching the view at once: the click is not lost to a swap of the links, and
    # the typed figures' own preview, half a second later, keeps the view switched to.
    field(page, "Output tokens per request").fill("1000")
    requests.fill("2,000,000")
    with live_preview(page, "/preview/?view=single"):
        toggle(page, "Single request").click()
    expect(cost_per_1000).not_to_have_text(cost_per_1000_at_500_tokens)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    expect_single_request_view(page)
    with live_preview(page):
        toggle(page, "Many requests").click()
    expect(first_month).to_contain_text("2 million requests")
    expect_many_requests_view(page)
    expect_swapped_in_place(page)

    # Back and Forward go through the pushed views, with what was typed and the charts.
    page.go_back()
    expect_single_request_view(page)
    expect(requests).to_have_value("2,000,000")
    expect(field(page, "Output tokens per request")).to_have_value("1000")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))
    page.go_forward()
    expect_many_requests_view(page)
    expect(requests).to_have_value("2,000,000")
    expect(first_month).to_contain_text("2 million requests")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))
    expect_not_reloaded(page)

    # Saving stores the figures: after the reload they are the saved ones.
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(field(page, REQUESTS)).to_have_value("2000000")
    expect(field(page, "Output tokens per request")).to_have_value("1000")
    expect(figure(page, "First month")).to_contain_text("2 million requests")
    assert page.evaluate("window.__marker") is None  # a real reload this time

    add_scenario_and_compare(page, str(FINE_TUNE.name), str(TRANSLATION.name))

    # Back to a view HTMX no longer keeps (its history cache is full or was cleared): the whole
    # page comes back from the server, not the figures alone in place of the page.
    page.goto(scenario_url)
    with live_preview(page):
        toggle(page, "Single request").click()
    expect(page).to_have_url(re.compile(r"\?view=single$"))
    page.evaluate("sessionStorage.removeItem('htmx-history-cache')")
    set_marker(page)
    page.evaluate(
        "document.body.addEventListener('htmx:historyRestore', () => { window.__restored = 1 })"
    )
    page.go_back()
    page.wait_for_function("() => window.__marker === undefined || window.__restored === 1")
    assert page.evaluate("window.__marker") is None, "HTMX restored the page from a partial"
    expect(page).to_have_url(scenario_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text(str(FINE_TUNE.name))
    expect(field(page, REQUESTS)).to_have_value("2000000")
    expect(figure(page, "Accelerators needed at peak")).to_be_visible()
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
    # No script hides the fields of the other methods: all of them are there to fill in.
    expect(field(page, "Training tokens")).to_be_visible()
    expect(field(page, "Accelerator-hours")).to_be_visible()

    first_month = figure(page, "First month")
    first_month_before = first_month.inner_text()
    field(page, REQUESTS).fill("1,000,000")
    expect(first_month).to_have_text(first_month_before)  # nothing changes until saved
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(page).to_have_url(re.compile(r"\?view=many$"))
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(field(page, REQUESTS)).to_have_value("1000000")
    expect(first_month).to_contain_text("1 million requests")

    # The toggle links are plain links: each loads the page in that view.
    with page.expect_navigation():
        toggle(page, "Single request").click()
    expect_single_request_view(page)
    # Saving in the single-request view comes back to it.
    field(page, "Output tokens per request").fill("500")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect_single_request_view(page)
    expect(field(page, "Output tokens per request")).to_have_value("500")
    with page.expect_navigation():
        toggle(page, "Many requests").click()
    expect_many_requests_view(page)
    assert scenario_path.split("?")[0] in page.url

    add_scenario_and_compare(page, str(FINE_TUNE.name), str(TRANSLATION.name))
    duplicate_mark_baseline_and_compare(page, scenario_path.split("?")[0], str(FINE_TUNE.name))
    # The navigation's sign-out button submits the layout's form, with its CSRF token.
    with page.expect_navigation():
        page.get_by_role("navigation", name="Main").get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("navigation", name="Main")).to_contain_text("Sign in")
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


def month_table_fold(page: Page) -> Locator:
    return page.locator("details.fold").filter(has=page.locator("#cumulative-caption"))


def expect_month_rows(page: Page, months: int) -> None:
    """The data table beside the charts (folded under them, opened as a user does): month 0
    (training), then one row per month."""
    fold = month_table_fold(page)
    if not fold.evaluate("(details) => details.open"):
        fold.locator(":scope > summary").click()
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
    assert page.evaluate("document.getAnimations().length") > 0  # the CSS animation too
    for canvas_id in CHARTS:
        box = page.locator(f"#{canvas_id}").bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, (canvas_id, box)

    # A longer horizon, typed: the table and the redrawn charts follow the swap.
    # The table the user opened stays open when the new figures are swapped in.
    with live_preview(page):
        field(page, "Planning horizon (months)").fill("24")
    expect(month_table_fold(page)).to_have_js_property("open", True)
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
        field(page, REQUESTS).fill("200,000")
    expect(figure(page, "First month")).to_contain_text("200,000 requests")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))
    assert all(chart["animation"] is False for chart in chart_state(page))
    assert page.evaluate("document.getAnimations().length") == 0
    assert problems == []


# 4. axe-core at desktop and phone widths --------------------------------------------------------


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
    field(page, "Requests in the first month").fill("lots")
    submit(page, "Create project")
    expect(page.locator(".error-summary")).to_contain_text("Requests in the first month")
    audit("new project, with errors")

    page.goto("/projects/")
    create_project(page, "Support bot")
    scenario_url = page.url
    audit("scenario, with results (after creating the project)")
    # Without JavaScript the fields of every method show (axe cannot run there): show them here.
    page.evaluate(
        "document.querySelectorAll('[data-methods]').forEach((f) => { f.hidden = false })"
    )
    expect(field(page, "Accelerator-hours")).to_be_visible()
    audit("scenario, with every method's fields shown (as without JavaScript)")

    page.goto(scenario_url)
    field(page, "Model FLOP utilisation (%)").fill("150")
    field(page, "Planning horizon (months)").fill("abc")
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

    page.get_by_role(
        "link", name="Project settings: budget rules, unit, classification and collaborators"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Settings of")
    audit("project settings")
    field(page, "Collaborators").fill("nobody-by-this-name")
    submit(page, "Save project")
    expect(page.locator(".error-summary")).to_contain_text("Collaborators")
    audit("project settings, with errors")

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
    field(page, "Token name").fill("Spreadsheet")
    submit(page, "Create token")
    expect(page.get_by_role("heading", name="Your new token “Spreadsheet”")).to_be_visible()
    audit("API tokens, after creating a token")

    page.goto("/accounts/password/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Change your password")
    audit("password change")

    audit.check()


# 5. The keyboard --------------------------------------------------------------------------------


def tab_to(page: Page, target: Locator, *, limit: int = 150) -> int:
    """Press Tab until the target has the focus; return how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if target.evaluate("(element) => element === document.activeElement"):
            return presses
    pytest.fail(f"{target} not reached with {limit} presses of Tab", pytrace=False)


def expect_focus_visible(target: Locator) -> None:
    expect(target).to_be_focused()
    assert target.evaluate("(element) => element.matches(':focus-visible')")
    assert target.evaluate("(element) => getComputedStyle(element).outlineStyle") == "solid"


def save_with_errors(page: Page, values: dict[str, str]) -> Locator:
    """Type the values, press Enter on Save scenario, and return the error summary."""
    for label, value in values.items():
        field(page, label).fill(value)
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").press("Enter")
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("There is a problem")
    expect(page).to_have_title(re.compile(r"^Error: "))
    return summary


def test_keyboard_reaches_and_works_the_toggle_save_and_error_links(
    page: Page, live_server, fine_tune_scenario
) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{fine_tune_scenario.pk}/")
    page.wait_for_function(WAIT_FOR_CHARTS, arg=list(CHARTS))  # the scripts have run
    set_marker(page)

    # From the last field: Tab reaches Save scenario, then the figures' toggle links.
    with live_preview(page):
        field(page, "Revenue per request (USD)").fill("0.01")
    expect_swapped_in_place(page)
    save = page.get_by_role("button", name="Save scenario")
    tab_to(page, save)
    expect_focus_visible(save)
    single = toggle(page, "Single request")
    tab_to(page, single)
    expect_focus_visible(single)
    # Enter follows the link in place (the typed revenue included)…
    with live_preview(page):
        page.keyboard.press("Enter")
    expect_single_request_view(page)
    expect_swapped_in_place(page)
    # …and the focus moves to the new link, not back to the start of the page…
    expect_focus_visible(toggle(page, "Single request"))
    many = toggle(page, "Many requests")
    assert tab_to(page, many) == 1  # …so the next Tab goes on from there.
    with live_preview(page):
        page.keyboard.press("Enter")
    expect_many_requests_view(page)
    expect_swapped_in_place(page)
    expect_focus_visible(toggle(page, "Many requests"))
    expect(figure(page, "Gross margin")).to_be_visible()

    # Back to Save scenario (before the figures) with Shift+Tab; Enter saves.
    for _ in range(150):
        page.keyboard.press("Shift+Tab")
        if save.evaluate("(element) => element === document.activeElement"):
            break
    expect_focus_visible(save)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(messages(page)).to_have_text("Scenario saved.")
    expect(page).to_have_url(re.compile(r"\?view=many$"))
    expect(field(page, "Revenue per request (USD)")).to_have_value("0.01")

    # Bad values: each link of the error summary moves the focus to its field.
    summary = save_with_errors(
        page, {"Model FLOP utilisation (%)": "150", "Planning horizon (months)": "abc"}
    )
    months = field(page, "Planning horizon (months)")
    expect(months).to_have_value("abc")
    expect(field(page, "Model FLOP utilisation (%)")).to_have_value("150")  # nothing typed lost
    link = summary.get_by_role("link", name=re.compile(r"^Planning horizon \(months\):"))
    summary.focus()  # where the page puts it; opening a folded section above moved the focus
    tab_to(page, link)
    page.keyboard.press("Enter")
    expect_focus_visible(months)

    summary = save_with_errors(page, {"Planning horizon (months)": "12"})
    link = summary.get_by_role("link", name=re.compile(r"^Model FLOP utilisation \(%\):"))
    summary.focus()
    tab_to(page, link)
    page.keyboard.press("Enter")
    expect_focus_visible(field(page, "Model FLOP utilisation (%)"))
