"""The scenario page in headless Chromium for issue 27: a fine-tune of Llama 3.1 405B says where
it stands against the EU guidelines' one-third rule in plain words, both columns show embodied
emissions and water, and the model being fine-tuned is chosen in the form; axe-core's WCAG 2.2
AA rules at desktop and phone widths, in English and French."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
    manager_with_scenario,
)

USERNAME = "noor"
PASSWORD = "a-long-test-password"
INPUTS = {
    "training": {
        "method": "total_flop",
        "total_flop": 1.52e23,  # 0.4 % of Llama 3.1 405B's published 3.8e25 FLOP
        "accelerator": "nvidia-h100-sxm",
        "accelerator_count": 64,
        "base_model": "llama-3.1-405b",
    },
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 15_000,
    },
}
RULE = {
    "en": "This fine-tune uses 0.4 % of Meta Llama 3.1 405B's published training compute; the "
    "one-third rule is far away.",
    "fr": "Cet affinage utilise 0,4\u00a0% de la puissance de calcul d’entraînement publiée de "
    "Meta Llama 3.1 405B\u00a0; la règle du tiers est loin.",
}
WORDS = {
    "en": ("Embodied emissions", "Water over the horizon", "Model being fine-tuned"),
    "fr": ("Émissions intrinsèques", "Eau sur l’horizon", "Modèle affiné"),
}


@pytest.fixture
def fine_tune():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="Legal assistant", name="Fine-tune", inputs=INPUTS
    )


@languages_each_at_a_width("en", "fr")
def test_the_rule_and_the_footprint_read_plainly_without_axe_violations(
    new_page, viewport: dict, live_server, fine_tune, language: str
) -> None:
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{fine_tune.pk}/")
    training = page.locator("article.column-training")
    expect(training.locator(".modification")).to_contain_text(RULE[language])
    embodied, water, field = WORDS[language]
    expect(training).to_contain_text(embodied)
    expect(page.locator("article.column-inference")).to_contain_text(water)
    expect(page.get_by_label(field)).to_have_value("llama-3.1-405b")
    assert_no_axe_violations_at_each_width(page, f"fine-tune footprint in {language}")
