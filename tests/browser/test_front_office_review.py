"""The review in headless Chromium: a front-office user returns a submitted workplan with a
comment, its manager changes a scenario and submits it again, and the front-office user clears
it; axe-core's WCAG 2.2 AA rules hold on the queue and the review page at 1280 and 390 px."""

import re

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import FRONT_OFFICE
from apps.reviews import services
from tests.browser.conftest import VIEWPORTS, axe_violations, format_axe_violations, login
from tests.factories import make_manager, make_project, make_scenario

PASSWORD = "a-long-test-password"
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]  # 15,000 requests a month


@pytest.fixture
def people(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    manager = make_manager("maria", PASSWORD)
    reviewer = make_manager("fiona", PASSWORD)
    reviewer.groups.set([Group.objects.get_or_create(name=FRONT_OFFICE)[0]])
    return manager, reviewer


@pytest.fixture
def submitted(people):
    """A workplan submitted for review, with a second one so that the queue is a list."""
    manager, _ = people
    project = make_project(manager, "Translation assistant", unit="Language services")
    make_scenario(project, str(TRANSLATION.name), inputs=TRANSLATION.inputs, is_baseline=True)
    services.project_submit(project=project, user=manager)
    other = make_project(manager, "Chat bot", unit="Section B")
    make_scenario(other, "Pilot", is_baseline=True)
    services.project_submit(project=other, user=manager)
    return project


def watch_for_problems(page: Page) -> list[str]:
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


class AxeAudit:
    """Runs axe at each width of VIEWPORTS on each page state; reports them all at the end."""

    def __init__(self, page: Page) -> None:
        self.page, self.report, self.audited = page, [], 0

    def __call__(self, label: str) -> None:
        for name, size in reversed(VIEWPORTS.items()):  # the page's own width last
            self.page.set_viewport_size(size)
            self.audited += 1
            violations = axe_violations(self.page)
            if violations:
                where = f"{label} at {size['width']}px ({name}, {self.page.url})"
                self.report.append(f"{where}:\n{format_axe_violations(violations)}")

    def check(self) -> None:
        if self.report:
            pytest.fail(
                f"axe found WCAG 2.2 AA violations on {len(self.report)} of {self.audited} "
                "page states:\n" + "\n".join(self.report),
                pytrace=False,
            )


def messages(page: Page):
    return page.locator("main > .messages")


def click_and_wait(page: Page, role: str, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role(role, name=name, exact=True).click()


def history(page: Page):
    return page.locator(".timeline > li")


def test_front_office_returns_a_workplan_with_a_comment_and_clears_it_after_changes(
    new_page, live_server, people, submitted
) -> None:
    front_office = new_page()
    problems = watch_for_problems(front_office)
    audit = AxeAudit(front_office)

    # The front office finds the workplan in its queue, sorted by total cost.
    login(front_office, live_server, "fiona", PASSWORD, next_path="/projects/")
    click_and_wait(front_office, "link", "Review queue")
    expect(front_office.get_by_role("heading", level=1)).to_have_text("Review queue")
    queue = front_office.get_by_role("table", name="Workplans in review")
    expect(queue.locator("tbody tr")).to_have_count(2)
    audit("review queue")
    front_office.get_by_label("Sort by").select_option("-total_cost")
    click_and_wait(front_office, "button", "Show workplans")
    expect(queue.locator("tbody th")).to_have_text(["Chat bot", "Translation assistant"])
    audit("review queue, sorted by total cost")

    # Its review: the figures on one screen; it returns the workplan with a comment.
    click_and_wait(front_office, "link", "Translation assistant")
    expect(front_office.get_by_role("heading", level=1)).to_have_text(
        "Review: Translation assistant"
    )
    figures = front_office.get_by_role("table", name=re.compile("^Training against inference"))
    expect(figures.get_by_role("row", name=re.compile("^Total cost"))).to_contain_text("$")
    audit("review page, submitted")
    click_and_wait(front_office, "button", "Return for changes")  # without the comment first
    expect(front_office.locator(".error-summary")).to_contain_text("Say what needs to change")
    audit("review page, returning without a comment")
    front_office.get_by_label("What needs to change").fill("Plan for 50,000 requests a month.")
    click_and_wait(front_office, "button", "Return for changes")
    expect(messages(front_office)).to_contain_text("is returned to its managers for changes")
    expect(history(front_office).last).to_contain_text("Returned for changes by fiona")
    expect(history(front_office).last).to_contain_text("Plan for 50,000 requests a month.")

    # The manager reads why, changes the scenario and submits the workplan again.
    manager = new_page()
    problems += watch_for_problems(manager)
    login(manager, live_server, "maria", PASSWORD, next_path="/projects/")
    click_and_wait(manager, "link", "Translation assistant")
    expect(manager.locator("#review-status")).to_contain_text("Plan for 50,000 requests a month.")
    click_and_wait(manager, "link", str(TRANSLATION.name))
    manager.get_by_label(re.compile(r"^Requests in the first month:?$")).fill("50,000")
    click_and_wait(manager, "button", "Save scenario")
    expect(messages(manager)).to_have_text("Scenario saved.")
    manager.get_by_role("navigation", name="Breadcrumb").get_by_role("link").nth(1).click()
    click_and_wait(manager, "button", "Submit for review")
    expect(messages(manager)).to_contain_text("is submitted for review with its 1 scenario")
    expect(manager.get_by_role("button", name="Add scenario")).to_have_count(0)

    # The front office sees what changed, and clears it.
    front_office.reload()
    expect(front_office.locator(".review-changes")).to_contain_text(
        "Requests in the first month: 15,000 → 50,000"
    )
    audit("review page, resubmitted with changes")
    click_and_wait(front_office, "button", "Clear")
    expect(messages(front_office)).to_contain_text("is cleared")
    expect(front_office.locator(".project-facts")).to_contain_text("Cleared")
    expect(history(front_office)).to_have_count(4)
    expect(history(front_office).locator("strong")).to_have_text(
        ["Submitted for review", "Returned for changes", "Submitted for review", "Cleared"]
    )
    audit("review page, cleared")

    # The manager's project now says so, and stays frozen.
    manager.reload()
    expect(manager.locator("#review-status")).to_contain_text("Cleared")
    expect(manager.get_by_role("button", name="Submit for review")).to_have_count(0)

    audit.check()
    assert problems == []
