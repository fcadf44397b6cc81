"""Plan against actual, the output side, in headless Chromium, in English and French at 1280 and
390 px: a manager reads planned tokens beside actual ones and re-plans from the actuals through
the confirmation page (no JavaScript needed), landing on the new scenario, which says where its
figures came from; the front office reads plan against actual on the portfolio and on the
review page of a cleared workplan. No horizontal overflow, no axe violation (WCAG 2.2 AA)."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from apps.actuals.models import ActualAmount
from apps.actuals.services import actual_enter
from apps.reviews.services import project_clear, project_submit
from tests.actuals_worlds import baseline_project
from tests.browser.conftest import (
    LANGUAGE_CONTEXTS,
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
)
from tests.factories import make_front_office, make_manager

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password"
WORDS = {
    "en": {"replan": "Re-plan from actuals", "create": "Create the re-planned scenario",
           "origin": "Re-planned from the actuals", "planned": "Tokens planned",
           "portfolio": "Plan against actual by fiscal year, in USD, over 1 project",
           "review": "Plan against actual by fiscal year, in USD"},
    "fr": {"replan": "Re-planifier sur le réalisé", "create": "Créer le scénario re-planifié",
           "origin": "Re-planifié sur le réalisé", "planned": "Jetons prévus",
           "portfolio": "Prévu et réalisé par exercice, en USD, sur 1 projet",
           "review": "Prévu et réalisé par exercice, en USD"},
}  # fmt: skip


def _world(owner):
    project = baseline_project(owner, "Assistant", inference=True)
    for month, requests in ((3, 1_000), (4, 1_100), (5, 1_320), (6, 1_452)):
        ActualAmount.objects.create(
            project=project,
            source="gateway",
            billing_period=date(2026, month, 1),
            month=date(2026, month, 1),
            kind="inference_compute",
            token_type="input",
            amount=Decimal("2.40"),
            tokens=requests * 1_400,
        )
        actual_enter(project=project, month=date(2026, month, 1), kind="storage", amount=260)
    return project


@pytest.fixture
def users(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    return make_manager("maria", PASSWORD), make_front_office("fiona", PASSWORD)


def checked(page: Page, where: str, language: str) -> None:
    """In `language`, axe clean and no wider than the screen at 1280 and at 390 px (resized in
    place): each language's flow, clicked through at one width, is audited at both."""
    expect(page.locator("html")).to_have_attribute("lang", re.compile(rf"^{language}"))
    assert_no_axe_violations_at_each_width(page, where, fits=True)


@languages_each_at_a_width("en", "fr")
def test_a_manager_reads_planned_tokens_and_replans_from_actuals(
    new_page, live_server, users, language, viewport
):
    words = WORDS[language]
    project = _world(users[0])
    page = new_page(**LANGUAGE_CONTEXTS[language])
    login(page, live_server, "maria", PASSWORD, next_path=f"/projects/{project.pk}/actuals/")
    expect(page.locator("#usage-years-caption + thead")).to_contain_text(words["planned"])
    checked(page, f"plan against actual with planned tokens ({language})", language)
    page.get_by_role("link", name=words["replan"]).click()
    expect(page.locator("#replan-demand")).to_be_visible()
    checked(page, f"re-plan confirmation ({language})", language)
    page.get_by_role("button", name=words["create"]).click()
    expect(page.locator("#scenario-origin")).to_contain_text(words["origin"])
    checked(page, f"re-planned scenario ({language})", language)


@languages_each_at_a_width("en", "fr")
def test_the_front_office_reads_plan_against_actual_on_the_portfolio_and_review(
    new_page, live_server, users, language, viewport
):
    owner, front = users
    words = WORDS[language]
    project = _world(owner)
    project_submit(project=project, user=owner)
    project_clear(project=project, user=front)
    page = new_page(**LANGUAGE_CONTEXTS[language])
    login(page, live_server, "fiona", PASSWORD, next_path="/portfolio/?status=cleared")
    expect(page.locator("#portfolio-variance-heading")).to_be_visible()
    expect(page.get_by_text(words["portfolio"])).to_be_visible()
    checked(page, f"portfolio with plan against actual ({language})", language)
    page.goto(f"{live_server.url}/reviews/{project.pk}/")
    expect(page.locator("#review-variance-caption")).to_contain_text(words["review"])
    checked(page, f"review of a cleared workplan with plan against actual ({language})", language)
