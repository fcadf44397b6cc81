"""The Content Security Policy in Chromium: every kind of page works under it and breaks none of it.

The browser reports each refused script, style, image, frame or connection as a
`securitypolicyviolation` event (and on the console); a listener added before any page script runs
collects them, and the test fails on the first page with any.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from tests.browser.conftest import live_preview, login
from tests.factories import make_manager, make_project, make_scenario

PASSWORD = "a-long-test-password"

COLLECT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile || event.documentURI}:${event.lineNumber}`
  );
});
"""


class ViolationWatch:
    """Collects CSP violations from the page's events and from the console, across navigations."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(COLLECT_VIOLATIONS)
        page.on(
            "console",
            lambda message: (
                self.console.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def assert_none(self, where: str) -> None:
        events = self.page.evaluate("() => window.__cspViolations")
        problems = [*events, *self.console]
        assert problems == [], f"CSP violations on {where}:\n" + "\n".join(problems)


@pytest.fixture
def manager(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    return make_manager(password=PASSWORD)


@pytest.fixture
def project(manager) -> Project:
    project = make_project(manager, title="Support bot")
    make_scenario(project, name="Pilot")
    make_scenario(project, name="Rollout")
    return project


def open_page(page: Page, path: str, status: int = 200) -> None:
    response = page.goto(path)
    assert response is not None and response.status == status, f"GET {path}: {response}"
    assert "content-security-policy" in response.headers, f"GET {path}: no CSP header"


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/catalogue/", 200),
        ("/accounts/login/", 200),
        ("/no-such-page/", 404),
    ],
)
def test_public_pages_break_no_rule_of_the_policy(page: Page, path: str, status: int) -> None:
    watch = ViolationWatch(page)
    open_page(page, path, status)
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    watch.assert_none(path)


def test_the_browsable_api_breaks_no_rule_of_the_policy(page: Page) -> None:
    watch = ViolationWatch(page)
    open_page(page, "/api/v1/accelerators/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    watch.assert_none("/api/v1/accelerators/")


def test_the_admin_sign_in_breaks_no_rule_of_the_policy(page: Page) -> None:
    watch = ViolationWatch(page)
    open_page(page, "/admin/login/")
    expect(page.get_by_label("Password")).to_be_visible()
    watch.assert_none("/admin/login/")


def test_the_watch_sees_what_the_policy_refuses(page: Page) -> None:
    watch = ViolationWatch(page)
    open_page(page, "/")
    page.evaluate("document.querySelector('h1').setAttribute('style', 'color: red')")
    with pytest.raises(AssertionError, match="style-src-attr"):
        watch.assert_none("/")


def test_api_docs_render_under_the_policy(page: Page) -> None:
    watch = ViolationWatch(page)
    open_page(page, "/api/docs/")
    # Swagger UI draws the operations from the schema with its (nonced) inline script.
    operation = page.locator(".swagger-ui .opblock").first
    expect(operation).to_be_visible()
    operation.locator(".opblock-summary").click()
    expect(page.locator(".swagger-ui .opblock-body").first).to_be_visible()
    watch.assert_none("/api/docs/")


def test_signed_in_pages_and_live_figures_break_no_rule_of_the_policy(
    page: Page, live_server, manager, project: Project
) -> None:
    watch = ViolationWatch(page)
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/")
    watch.assert_none("the sign-in and the project list")

    pilot, rollout = project.scenarios.order_by("name")
    paths = [
        "/projects/",
        "/projects/new/",
        project.get_absolute_url(),
        f"/projects/{project.pk}/compare/?s={pilot.pk}&s={rollout.pk}",
        "/accounts/tokens/",
        "/accounts/password/",
        "/api/v1/auth/tokens/",
    ]
    for path in paths:
        open_page(page, path)
        watch.assert_none(path)

    # The scenario page: Chart.js draws, htmx swaps in new figures as the inputs change.
    open_page(page, pilot.get_absolute_url())
    expect(page.locator("canvas").first).to_be_visible()
    with live_preview(page):
        page.get_by_label(re.compile(r"^Requests in the first month:?$")).fill("40000")
    expect(page.locator("#comparison")).to_be_visible()
    page.wait_for_load_state("networkidle")
    watch.assert_none(f"{pilot.get_absolute_url()} after a live update")


def test_a_new_project_from_a_preset_breaks_no_rule_of_the_policy(page: Page, live_server, manager):
    watch = ViolationWatch(page)
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/new/")
    preset = PRESETS_BY_SLUG["translation-assistant"]
    page.get_by_label(str(preset.name), exact=True).check()
    page.get_by_label(re.compile(r"^Requests in the first month:?$")).fill("20,000")
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(str(preset.name))
    watch.assert_none("the new project's first scenario")
