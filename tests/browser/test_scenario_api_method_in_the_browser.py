"""The scenario form's API methods in Chromium: a manager of a confidential project chooses an
external model API, sees the data warning beside the choice and only the API's fields, picks a
model from the price catalogue and saves; with JavaScript and without; axe-clean at 1280 and
390 px with the warning shown."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.apiprices.loading import api_prices_load
from apps.projects.models import Classification, Project
from apps.projects.roles import MANAGER
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
    reveal,
)

PASSWORD = "a-long-test-password"
INFERENCE = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 300_000,
    "months": 24,
}


@pytest.fixture
def scenario(real_catalogue, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()
    user = get_user_model().objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(
        owner=user,
        title="Translation assistant",
        classification=Classification.CONFIDENTIAL,
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )
    return project.scenarios.create(name="Wider use", inputs={"inference": INFERENCE})


def choose_the_api(page: Page) -> None:
    page.get_by_label("Through an external model API, priced per token").check()
    page.locator("#id_inference_api_model").fill("openai-gpt-4o-mini")
    page.locator("#id_inference_input_tokens").fill("1000")
    reveal(page.locator("#id_inference_cached_input_tokens")).fill("400")
    page.locator("#id_inference_output_tokens").fill("500")
    reveal(page.locator("#id_inference_batch_discount")).fill("50")


def test_a_manager_chooses_an_external_api_and_saves_it(
    page_js_and_no_js: Page, live_server, scenario, request
) -> None:
    page = page_js_and_no_js
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    warning = page.locator("#external_api-warning")
    java_script = "no-js" not in request.node.name
    choose_the_api(page)
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Before you try this")
    expect(warning).to_contain_text("This project will process confidential data.")
    if java_script:
        # Only the API's fields: the accelerator-seconds of self-hosting are hidden.
        expect(page.locator("#id_inference_accelerator_seconds_per_request")).to_be_hidden()
    page.get_by_role("button", name="Save scenario").click()
    expect(page.get_by_text("Scenario saved.")).to_be_visible()
    expect(page.get_by_label("Through an external model API, priced per token")).to_be_checked()
    expect(page.locator("#id_inference_api_model")).to_have_value("openai-gpt-4o-mini")
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert inference["method"] == "external_api"
    assert inference["api_model"] == "openai-gpt-4o-mini"
    assert inference["cached_input_tokens"] == 400 and inference["batch_discount"] == 0.5
    assert "accelerator_seconds_per_request" not in inference


def test_an_unknown_model_is_an_error_beside_its_field(page: Page, live_server, scenario) -> None:
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    choose_the_api(page)
    page.locator("#id_inference_api_model").fill("no-such-model")
    page.get_by_role("button", name="Save scenario").click()
    error = page.locator("#id_inference_api_model_error")
    expect(error).to_contain_text("No API model")
    expect(page.locator("#id_inference_api_model")).to_have_value("no-such-model")
    expect(page.locator("#id_inference_output_tokens")).to_have_value("500")


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_the_form_with_the_api_chosen_has_no_axe_violations(
    page: Page, viewport: dict, live_server, scenario
) -> None:
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    choose_the_api(page)
    expect(page.locator("#external_api-warning")).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "scenario form, external API")
