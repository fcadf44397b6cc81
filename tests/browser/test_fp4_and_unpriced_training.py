"""The scenario page in headless Chromium for issue 20: training on V100s, which have no rental
price, shows its figures and says it is not priced, with axe-core's WCAG 2.2 AA rules at desktop
and phone widths, in English and French; the form offers FP4 and, saved without JavaScript,
refuses it beside the field on an accelerator without it."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    BOTH_VIEWPORTS,
    assert_no_axe_violations,
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
FP4_REFUSED = {
    "en": "NVIDIA H100 SXM cannot compute in fp4",
    "fr": "NVIDIA H100 SXM ne peut pas calculer en fp4",
}


@pytest.fixture
def unpriced_scenario():
    return manager_with_scenario(
        USERNAME, PASSWORD, title="GPT-3 replay", name="V100s", inputs=INPUTS
    )


@BOTH_VIEWPORTS
@pytest.mark.parametrize("language", ["en", "fr"])
def test_unpriced_training_and_a_refused_fp4_read_plainly_without_axe_violations(
    new_page, viewport: dict, live_server, unpriced_scenario, language: str
) -> None:
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{unpriced_scenario.pk}/")
    training = page.locator("article.column-training")
    expect(training).to_contain_text(NOT_PRICED[language])
    size = f"{viewport['width']}x{viewport['height']}"
    # The page holds the form too, with its FP4 option (axe runs with JavaScript only).
    assert_no_axe_violations(page, f"unpriced training in {language} at {size}")
    page.context.close()
    # Without JavaScript the form is saved as typed, and the error is beside its field.
    page = new_page(extra_http_headers={"Accept-Language": language}, java_script_enabled=False)
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{unpriced_scenario.pk}/")
    precision = page.locator("#id_inference_precision")
    expect(precision.locator("option[value=fp4]")).to_have_text("FP4")
    precision.select_option("fp4")
    with page.expect_navigation():
        page.locator("#scenario-form > button[type=submit]").click()
    expect(page.locator("#id_inference_precision_error")).to_contain_text(FP4_REFUSED[language])
    expect(precision).to_have_value("fp4")
