"""The decision page in Chromium: a manager compares the options for the translation assistant,
switches the API model, uses the cheapest option as a new scenario, with JavaScript and without;
axe-core's WCAG 2.2 AA rules at desktop and phone widths."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.apiprices.loading import api_prices_load
from apps.projects.models import Project
from apps.projects.roles import MANAGER
from tests.browser.conftest import BOTH_VIEWPORTS, assert_no_axe_violations, login
from tests.factories import TRANSLATION_INFERENCE

PASSWORD = "a-long-test-password"


@pytest.fixture
def scenario(real_catalogue, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()
    user = get_user_model().objects.create_user("maria", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(
        owner=user,
        title="Translation assistant",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )
    return project.scenarios.create(name="Wider use", inputs={"inference": TRANSLATION_INFERENCE})


def test_a_manager_compares_switches_the_api_model_and_uses_the_cheapest(
    page_js_and_no_js: Page, live_server, scenario
) -> None:
    page = page_js_and_no_js
    path = f"/scenarios/{scenario.pk}/options/"
    login(page, live_server, "maria", PASSWORD, next_path=path)
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
    expect(page).to_have_url(f"{live_server.url}/scenarios/{scenario.pk + 1}/")
    expect(
        page.get_by_text("Wider use: Self-host on rented accelerators, pay per use")
    ).not_to_have_count(0)
    assert scenario.project.scenarios.count() == 2


@BOTH_VIEWPORTS
def test_the_decision_page_has_no_axe_violations(page: Page, viewport: dict, live_server, scenario):
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/options/")
    expect(page.get_by_role("img", name="Monthly cost against monthly requests")).to_be_visible()
    assert_no_axe_violations(page, f"options at {viewport['width']}x{viewport['height']}")
