"""Ranges on an external model API's numbers in Chromium: a manager chooses the API, gives a 90 %
range on its output price and on the output tokens, sees central estimates with 9 in 10 ranges
live and after saving, and gets an error beside a bad range; axe-clean at 1280 and 390 px."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.browser.test_ranges import lines, open_range, range_group, range_summary
from tests.browser.test_scenario_api_method_in_the_browser import (  # noqa: F401 - fixture
    PASSWORD,
    choose_the_api,
    scenario,
)

OUTPUT_PRICE = "Output price (USD per million tokens)"


def open_with_the_api(page: Page, live_server, scenario) -> None:  # noqa: F811
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    choose_the_api(page)


def test_ranges_on_the_apis_price_and_tokens_show_live_and_after_saving(
    page: Page,
    viewport: dict,
    live_server,
    scenario,  # noqa: F811
) -> None:
    open_with_the_api(page, live_server, scenario)
    price = open_range(page, OUTPUT_PRICE)
    expect(price).to_be_visible()
    # A price has Epoch AI's price prior as its typical range; a token count has none.
    expect(price.get_by_text("applied here to API prices")).to_be_visible()
    tokens = open_range(page, "Output tokens per request")
    expect(tokens.get_by_role("button", name="Use a typical range")).to_have_count(0)
    price.get_by_label("Low").fill("0.3")
    price.get_by_label("High").fill("1.2")
    tokens.get_by_label("Low").fill("300")
    tokens.get_by_label("High").fill("800")
    expect(lines(page)).to_contain_text("Inference cost over the horizon")
    expect(lines(page)).to_contain_text("9 in 10 chance between")
    assert_no_axe_violations_at_each_width(page, "external API with ranges, live")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    expect(page.get_by_text("Scenario saved.")).to_be_visible()
    expect(lines(page)).to_contain_text("central estimate")
    expect(range_group(page, OUTPUT_PRICE).get_by_label("High")).to_have_value("1.2")
    expect(range_summary(page, OUTPUT_PRICE)).to_have_text(
        f"Range for {OUTPUT_PRICE}: between $0.30 and $1.20"
    )
    assert_no_axe_violations_at_each_width(page, "saved external API with ranges")
    scenario.refresh_from_db()
    assert scenario.inputs["ranges"] == {
        "inference.output_tokens": {"low": 300, "high": 800},
        "inference.price_per_million_output_tokens": {"low": 0.3, "high": 1.2},
    }


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_a_bad_range_on_the_apis_price_is_an_error_beside_it(
    page: Page,
    viewport: dict,
    live_server,
    scenario,  # noqa: F811
) -> None:
    open_with_the_api(page, live_server, scenario)
    price = open_range(page, OUTPUT_PRICE)
    price.get_by_label("Low").fill("1.2")
    price.get_by_label("High").fill("0.3")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    low = range_group(page, OUTPUT_PRICE).get_by_label("Low")
    expect(low).to_have_attribute("aria-invalid", "true")
    expect(low).to_have_value("1.2")  # nothing typed is lost
    error = page.locator("#id_inference_price_per_million_output_tokens_low_error")
    expect(error).to_contain_text("is above the high end")
    assert_no_axe_violations_at_each_width(page, "external API range error")
    page.get_by_role("link", name=re.compile("low: The low end")).click()
    expect(low).to_be_focused()
