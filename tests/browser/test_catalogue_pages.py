"""The language model catalogue page in headless Chromium: the table reads with and without
JavaScript, sources open from the keyboard, and axe finds no WCAG 2.2 AA violations."""

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
)


def _open(page: Page, path: str) -> None:
    response = page.goto(path)
    assert response is not None and response.status == 200, f"GET {path}: {response}"


def test_model_table_lists_deepseek_v3_with_its_source(page_js_and_no_js: Page) -> None:
    page = page_js_and_no_js
    _open(page, "/catalogue/models/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Language model catalogue")
    table = page.get_by_role("table", name="Language models")
    row = table.get_by_role("row", name=re.compile(r"DeepSeek-V3(?![.\d])"))
    expect(row.get_by_role("cell", name=re.compile(r"MLA"))).to_be_visible()
    row.get_by_text("Source, as of 26 Dec 2024").click()
    expect(row.get_by_text(re.compile(r"huggingface\.co/deepseek-ai/DeepSeek-V3"))).to_be_visible()


def test_the_catalogue_pages_link_to_each_other(page: Page) -> None:
    _open(page, "/catalogue/")
    page.get_by_role("link", name="See the language model catalogue.").click()
    expect(page).to_have_url(re.compile(r"/catalogue/models/$"))
    page.get_by_role("link", name="See the hardware catalogue.").click()
    expect(page).to_have_url(re.compile(r"/catalogue/$"))


def test_model_catalogue_has_no_axe_violations(page: Page, viewport: dict) -> None:
    _open(page, "/catalogue/models/")
    page.get_by_text("Source, as of").first.click()  # an open source too
    assert_no_axe_violations_at_each_width(page, "/catalogue/models/")
