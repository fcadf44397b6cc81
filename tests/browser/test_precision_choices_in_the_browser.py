"""The scenario form's number formats follow the accelerator chosen, in headless Chromium (issue
20): with JavaScript, htmx swaps the formats in when the accelerator changes (FP4 only where the
accelerator has an FP4 peak); without it, a refused FP4 is drawn again beside its field naming the
accelerator's formats; axe-core's WCAG 2.2 AA rules at desktop and phone widths, in English and
French."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects.models import Project
from apps.projects.roles import MANAGER
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    live_preview,
    login,
    reveal,
)

USERNAME = "beatrix"
PASSWORD = "a-long-test-password"
INPUTS = {
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-b200",
        "precision": "fp4",
        "requests_per_month": 15_000,
    },
}
WORDS = {
    "en": {
        "unavailable": "FP4 (not available on NVIDIA H100 SXM)",
        "formats": "NVIDIA H100 SXM computes in FP32, TF32, BF16, FP16, FP8, INT8.",
        "refused": "NVIDIA H100 SXM cannot compute in fp4",
    },
    "fr": {
        "unavailable": "FP4 (non disponible sur NVIDIA H100 SXM)",
        "formats": "NVIDIA H100 SXM calcule en FP32, TF32, BF16, FP16, FP8, INT8.",
        "refused": "NVIDIA H100 SXM ne peut pas calculer en fp4",
    },
}
LANGUAGES = pytest.mark.parametrize("language", list(WORDS))


@pytest.fixture
def fp4_scenario(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(owner=user, title="Blackwell", unit="Section A")
    return project.scenarios.create(name="FP4", inputs=INPUTS, is_baseline=True)


def open_scenario(new_page, live_server, scenario, language: str, **options) -> Page:
    page = new_page(extra_http_headers={"Accept-Language": language}, **options)
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    return page


def choose_accelerator(page: Page, slug: str) -> None:
    with page.expect_response(lambda r: "/scenarios/precisions/inference/" in r.url):
        page.locator("#id_inference_accelerator").select_option(slug)


@languages_each_at_a_width("en", "fr")
def test_the_formats_follow_the_accelerator_without_axe_violations(
    new_page, viewport: dict, live_server, fp4_scenario, language: str
) -> None:
    """English worked at 1280 px, French at 390 px, each audited at both widths."""
    page = open_scenario(new_page, live_server, fp4_scenario, language)
    precision = reveal(page.locator("#id_inference_precision"))
    expect(precision).to_have_value("fp4")
    expect(precision.locator("option[value=fp4]")).to_have_text("FP4")
    # To an H100: FP4 stays chosen, marked, and the field says the H100's formats.
    choose_accelerator(page, "nvidia-h100-sxm")
    expect(precision.locator("option[value=fp4]")).to_have_text(WORDS[language]["unavailable"])
    expect(precision).to_have_value("fp4")
    expect(page.locator("#id_inference_precision_helptext")).to_contain_text(
        WORDS[language]["formats"]
    )
    assert_no_axe_violations_at_each_width(page, f"the H100's formats in {language}")
    # BF16 chosen, FP4 is gone from the H100's list; back on a B200 it is offered again.
    precision.select_option("bf16")
    choose_accelerator(page, "nvidia-h200-sxm")
    expect(precision.locator("option[value=fp4]")).to_have_count(0)
    expect(precision).to_have_value("bf16")
    choose_accelerator(page, "nvidia-b200")
    expect(precision.locator("option[value=fp4]")).to_have_text("FP4")
    precision.select_option("fp4")
    expect(precision).to_have_value("fp4")
    # The swapped field still works from the keyboard and keeps the form's preview.
    with live_preview(page):
        precision.focus()
        page.keyboard.press("ArrowUp")
    expect(precision).to_have_value("int8")
    assert_no_axe_violations_at_each_width(page, f"the B200's formats in {language}")


@languages_each_at_a_width("en", "fr")
def test_without_javascript_a_refused_fp4_names_the_accelerators_formats(
    new_page, viewport: dict, live_server, fp4_scenario, language: str
) -> None:
    page = open_scenario(new_page, live_server, fp4_scenario, language, java_script_enabled=False)
    precision = reveal(page.locator("#id_inference_precision"))
    page.locator("#id_inference_accelerator").select_option("nvidia-h100-sxm")
    with page.expect_navigation():
        page.locator("#scenario-form > button[type=submit]").click()
    error = page.locator("#id_inference_precision_error")
    expect(error).to_contain_text(WORDS[language]["refused"])
    expect(error).to_contain_text("fp32, tf32, bf16, fp16, fp8, int8")
    expect(precision).to_have_value("fp4")
    expect(precision).to_have_attribute("aria-invalid", "true")
    expect(precision.locator("option[value=fp4]")).to_have_text(WORDS[language]["unavailable"])
    # Choosing one of the H100's formats saves.
    precision.select_option("fp8")
    with page.expect_navigation():
        page.locator("#scenario-form > button[type=submit]").click()
    expect(page.locator("#id_inference_precision")).to_have_value("fp8")
    expect(page.locator("#id_inference_precision option[value=fp4]")).to_have_count(0)
    expect(page).to_have_url(re.compile(rf"/scenarios/{fp4_scenario.pk}/"))
