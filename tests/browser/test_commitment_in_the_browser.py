"""Capacity rented on commitment in headless Chromium: a manager commits a scenario's serving
capacity for a term, pays it all upfront, and follows it to the budget (the upfront payment in
its fiscal year, the committed capacity left idle) and to the decision view (when a commitment
pays), with JavaScript and without; axe-core finds no WCAG 2.2 AA violation on the scenario,
budget, decision and catalogue pages, in English and French, at 1280 and 390 px (issue 23)."""

import datetime
import re

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.language import language_preference_set
from apps.apiprices.loading import api_prices_load
from apps.projects.models import Project
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
    reveal,
)
from tests.factories import make_manager, make_scenario

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password"
# 300,000 requests a month × 2 accelerator-seconds at 3.00 an accelerator-hour: one accelerator
# at the peak, committed for a year at 40 % off: 730.5 × 12 × 1.80 = 15,778.80.
COMMITTED = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 3.0,
    "requests_per_month": 300_000,
    "months": 12,
    "provisioning": "committed",
    "commitment_years": 1,
    "upfront_share": 0.0,
    "commitment_discount": 0.4,
}


@pytest.fixture
def manager(settings, real_catalogue):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()
    return make_manager("maria", PASSWORD)


@pytest.fixture
def scenario(manager):
    project = Project.objects.create(
        owner=manager,
        title="Translation assistant",
        unit="Section A",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )
    return make_scenario(
        project,
        "Committed",
        inputs={"inference": COMMITTED},
        is_baseline=True,
        timing={"service_start": datetime.date(2027, 1, 1)},
    )


def field(page: Page, label: str):
    """A form field by its whole label (Django's labels end with a colon, French ones " :")."""
    # Folded under "More assumptions" or not, the field is brought into view first.
    return reveal(page.get_by_label(re.compile(rf"^{re.escape(label)}(\s?:)?$")))


def test_a_manager_pays_a_commitment_upfront_and_follows_it_to_the_budget_and_the_options(
    page_js_and_no_js: Page, live_server, scenario
) -> None:
    page = page_js_and_no_js
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    commitment = page.locator("section.commitment")
    expect(commitment).to_contain_text("Paid every month of each term")
    expect(
        page.get_by_label("Committed for a term (rented for 1 or 3 years at a discount)")
    ).to_be_checked()
    field(page, "Share of each term paid upfront (%)").fill("100")
    page.get_by_role("button", name="Save scenario").click()
    expect(page).to_have_url(re.compile(rf"/scenarios/{scenario.pk}/"))
    upfront = commitment.locator("div", has_text="Paid at the start of each term").locator("data")
    expect(upfront).to_have_attribute("value", "15778.80")
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["upfront_share"] == 1.0

    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/budget/")
    table = page.get_by_role("table", name=re.compile("^Budget by fiscal year"))
    upfront_row = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="Committed capacity paid upfront")
    )
    # All of it in January 2027, the first fiscal year; capex under the 5,000 threshold rule.
    expect(upfront_row.locator("td").nth(0)).to_have_text("Capex")
    expect(upfront_row.locator("data").first).to_have_attribute("value", "15778.80")
    idle = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name=re.compile("^Committed capacity left idle"))
    )
    expect(idle.locator("data").first).to_have_attribute("value", "12178.80")

    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/options/")
    options = page.get_by_role("table", name="The options compared")
    expect(
        options.get_by_role("rowheader", name=re.compile("committed for a term"))
    ).to_contain_text("terms of 12 months, 40% off, 100% upfront")
    expect(
        page.get_by_role("heading", level=2, name=re.compile("When a commitment pays"))
    ).to_be_visible()
    expect(
        page.get_by_text(re.compile("busy more than 60% of the committed hours"))
    ).to_be_visible()


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_pages_a_commitment_changes_have_no_axe_violations(
    page: Page, language: str, live_server, manager, scenario
) -> None:
    """Each page loaded once and audited at 1280 and at 390 px (resized in place). The hardware
    catalogue's commitment discounts are audited with the rest of it, at both widths, in
    test_hardware_catalogue_page.py (English) and test_languages_in_the_browser.py (French)."""
    language_preference_set(user=manager, language=language)
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    heading = (
        "Capacité engagée pour une durée" if language == "fr" else "Capacity committed for a term"
    )
    expect(page.get_by_role("heading", level=4, name=re.compile(heading))).to_be_visible()
    for path in (
        f"/scenarios/{scenario.pk}/",  # where the sign-in landed
        f"/scenarios/{scenario.pk}/budget/",
        f"/scenarios/{scenario.pk}/options/",
    ):
        if page.url != f"{live_server.url}{path}":
            page.goto(f"{live_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert_no_axe_violations_at_each_width(page, f"{path} in {language}", fits=True)
