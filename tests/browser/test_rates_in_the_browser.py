"""Rates of a project in another currency in headless Chromium: the owner gives a fiscal year a
rate of its own and the rate a 90 % range, a manager adds a cost line in francs, and the budget
page says every rate beside the amounts it converts; axe-core finds no WCAG 2.2 AA violation on
the budget page, the fiscal-year rates page, the cost line form and the project form, at 1280
and 390 px, in English and French (issue 23)."""

import datetime
import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.language import language_preference_set
from apps.projects.models import Project
from tests.browser.conftest import (
    OPTIONS_PASSWORD,
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.factories import make_euro_scenario

pytestmark = pytest.mark.browser

PASSWORD = OPTIONS_PASSWORD


@pytest.fixture
def scenario(ecb_manager):
    return make_euro_scenario(ecb_manager)


def test_the_owner_sets_a_years_rate_a_range_and_a_line_in_francs(
    page: Page, live_server, scenario
) -> None:
    project = scenario.project
    budget = f"{live_server.url}/scenarios/{scenario.pk}/budget/"
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    page.get_by_role("link", name="Give a fiscal year an exchange rate of its own").click()
    page.get_by_label("1 US dollar in EUR in FY2027").fill("0.95")
    page.get_by_role("button", name="Save rates").click()
    expect(page).to_have_url(budget)
    rates = page.locator("ul.budget-rates")
    expect(rates).to_contain_text("1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)")
    expect(rates).to_contain_text("FY2027: 1 USD = 0.9500 EUR (the project's rate for this")
    project.refresh_from_db()
    assert project.fiscal_year_rates == {"FY2027": "0.95"}

    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/cost-lines/new/?kind=licence")
    page.get_by_label(re.compile(r"^Quantity")).fill("1")
    page.get_by_label(re.compile(r"^Unit price")).fill("1200")
    page.get_by_label(re.compile(r"^Currency of the unit price")).select_option("CHF")
    page.get_by_label(re.compile(r"^Start")).fill("2026-01-01")
    page.get_by_role("button", name="Add line").click()
    table = page.locator("table.budget-table")
    expect(table).to_contain_text("Entered in CHF: 1 CHF = 1.0711 EUR")
    expect(page.locator(".cost-line-list")).to_contain_text("CHF")

    page.goto(f"{live_server.url}/projects/{project.pk}/edit/")
    page.get_by_label(re.compile(r"low end")).fill("0.80")
    page.get_by_label(re.compile(r"high end")).fill("0.95")
    page.get_by_role("button", name="Save project").click()
    project.refresh_from_db()
    assert (project.rate_low, project.rate_high) == (Decimal("0.8"), Decimal("0.95"))
    page.goto(budget)
    expect(page.locator("section#budget")).to_contain_text("9 in 10 chance")


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_rates_pages_have_no_axe_violations(
    page: Page, language: str, live_server, ecb_manager, scenario
) -> None:
    project = scenario.project
    Project.objects.filter(pk=project.pk).update(
        fiscal_year_rates={"FY2027": "0.95"},
        rate_low=Decimal("0.8"),
        rate_high=Decimal("0.95"),
    )
    scenario.cost_lines.create(
        name="Licence",
        kind="licence",
        quantity=1,
        unit="seat",
        unit_price=1200,
        currency="CHF",
        recurrence="monthly",
        start=datetime.date(2026, 1, 1),
        category=7,
    )
    language_preference_set(user=ecb_manager, language=language)
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    for path in (
        f"/scenarios/{scenario.pk}/budget/",
        f"/scenarios/{scenario.pk}/fiscal-year-rates/",
        f"/scenarios/{scenario.pk}/cost-lines/new/?kind=licence",
        f"/projects/{project.pk}/edit/",
    ):
        page.goto(f"{live_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert_no_axe_violations_at_each_width(page, f"{path} in {language}")
