"""The API price catalogue page in Chromium: filters with and without JavaScript, axe clean."""

import pytest
from playwright.sync_api import Page, expect

from apps.apiprices.loading import api_prices_load
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
)


@pytest.fixture
def api_prices(real_catalogue) -> None:
    api_prices_load()


def test_a_reader_filters_the_prices_by_provider_and_day(
    page_js_and_no_js: Page, api_prices, live_server
) -> None:
    page = page_js_and_no_js
    page.goto(f"{live_server.url}/catalogue/api-prices/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Prices of external model APIs")
    page.get_by_label("Provider").select_option(label="Deepseek")
    page.get_by_label("Prices in force on").fill("2026-08-16")
    page.get_by_role("button", name="Show prices").click()
    table = page.get_by_role("table", name="Prices in force, USD per million tokens")
    row = table.get_by_role("row").filter(has=page.locator("code", has_text="deepseek-v4-flash"))
    expect(row.first).to_contain_text("0.28")
    expect(page.get_by_label("Provider")).to_have_value("deepseek")


def test_the_price_page_has_no_axe_violations(page: Page, viewport: dict, api_prices, live_server):
    page.goto(f"{live_server.url}/catalogue/api-prices/?provider=openai")
    assert_no_axe_violations_at_each_width(page, "API prices")


@pytest.mark.parametrize(
    ("language", "tier"),
    [("en", "Off-peak discount (off_peak)"), ("fr", "Remise heures creuses (off_peak)")],
)
def test_the_price_tiers_are_listed_and_axe_clean_in_both_languages(
    new_page, language: str, tier: str, api_prices, live_server
):
    """Loaded once in each language, audited at 1280 and at 390 px (resized in place)."""
    page = new_page(locale=language, extra_http_headers={"Accept-Language": language})
    page.goto(f"{live_server.url}/catalogue/api-prices/?provider=deepseek&at=2025-06-01")
    table = page.get_by_role("table")
    row = table.get_by_role("row").filter(has=page.locator("code", has_text="deepseek-chat"))
    expect(row.first).to_contain_text(tier)
    expect(row.first).to_contain_text("0.135 / 0.035 / 0.55")
    assert_no_axe_violations_at_each_width(page, f"API price tiers, {language}")
