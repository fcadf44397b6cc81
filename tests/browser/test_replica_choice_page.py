"""The copy of the model the planner chose, on the scenario page in headless Chromium: why it
was chosen, the other sizes one click away (keyboard), in English and French, and axe-core's
WCAG 2.2 AA rules at desktop and phone widths with the table open."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
    manager_with_scenario,
)

USERNAME = "maria"
PASSWORD = "a-long-test-password"
# Llama 2 70B by its architecture, FP8 weights and KV cache on H100, as MLPerf serves it.
INPUTS = {
    "inference": {
        "method": "tokens",
        "parameters": 68.98e9,
        "layers": 80,
        "kv_heads": 8,
        "head_dim": 128,
        "precision": "fp8",
        "kv_cache_bytes_per_element": 1,
        "input_tokens": 300,
        "output_tokens": 291,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 100_000_000,
    }
}
WORDS = {
    "en": {
        "region": "Serving the model",
        "because": "2 accelerators per copy: the fewest accelerators at peak (8); 1 per copy "
        "would need 47 copies (47 accelerators).",
        "summary": "Other copy sizes considered",
        "column": "Output speed per copy (tokens/s)",
    },
    "fr": {
        "region": "Service du modèle",
        "because": "2 accélérateurs par copie\u00a0: le moins d’accélérateurs en pointe "
        "(8)\u202f; avec 1 par copie, il faudrait 47 copies (47 accélérateurs).",
        "summary": "Autres tailles de copie envisagées",
        "column": "Débit de sortie par copie (jetons/s)",
    },
}


@pytest.fixture
def llama_scenario():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="Assistant", name="Llama 2 70B", inputs=INPUTS
    )


@languages_each_at_a_width("en", "fr")
def test_the_chosen_copy_says_why_and_its_alternatives_open_from_the_keyboard(
    new_page, viewport: dict, live_server, llama_scenario, language: str
) -> None:
    words = WORDS[language]
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{llama_scenario.pk}/")
    serving = page.get_by_role("region", name=words["region"])
    expect(serving).to_contain_text(words["because"])
    table = serving.get_by_role("table")
    expect(table).to_be_hidden()
    serving.get_by_text(words["summary"]).focus()
    page.keyboard.press("Enter")
    expect(table).to_be_visible()
    expect(table.get_by_role("columnheader", name=words["column"])).to_be_visible()
    expect(table.get_by_role("row")).to_have_count(6)  # the header and five sizes
    assert_no_axe_violations_at_each_width(page, f"the replica choice in {language}")
