"""Serving a language model on the scenario page in headless Chromium: the model picker, the
serving figures with their plain words one click away (keyboard too), the live preview, saving
without JavaScript, and axe-core's WCAG 2.2 AA rules at desktop and phone widths."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    live_preview,
    login,
    manager_with_scenario,
    reveal,
)

USERNAME = "maria"
PASSWORD = "a-long-test-password"
INPUTS = {
    "inference": {
        "method": "tokens",
        "model": "llama-3.1-405b",
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
        "tpot_target_seconds": 0.05,
    }
}


@pytest.fixture
def serving_scenario():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="Assistant", name="Llama 405B", inputs=INPUTS
    )


def serving(page: Page):
    return page.get_by_role("region", name="Serving the model")


def open_scenario(page: Page, live_server, scenario) -> None:
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    expect(serving(page)).to_be_visible()


def test_serving_figures_and_their_plain_words_open_from_the_keyboard(
    page_js_and_no_js: Page, live_server, serving_scenario
) -> None:
    page = page_js_and_no_js
    open_scenario(page, live_server, serving_scenario)
    figures = serving(page)
    expect(figures).to_contain_text(
        "16 accelerators per copy of the model, tensor parallel 8, in 2 pipeline stages"
    )
    expect(figures).to_contain_text(
        re.compile(
            r"Time per output token\s*(What is this\? \([^)]*\))?\s*\d+ ms within the target"
        )
    )
    summary = figures.get_by_text("What these mean, and how they are worked out")
    summary.focus()
    page.keyboard.press("Enter")
    expect(figures.get_by_text(re.compile(r"while it writes an answer"))).to_be_visible()
    expect(page.get_by_label("Language model")).to_have_value("llama-3.1-405b")


def test_choosing_another_model_updates_the_figures_live(
    page: Page, live_server, serving_scenario
) -> None:
    open_scenario(page, live_server, serving_scenario)
    with live_preview(page):
        page.get_by_label("Language model").select_option("llama-3.1-8b")
    expect(serving(page)).to_contain_text("1 accelerator per copy of the model, tensor parallel 1")


def test_without_javascript_a_replica_too_small_is_refused_beside_its_field(
    page_no_js: Page, live_server, serving_scenario
) -> None:
    page = page_no_js
    open_scenario(page, live_server, serving_scenario)
    reveal(page.get_by_label("Accelerators per copy of the model")).fill("8")
    with page.expect_navigation():
        page.get_by_role("button", name="Save scenario").click()
    error = page.locator("#id_inference_accelerators_per_replica_error")
    expect(error).to_contain_text("does not fit on 8 accelerator(s)")
    expect(page.get_by_label("Accelerators per copy of the model")).to_have_value("8")


def test_the_serving_scenario_page_has_no_axe_violations(
    page: Page, viewport: dict, live_server, serving_scenario
) -> None:
    open_scenario(page, live_server, serving_scenario)
    serving(page).get_by_text("What these mean, and how they are worked out").click()
    assert_no_axe_violations_at_each_width(page, "a serving scenario")


NOT_FITTING = {
    "inference": {
        "method": "tokens",
        "parameters": 2e13,
        "layers": 120,
        "kv_heads": 8,
        "head_dim": 128,
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 100_000,
    }
}


def test_the_plain_words_link_to_the_glossary_terms(
    page: Page, live_server, serving_scenario
) -> None:
    open_scenario(page, live_server, serving_scenario)
    figures = serving(page)
    figures.get_by_text("What these mean, and how they are worked out").click()
    # The figures link to their terms too; here, the plain words under them.
    words = figures.locator("details.formulas")
    for term in ("KV cache", "Batching", "Time per output token"):
        expect(words.get_by_role("link", name=re.compile(rf"\({term}\)", re.I))).to_be_visible()
    expect(figures).to_contain_text("Memory per accelerator = weights")
    words.get_by_role("link", name=re.compile(r"\(KV cache\)", re.I)).click()
    expect(page).to_have_url(re.compile(r"/glossary/kv-cache/$"))


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_a_model_that_fits_no_replica_says_so_plainly_without_axe_violations(
    page: Page, viewport: dict, live_server, serving_scenario
) -> None:
    serving_scenario.inputs = NOT_FITTING
    serving_scenario.save()
    open_scenario(page, live_server, serving_scenario)
    expect(serving(page)).to_contain_text("Not possible:")
    expect(serving(page)).to_contain_text("The model does not fit this accelerator")
    assert_no_axe_violations_at_each_width(page, "a model that fits no replica")
