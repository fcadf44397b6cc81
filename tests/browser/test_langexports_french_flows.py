"""The front-office and board flows in French, in headless Chromium: a reviewer reads the queue,
opens a workplan and returns it with a comment; a board member opens a share link. Every page
says <html lang="fr">, speaks French, and axe finds no WCAG 2.2 AA violation at 1280 and 390 px."""

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import FRONT_OFFICE
from apps.reviews import services
from apps.sharing import services as sharing
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.factories import make_manager, make_project, make_scenario

PASSWORD = "a-long-test-password"
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]
FRENCH = {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr"}}


@pytest.fixture
def submitted(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    manager = make_manager("maria", PASSWORD)
    reviewer = make_manager("fiona", PASSWORD)
    reviewer.groups.set([Group.objects.get_or_create(name=FRONT_OFFICE)[0]])
    project = make_project(manager, "Assistant de traduction", unit="Services linguistiques")
    scenario = make_scenario(
        project, str(TRANSLATION.name), inputs=TRANSLATION.inputs, is_baseline=True
    )
    services.project_submit(project=project, user=manager)
    return project, scenario


def in_french(page: Page, where: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert_no_axe_violations_at_each_width(page, where, fits=True)


def test_a_reviewer_returns_a_workplan_in_french(new_page, live_server, submitted):
    """Worked at 1280 px; each page audited at 1280 and at 390 px (in_french)."""
    project, _ = submitted
    page = new_page(**FRENCH)
    login(page, live_server, "fiona", PASSWORD, next_path="/reviews/")
    expect(page.get_by_role("heading", level=1)).to_have_text("File de revue")
    expect(page.get_by_role("heading", name="1 plan de travail")).to_be_visible()
    in_french(page, "the review queue in French")

    page.get_by_role("link", name="Assistant de traduction").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Examen : Assistant de traduction")
    expect(page.get_by_role("heading", name="Les scénarios tels que soumis")).to_be_visible()
    expect(page.get_by_role("heading", name="Décision")).to_be_visible()
    in_french(page, "the review page in French")

    page.get_by_label("Ce qui doit changer").fill("Ajoutez le coût de l’hébergement.")
    page.get_by_role("button", name="Renvoyer pour modification").click()
    expect(page.get_by_text("est renvoyé à ses responsables pour modification")).to_be_visible()
    expect(page.get_by_text("Ajoutez le coût de l’hébergement.")).to_be_visible()
    in_french(page, "the review page after the decision in French")
    project.refresh_from_db()
    assert project.status == "returned"


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_a_board_member_opens_a_share_link_in_french(new_page, submitted):
    """Read at 390 px; audited at 1280 and at 390 px (in_french)."""
    _, scenario = submitted
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(
        subject=version, user=scenario.project.owner, label="Conseil"
    )
    page = new_page(**FRENCH)
    page.goto(f"/s/{token}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(str(TRANSLATION.name))
    expect(page.get_by_text("Une page en lecture seule partagée par lien.")).to_be_visible()
    expect(page.get_by_text("Un scénario du projet « Assistant de traduction ».")).to_be_visible()
    in_french(page, "a shared scenario in French")
