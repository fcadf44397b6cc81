"""The decision page in Chromium: a manager compares the options for the translation assistant,
switches the API model, uses the cheapest option as a new scenario, with JavaScript and without;
axe-core's WCAG 2.2 AA rules at desktop and phone widths."""

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    OPTIONS_PASSWORD,
    assert_no_axe_violations_at_each_width,
    login,
)


def test_a_manager_compares_switches_the_api_model_and_uses_the_cheapest(
    page_js_and_no_js: Page, live_server, translation_scenario
) -> None:
    page = page_js_and_no_js
    path = f"/scenarios/{translation_scenario.pk}/options/"
    login(page, live_server, "maria", OPTIONS_PASSWORD, next_path=path)
    headline = page.get_by_role("heading", level=2, name="Cheapest by net present value")
    expect(headline).to_contain_text("pay per use")
    table = page.get_by_role("table", name="The options compared")
    api_row = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="External model API")
    )
    mini_npv = api_row.get_by_role("cell").nth(4).inner_text()
    page.get_by_label("API model").fill("openai-gpt-4o")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_label("API model")).to_have_value("openai-gpt-4o")
    expect(api_row.get_by_role("cell").nth(4)).not_to_have_text(mini_npv)
    cheapest = table.locator("tr.cheapest")
    cheapest.get_by_role("button", name="Use this option").click()
    expect(page).to_have_url(f"{live_server.url}/scenarios/{translation_scenario.pk + 1}/")
    expect(
        page.get_by_text("Wider use: Self-host on rented accelerators, pay per use")
    ).not_to_have_count(0)
    assert translation_scenario.project.scenarios.count() == 2


def test_the_decision_page_has_no_axe_violations(
    page: Page, viewport: dict, live_server, translation_scenario
):
    login(
        page,
        live_server,
        "maria",
        OPTIONS_PASSWORD,
        next_path=f"/scenarios/{translation_scenario.pk}/options/",
    )
    expect(page.get_by_role("img", name="Monthly cost against monthly requests")).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "options")
