"""The scenario page in headless Chromium for issue 20: training on V100s, which have no rental
price, shows its figures and says it is not priced, with axe-core's WCAG 2.2 AA rules at desktop
and phone widths, in English and French; the form offers no FP4 on an accelerator without it."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
    manager_with_scenario,
)

USERNAME = "ines"
PASSWORD = "a-long-test-password"
INPUTS = {
    "training": {
        "method": "parameters_tokens",
        "parameters": 175e9,
        "tokens": 300e9,
        "accelerator": "nvidia-v100-sxm2",
        "precision": "fp16",
        "accelerator_count": 1024,
    },
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 15_000,
    },
}
NOT_PRICED = {
    "en": "Not priced: no price per accelerator-hour was given",
    "fr": "Non chiffré\u00a0: aucun prix par heure-accélérateur n’a été donné",
}


@pytest.fixture
def unpriced_scenario():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="GPT-3 replay", name="V100s", inputs=INPUTS
    )


@languages_each_at_a_width("en", "fr")
def test_unpriced_training_and_the_formats_offered_read_plainly_without_axe_violations(
    new_page, viewport: dict, live_server, unpriced_scenario, language: str
) -> None:
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{unpriced_scenario.pk}/")
    training = page.locator("article.column-training")
    expect(training).to_contain_text(NOT_PRICED[language])
    # The H100 has no FP4 peak: the form does not offer it (test_precision_choices_in_the_browser).
    expect(page.locator("#id_inference_precision option[value=fp4]")).to_have_count(0)
    expect(page.locator("#id_inference_precision option[value=fp8]")).to_have_count(1)
    assert_no_axe_violations_at_each_width(page, f"unpriced training in {language}")
