"""Smoke tests in headless Chromium: the pages load with and without JavaScript, the keyboard
reaches the content, and axe finds no WCAG 2.2 AA violations at desktop and phone widths."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    BOTH_VIEWPORTS,
    assert_no_axe_violations_at_each_width,
    login,
)

# Each app page and what its h1 says.
APP_PAGES = {
    "/": re.compile(r"\bcompute\b", re.IGNORECASE),
    "/catalogue/": "Hardware catalogue",
}


def _open(page: Page, path: str) -> None:
    response = page.goto(path)
    assert response is not None and response.status == 200, f"GET {path}: {response}"


@pytest.mark.parametrize("path", list(APP_PAGES))
def test_page_loads(page_js_and_no_js: Page, path: str) -> None:
    page = page_js_and_no_js
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            # Chromium asks for /favicon.ico by itself (the app has none): not the page's doing.
            if message.type == "error" and not message.location["url"].endswith("/favicon.ico")
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}") if response.status >= 400 else None
        ),
    )

    _open(page, path)

    expect(page.get_by_role("heading", level=1)).to_have_text(APP_PAGES[path])
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    assert page.evaluate(
        "[...document.styleSheets].some("
        "(sheet) => sheet.href?.endsWith('/css/app.css') && sheet.cssRules.length > 0)"
    ), "app.css did not load"
    if path == "/catalogue/":  # the catalogue's table lists the H100 SXM
        table = page.get_by_role("table", name="Accelerators")
        expect(table.get_by_role("rowheader", name=re.compile(r"\bH100 SXM\b"))).to_be_visible()
    assert problems == []


@BOTH_VIEWPORTS
def test_skip_link_is_the_first_tab_stop_and_moves_focus_to_main(page: Page) -> None:
    _open(page, "/")
    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.get_by_role("main")).to_be_focused()


def test_the_home_page_has_no_axe_violations(page: Page, viewport: dict) -> None:
    # The hardware catalogue's audit, at both widths, is
    # test_hardware_catalogue_page.py::test_hardware_catalogue_has_no_axe_violations_with_a_source_open
    _open(page, "/")
    assert_no_axe_violations_at_each_width(page, "/")


def test_api_docs_have_no_axe_violations(page: Page, viewport: dict) -> None:
    _open(page, "/api/docs/")
    # Swagger UI renders from the schema with JavaScript: wait for the operations to be drawn.
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert_no_axe_violations_at_each_width(
        page,
        "/api/docs/",
    )


def test_login_signs_in_through_the_login_form(page: Page, live_server, settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    get_user_model().objects.create_user(
        "browser-staff", password="correct horse battery staple", is_staff=True
    )
    login(page, live_server, "browser-staff", "correct horse battery staple")
    # Staff, so that the admin's form would take the account too (see LOGIN_PATH in conftest).
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("navigation", name="Main")).to_contain_text("browser-staff")
