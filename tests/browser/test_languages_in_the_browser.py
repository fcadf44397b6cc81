"""In the browser: the language switcher works with and without JavaScript, with the keyboard,
and the French pages and the glossary are axe clean at desktop and phone widths."""

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from apps.projects.models import Project
from tests.browser.conftest import (
    BOTH_VIEWPORTS,
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.factories import SEED_000_TRAINING, make_manager, seed_000_inference

PASSWORD = "a-long-test-password"
FRENCH_PAGES = ["/", "/catalogue/", "/glossary/", "/glossary/kv-cache/", "/accounts/login/"]


def _switch_to_french(page: Page) -> None:
    page.get_by_label("Language").select_option("fr")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")


@BOTH_VIEWPORTS
def test_the_switcher_turns_the_page_french_and_stays_on_it(page_js_and_no_js: Page) -> None:
    page = page_js_and_no_js
    page.goto("/glossary/kv-cache/")
    _switch_to_french(page)
    assert page.url.endswith("/glossary/kv-cache/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cache KV")
    expect(page.get_by_role("navigation", name="Navigation principale")).to_be_visible()
    page.goto("/")  # the cookie keeps the choice
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_label("Langue")).to_have_value("fr")


def test_the_switcher_works_with_the_keyboard(page: Page) -> None:
    page.goto("/")
    select = page.get_by_label("Language")
    select.focus()
    page.keyboard.press("ArrowDown")  # English to Français
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Change language")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "fr")


@pytest.mark.parametrize("path", FRENCH_PAGES)
def test_french_pages_have_no_axe_violations_and_fit_the_screen(new_page, path: str) -> None:
    """Each page loaded once, audited at 1280 and at 390 px (resized in place)."""
    page = new_page(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    page.goto(path)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert_no_axe_violations_at_each_width(page, f"{path} in French", fits=True)


def test_the_charts_write_their_numbers_as_the_pages_language_does(new_page, live_server) -> None:
    """A French page (chosen by the switcher's cookie) in an English browser: the charts' axes follow the page, not the browser
    ("6 000", with a narrow no-break space; "6,000" in English)."""
    owner = make_manager("maria", PASSWORD)
    project = Project.objects.create(owner=owner, title="Assistant")
    inputs = {"training": SEED_000_TRAINING, "inference": seed_000_inference(300_000)}
    scenario = project.scenarios.create(name="Wider use", inputs=inputs, is_baseline=True)
    for language, separator in (("fr", "\u202f"), ("en-gb", ",")):
        page = new_page(locale="en-US")  # the browser's language is English; the page's:
        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
        page.context.add_cookies([cookie])
        login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.wait_for_function("() => window.Chart && Chart.getChart('chart-hours')")
        for canvas in ("chart-hours", "chart-cost", "budget-chart"):
            chart = f"Chart.getChart('{canvas}')"
            assert page.evaluate(f"{chart}.options.locale") == language, canvas
        ticks = page.evaluate("Chart.getChart('chart-hours').scales.y.ticks.map(t => t.label)")
        grouped = [tick for tick in ticks if len(tick.replace(separator, "")) > 3]
        assert grouped and all(separator in tick for tick in grouped), (language, ticks)
