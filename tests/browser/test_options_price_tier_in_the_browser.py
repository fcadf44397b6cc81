"""The decision page's API price tier in headless Chromium (issue 20): a manager prices the
external API at DeepSeek's off-peak tier, sees which tier and since when each API option is priced
at, and uses it; with and without JavaScript, axe-core's WCAG 2.2 AA rules at desktop and phone
widths, in English and French."""

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    OPTIONS_PASSWORD,
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
)

V4_PRO = "deepseek-deepseek-v4-pro"
WORDS = {
    "en": {
        "tier": "Price tier of the external API",
        "compare": "Compare",
        "off_peak": "Off-peak discount",
        "standard": "openai-gpt-4o-mini at its standard price",
        "priced": f"{V4_PRO} at its off-peak price, in force since",
        "row": "External model API",
    },
    "fr": {
        "tier": "Tarif de l’API externe",
        "compare": "Comparer",
        "off_peak": "Remise heures creuses",
        "standard": "openai-gpt-4o-mini, tarif standard",
        "priced": f"{V4_PRO}, tarif heures creuses, en vigueur depuis le",
        "row": "API de modèle externe",
    },
}


@languages_each_at_a_width("en", "fr")
def test_a_manager_prices_the_api_off_peak_without_axe_violations(
    new_page, viewport: dict, live_server, translation_scenario, language: str
) -> None:
    words = WORDS[language]
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(
        page,
        live_server,
        "maria",
        OPTIONS_PASSWORD,
        next_path=f"/scenarios/{translation_scenario.pk}/options/",
    )
    api_header = page.locator("#option-external_api")
    expect(api_header).to_contain_text(words["standard"])
    page.locator("#id_api_model").fill(V4_PRO)
    page.get_by_label(words["tier"]).select_option(label=words["off_peak"])
    with page.expect_navigation():
        page.get_by_role("button", name=words["compare"], exact=True).click()
    expect(page.get_by_label(words["tier"])).to_have_value("off_peak")
    expect(api_header).to_contain_text(words["priced"])
    assert_no_axe_violations_at_each_width(page, f"the options at the off-peak tier in {language}")


def test_using_the_off_peak_api_option_without_javascript_keeps_its_tier(
    page_no_js: Page, live_server, translation_scenario
) -> None:
    page = page_no_js
    login(
        page,
        live_server,
        "maria",
        OPTIONS_PASSWORD,
        next_path=f"/scenarios/{translation_scenario.pk}/options/",
    )
    page.locator("#id_api_model").fill(V4_PRO)
    page.get_by_label("Price tier of the external API").select_option("off_peak")
    page.get_by_role("button", name="Compare", exact=True).click()
    row = page.locator("tr", has=page.locator("#option-external_api"))
    with page.expect_navigation():
        row.get_by_role("button", name="Use this option").click()
    expect(page).to_have_url(re.compile(r"/scenarios/\d+/$"))
    copy = translation_scenario.project.scenarios.exclude(pk=translation_scenario.pk).get()
    assert copy.inputs["inference"]["api_price_tier"] == "off_peak"
    expect(page.locator("#id_inference_api_price_tier")).to_have_value("off_peak")
