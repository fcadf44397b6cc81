"""The hardware catalogue on a phone: its wide tables scroll inside their own captioned,
focusable regions, and the page itself is no wider than the screen, in English and French. Its
axe audits at 390 px (and 1280 px) are test_hardware_catalogue_page.py's, in English, and
test_languages_in_the_browser.py's French pages."""

import pytest
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [PHONE], indirect=True, ids=["phone-390x844"])
@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_hardware_catalogue_fits_a_phone(new_page, viewport: dict, language: str) -> None:
    page = new_page(extra_http_headers={"Accept-Language": language})
    page.goto("/catalogue/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/catalogue/ is {overflow} px wider than a 390 px screen"
    # The accelerators' table scrolls in its own region, named by its caption, from the keyboard.
    name = "Accélérateurs" if language == "fr" else "Accelerators"
    region = page.get_by_role("region", name=name, exact=True)
    expect(region).to_have_attribute("tabindex", "0")
    assert region.evaluate("e => e.scrollWidth > e.clientWidth"), "the table scrolls sideways"
    region.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "name => [...document.querySelectorAll('.table-scroll')].some(e => e.scrollLeft > 0)",
        arg=name,
    )
