"""Share links in headless Chromium: a manager creates a link, and a board member opens it in a
fresh browser (no cookies) and reads the comparison, the chart and the description, with nothing
to change, nothing loaded from another host, and no axe-core WCAG 2.2 AA violations."""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects.roles import MANAGER
from tests.browser.conftest import (
    AXE_JS,
    VIEWPORTS,
    assert_no_axe_violations,
    assert_no_axe_violations_at_each_width,
    login,
    reveal,
)
from tests.factories import make_project, make_scenario

USERNAME = "maria"
PASSWORD = "a-long-test-password"


@pytest.fixture
def manager(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    return user


@pytest.fixture
def scenario(manager):
    """Seed 000: 200 accelerator-hours of training, 15,000 requests a month for 12 months."""
    return make_scenario(make_project(manager, title="Support bot"), is_baseline=True)


def field(page: Page, label: str):
    """A form field by its whole label (Django's labels end with a colon)."""
    # Folded under "More assumptions" or not, the field is brought into view first.
    return reveal(page.get_by_label(re.compile(rf"^{re.escape(label)}:?$")))


def create_link(page: Page, live_server, scenario) -> str:
    """Sign in as the manager, share the scenario from its page, and return the link shown."""
    login(page, live_server, USERNAME, PASSWORD, next_path=scenario.get_absolute_url())
    page.get_by_role("link", name="Share a read-only link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Share “{scenario.name}” with a read-only link"
    )
    field(page, "Label").fill("March board")
    expect(field(page, "Days until the link expires")).to_have_value("30")
    field(page, "Days until the link expires").fill("14")
    with page.expect_navigation():
        page.get_by_role("button", name="Create link").click()
    expect(page.get_by_role("heading", name="Your new link “March board”")).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "the share page after creating a link")
    return page.locator("#new-link-url").inner_text()


def test_a_board_member_opens_a_share_link_in_a_fresh_browser(
    page: Page, new_page, live_server, scenario
) -> None:
    """The manager shares at 1280 px, the board member reads on a phone (390 px); every page is
    audited at both widths (it ran whole at each width before)."""
    url = create_link(page, live_server, scenario)
    assert url.startswith(f"{live_server.url}/s/")

    board = new_page(viewport=VIEWPORTS["phone"])
    assert board.context.cookies() == []
    # The shared page's Content-Security-Policy refuses injected script tags; an init script
    # is the browser's own, so axe can run without weakening the page's policy.
    board.add_init_script(path=AXE_JS)
    hosts, problems = set(), []
    board.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    board.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    board.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error" and not message.location["url"].endswith("/favicon.ico")
            else None
        ),
    )

    response = board.goto(url)
    assert response is not None and response.status == 200
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["cache-control"] == "no-store"
    expect(board.get_by_role("heading", level=1)).to_have_text(scenario.name)
    expect(board.locator(".snapshot-stamp")).to_contain_text(
        re.compile(r"snapshot of .+, version 1\.")
    )
    comparison = board.locator("#comparison")
    expect(comparison.get_by_role("heading", name="Training: build once")).to_be_visible()
    expect(comparison.get_by_role("heading", name="Inference: every request")).to_be_visible()
    expect(board.locator("#chart-hours")).to_be_visible()
    expect(board.locator("#chart-cost")).to_be_visible()
    board.wait_for_function(
        "() => window.Chart && Chart.getChart(document.getElementById('chart-hours'))"
    )
    expect(
        board.get_by_role("table", name=re.compile("Cumulative figures by month"))
    ).to_be_visible()
    expect(board.get_by_role("heading", name="Describe this without the diagram")).to_be_visible()
    expect(board.locator(".description p").first).to_contain_text("training")
    # Nothing to fill in on the shared page (the layout's language switcher aside).
    expect(board.locator("main").locator("form, input, select, textarea, button")).to_have_count(0)
    assert_no_axe_violations_at_each_width(board, "the shared page, many requests")

    # The toggle is a plain link: the page reloads with the other view, still read-only.
    with board.expect_navigation():
        board.get_by_role("navigation", name="Show the decision view for").get_by_role(
            "link", name="Single request"
        ).click()
    expect(board).to_have_url(re.compile(r"/s/[^/]+/\?view=single$"))
    expect(comparison.locator("dt", has_text="Cost per 1,000 requests")).to_be_visible()
    expect(board.locator("main form")).to_have_count(0)
    assert_no_axe_violations_at_each_width(board, "the shared page, single request")

    assert hosts == {urlsplit(live_server.url).netloc}, hosts
    assert not problems, problems


def test_a_revoked_link_no_longer_opens_for_the_board(
    page: Page, new_page, live_server, scenario
) -> None:
    url = create_link(page, live_server, scenario)
    board = new_page()
    board.add_init_script(path=AXE_JS)
    assert board.goto(url).status == 200

    page.get_by_role("button", name="Revoke March board").click()
    expect(page.locator("main > .messages")).to_contain_text("is revoked")
    expect(page.get_by_role("cell", name=re.compile("^Revoked on"))).to_be_visible()

    response = board.reload()
    assert response is not None and response.status == 404
    expect(board.get_by_role("heading", level=1)).to_have_text("This link does not open")
    assert_no_axe_violations(page, "the share page after revoking a link")
    assert_no_axe_violations(board, "the answer to a revoked link")

    page.get_by_role("link", name="All share links of your projects").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Share links")
    expect(page.get_by_role("rowheader", name="March board")).to_be_visible()
    assert_no_axe_violations(page, "the list of share links")
    page.goto(f"/projects/{scenario.project_id}/share/")
    expect(page.get_by_text("once it is submitted for review")).to_be_visible()
    assert_no_axe_violations(page, "the share page of a draft project")
