"""Reasoning tokens and cached input tokens on the scenario form in headless Chromium, in English
and French, at desktop and phone widths: the fields beside output and input tokens with their
glossary link, the tokens a request writes shown apart, the architecture of a model described by
hand, and axe-core's WCAG 2.2 AA rules on the changed form (issue 20)."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    BOTH_VIEWPORTS,
    assert_no_axe_violations,
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
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
        "model": "llama-3.1-8b",
        "input_tokens": 1000,
        "cached_input_tokens": 600,
        "output_tokens": 200,
        "reasoning_tokens": 800,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    },
    "ranges": {"inference.reasoning_tokens": {"low": 300, "high": 3000}},
    "uncertainty": {"samples": 1000, "seed": 1},
}
# The words each language shows, by what they are.
WORDS = {
    "en": {
        "reasoning": "Reasoning tokens per request",
        "cached": "Cached input tokens per request",
        "written": "Tokens written per request",
        "apart": "of hidden reasoning, billed as output",
        "experts": "Experts in total",
    },
    "fr": {
        "reasoning": "Jetons de raisonnement par demande",
        "cached": "Jetons d’entrée en cache par requête",
        "written": "Jetons écrits par demande",
        "apart": "de raisonnement caché, facturés comme de la sortie",
        "experts": "Experts au total",
    },
}
LANGUAGES = pytest.mark.parametrize("language", list(WORDS))


@pytest.fixture
def reasoning_scenario():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="Assistant", name="Reasoning", inputs=INPUTS
    )


def field(page: Page, label: str):
    """The number whose label is `label` (with or without the label's colon), not its range."""
    # Folded under "More assumptions" or not, the field is brought into view first.
    return reveal(page.get_by_label(re.compile(rf"^{re.escape(label)}\s*:?$")))


def open_scenario(new_page, live_server, scenario, language: str) -> Page:
    page = new_page(
        locale="fr-FR" if language == "fr" else "en-GB",
        extra_http_headers={"Accept-Language": language},
    )
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", re.compile(rf"^{language}"))
    return page


@languages_each_at_a_width("en", "fr")
def test_the_form_with_reasoning_and_cached_tokens_has_no_axe_violations(
    new_page, viewport: dict, live_server, reasoning_scenario, language: str
) -> None:
    """English read at 1280 px, French at 390 px, each audited at both widths."""
    page = open_scenario(new_page, live_server, reasoning_scenario, language)
    words = WORDS[language]
    reasoning = field(page, words["reasoning"])
    expect(reasoning).to_be_visible()
    expect(reasoning).to_have_value("800")
    expect(field(page, words["cached"])).to_have_value("600")
    expect(field(page, words["experts"])).to_be_visible()
    inference = page.locator("article.column-inference")
    expect(inference).to_contain_text(words["written"])
    expect(inference).to_contain_text(words["apart"])
    assert_no_axe_violations_at_each_width(page, f"reasoning tokens on the form, {language}")


@BOTH_VIEWPORTS
def test_reasoning_tokens_link_to_their_glossary_entry_from_the_keyboard(
    new_page, viewport: dict, live_server, reasoning_scenario
) -> None:
    page = open_scenario(new_page, live_server, reasoning_scenario, "en")
    block = page.locator(".form-field", has=field(page, WORDS["en"]["reasoning"]))
    link = block.get_by_role("link", name=re.compile(r"\(Reasoning tokens\)"))
    link.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/glossary/reasoning-tokens/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Reasoning tokens")
    assert_no_axe_violations(page, f"the reasoning tokens entry at {viewport['width']}")


def test_more_reasoning_tokens_lengthen_the_wait_live(
    new_page, live_server, reasoning_scenario
) -> None:
    page = open_scenario(new_page, live_server, reasoning_scenario, "en")
    inference = page.locator("article.column-inference")
    expect(inference).to_contain_text("800 tokens of hidden reasoning")
    with live_preview(page):
        field(page, WORDS["en"]["reasoning"]).fill("4000")
        field(page, WORDS["en"]["reasoning"]).blur()
    expect(inference).to_contain_text(re.compile(r"4,000 tokens\s+of hidden reasoning"))
