"""The hardware catalogue page with the 2026-12 parts, in headless Chromium: the new rows read at
1280 and 390 px, the page never scrolls sideways (the table scrolls in its own region), a source
opens from the keyboard, and axe finds no WCAG 2.2 AA violations with a source open."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_fits_the_screen,
    assert_no_axe_violations_at_each_width,
    at_each_width,
)


def _open(page: Page) -> None:
    response = page.goto("/catalogue/")
    assert response is not None and response.status == 200, f"GET /catalogue/: {response}"


def test_new_parts_are_listed_and_the_page_fits_the_window(page: Page) -> None:
    """Loaded once, checked at 1280 and at 390 px (resized in place)."""
    _open(page)
    table = page.get_by_role("table", name="Accelerators")
    for name in (
        "H200 NVL",
        "GH200 Grace Hopper",
        "Instinct MI300A",
        "Cloud TPU v3",
        "Gaudi 3 PCIe",
    ):
        expect(table.get_by_role("rowheader", name=re.compile(re.escape(name)))).to_have_count(1)
    region = page.get_by_role("region", name="Accelerators")
    for size in at_each_width(page):
        assert_fits_the_screen(page, f"the hardware catalogue at {size}")
        assert region.evaluate("el => getComputedStyle(el).overflowX") in {"auto", "scroll"}


def test_a_new_row_shows_its_dense_figures_and_opens_its_source_from_the_keyboard(
    page: Page,
) -> None:
    _open(page)
    row = page.get_by_role("table", name="Accelerators").get_by_role(
        "row", name=re.compile(r"NVIDIA H200 NVL\b")
    )
    expect(row.get_by_role("cell", name="835.5", exact=True)).to_be_visible()  # 1,671 sparse / 2
    expect(
        row.get_by_role("cell", name="141.0", exact=True).or_(
            row.get_by_role("cell", name="141", exact=True)
        )
    ).to_have_count(1)
    summary = row.get_by_text("Source, as of 18 Nov 2024")
    summary.focus()
    page.keyboard.press("Enter")
    expect(row.get_by_text(re.compile(r"nvidia\.com/en-us/data-center/h200"))).to_be_visible()


def test_hardware_catalogue_has_no_axe_violations_with_a_source_open(
    page: Page, viewport: dict
) -> None:
    _open(page)
    page.get_by_role("row", name=re.compile(r"Intel Gaudi 3 PCIe")).get_by_text(
        "Source, as of"
    ).click()
    assert_no_axe_violations_at_each_width(page, "/catalogue/")


def test_a_page_too_wide_is_reported_by_what_widens_it_not_by_a_table_in_its_own_region(
    page: Page,
) -> None:
    """The check the pages above pass fails on a page that scrolls sideways, and names the element
    that makes it wider, not the wide table that a scrolling region keeps to itself."""
    _open(page)
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_the_screen(page, "the hardware catalogue at 390x844")
    page.evaluate(
        """() => {
            const wide = document.createElement('div');
            wide.id = 'too-wide';
            wide.style.width = '900px';
            wide.style.height = '2rem';
            document.querySelector('main').append(wide);
        }"""
    )
    with pytest.raises(AssertionError) as failure:
        assert_fits_the_screen(page, "the catalogue with a wide block")
    report = str(failure.value)
    assert "div#too-wide 900px wide" in report
    assert "table" not in report.split("reaching past it:")[1]
