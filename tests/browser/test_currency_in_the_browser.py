"""A project in another currency in headless Chromium: a manager chooses the euro and the day of
its rate on the project's form, and the scenario's page gives every figure in euros with the
ECB's reference rate it was converted at, with JavaScript and without; axe-core finds no WCAG 2.2
AA violation on the project form and the scenario page, in English and French (issue 23)."""

import datetime
import re

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.language import language_preference_set
from apps.projects.models import Project
from tests.browser.conftest import (
    OPTIONS_PASSWORD,
    assert_no_axe_violations,
    baseline_scenario,
    login,
)

pytestmark = pytest.mark.browser

PASSWORD = OPTIONS_PASSWORD


@pytest.fixture
def scenario(ecb_manager):
    return baseline_scenario(
        ecb_manager,
        "Translation assistant",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )


def test_a_manager_budgets_in_euros_at_the_ecbs_rate_of_a_day(
    page_js_and_no_js: Page, live_server, scenario
) -> None:
    page = page_js_and_no_js
    project = scenario.project
    login(page, live_server, "maria", PASSWORD, next_path=f"/projects/{project.pk}/edit/")
    page.get_by_label(re.compile(r"^Currency")).select_option("EUR")
    page.get_by_label(re.compile(r"^Exchange rate date")).fill("2025-06-01")
    page.get_by_role("button", name="Save project").click()
    project.refresh_from_db()
    assert (project.currency, project.rate_date) == ("EUR", datetime.date(2025, 6, 1))

    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    comparison = page.locator("#comparison")
    # A Sunday: Friday's rate, and the page says so.
    expect(comparison.locator("p.exchange-rate")).to_contain_text(
        "1 USD = 0.8819 EUR (ECB reference rate of 30 May 2025, the last before 1 June 2025)"
    )
    expect(comparison.locator("dl.figures").first).to_contain_text("€")
    expect(comparison.locator("dl.figures").first).not_to_contain_text("$")


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_project_form_and_a_euro_scenario_have_no_axe_violations(
    page: Page, language: str, live_server, ecb_manager, scenario
) -> None:
    project = scenario.project
    Project.objects.filter(pk=project.pk).update(
        currency="XOF", rate_date=datetime.date(2025, 6, 2)
    )
    language_preference_set(user=ecb_manager, language=language)
    login(page, live_server, "maria", PASSWORD, next_path=f"/projects/{project.pk}/edit/")
    for path in (f"/projects/{project.pk}/edit/", f"/scenarios/{scenario.pk}/"):
        page.goto(f"{live_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert_no_axe_violations(page, f"{path} in {language}")
    sentence = (
        "1 USD = 574,4435 XOF (taux de référence de la BCE du 2 juin 2025 ; XOF fixé à l’euro"
        if language == "fr"
        else "1 USD = 574.4435 XOF (ECB reference rate of 2 June 2025; XOF fixed to the euro"
    )
    expect(page.locator("p.exchange-rate")).to_contain_text(sentence.replace(" ;", "\u202f;"))
