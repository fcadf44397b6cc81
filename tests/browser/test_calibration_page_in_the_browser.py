"""The calibration page in headless Chromium: reached from the catalogue, its table read by role
with a source opened from the keyboard, no WCAG 2.2 AA violation (axe) and no sideways scroll of
the page at 1280 and 390 px, in English and in French."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
)

URL = "/catalogue/calibration/"


def test_the_catalogue_leads_to_the_table_and_a_source_opens_from_the_keyboard(
    page_js_and_no_js: Page,
) -> None:
    page = page_js_and_no_js
    page.goto("/catalogue/")
    page.get_by_role("link", name=re.compile("compares with published results")).click()
    expect(page).to_have_url(re.compile(r"/catalogue/calibration/$"))
    table = page.get_by_role("table", name="Published results beside the planner at its defaults")
    row = table.get_by_role("row", name=re.compile(r"^Llama 2 70B MLPerf Inference v4\.1")).first
    expect(row.get_by_role("cell", name=re.compile(r"tokens per second per accelerator")).first)
    expect(row.get_by_role("link", name=re.compile(r"Result log"))).to_have_attribute(
        "href", re.compile(r"^https://github\.com/mlcommons/inference_results_v4\.1/")
    )
    notes = row.get_by_text(re.compile(r"300 tokens assumed"))
    expect(notes).to_be_hidden()
    row.locator("summary", has_text="Published 28 Aug 2024").focus()
    page.keyboard.press("Enter")
    expect(notes).to_be_visible()


@pytest.mark.parametrize("language", ["en-GB", "fr"])
def test_the_calibration_page_has_no_axe_violations_and_fits_the_screen(
    new_page, language: str
) -> None:
    """Loaded once, audited at 1280 and at 390 px (resized in place)."""
    page = new_page(locale=language, extra_http_headers={"Accept-Language": language})
    response = page.goto(URL)
    assert response is not None and response.status == 200
    expect(page.locator("html")).to_have_attribute("lang", language.lower())
    page.locator("details summary").first.click()  # an open source too
    assert_no_axe_violations_at_each_width(page, f"{URL} in {language}", fits=True)
