"""The pages that email brings, in the browser, in English and French, at desktop and phone
widths: the preferences, a project's invitations, the page an invitation's link opens, and the
password reset pages. Each is axe clean (with its errors shown too) and fits the screen; each
works with the keyboard alone, as a person goes through it."""

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.models import Preferences
from apps.notifications.invitations import invitation_create
from apps.notifications.links import invitation_token
from apps.notifications.models import Invitation
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.factories import make_manager, make_project, make_scenario

PASSWORD = "a-long-test-password"
LANGUAGES = {"en-gb": "en-GB", "fr": "fr-FR"}


@pytest.fixture(autouse=True)
def _quick_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only


@pytest.fixture
def owner(real_catalogue):
    user = make_manager("maria", PASSWORD)
    user.email = "maria@example.org"
    user.save()
    return user


@pytest.fixture
def project(owner):
    project = make_project(owner, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    return project


def in_language(new_page, language: str) -> Page:
    return new_page(locale=LANGUAGES[language], extra_http_headers={"Accept-Language": language})


def check(page: Page, language: str, label: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert_no_axe_violations_at_each_width(page, f"{label} in {language}", fits=True)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_new_pages_are_axe_clean_and_fit_the_screen(
    new_page, live_server, owner, project, language
) -> None:
    """Each page state audited at 1280 and at 390 px, the page resized in place."""
    page = in_language(new_page, language)
    page.goto("/accounts/password/reset/")
    check(page, language, "the password reset form")
    page.locator("main form button[type=submit]").click()  # no address: the error is shown
    expect(page.locator(".error-summary")).to_be_visible()
    check(page, language, "the password reset form with its error")
    page.goto("/accounts/password/reset/sent/")
    check(page, language, "the reset email's sent page")
    page.goto("/accounts/reset/MQ/no-such-token/")
    check(page, language, "a reset link that does not work")
    invitation = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language=language
    )
    page.goto(f"/invitations/{invitation_token(invitation.pk)}/")
    check(page, language, "an invitation's page")
    page.goto("/invitations/not-a-token/")
    check(page, language, "an invitation link that does not work")

    login(page, live_server, "maria", PASSWORD, next_path="/accounts/preferences/")
    check(page, language, "the preferences")
    page.goto(f"/projects/{project.pk}/invitations/")
    check(page, language, "a project's invitations")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".error-summary")).to_be_visible()
    check(page, language, "a project's invitations with an error")


def test_forgotten_password_from_the_sign_in_page_with_the_keyboard(page: Page, owner) -> None:
    page.goto("/accounts/login/")
    link = page.get_by_role("link", name="Forgotten your password?")
    link.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Reset your password")
    page.get_by_label("Email").focus()
    page.keyboard.type("maria@example.org")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")


def test_an_owner_invites_a_colleague_and_the_colleague_joins(
    new_page, live_server, owner, project
) -> None:
    page = new_page()
    login(page, live_server, "maria", PASSWORD, next_path=f"/projects/{project.pk}/")
    page.get_by_role("link", name="Invite a collaborator by email").click()
    page.get_by_label("Email address").fill("amel@example.org")
    page.get_by_label("Language of the invitation").select_option("fr")
    page.get_by_role("button", name="Send the invitation").click()
    expect(page.get_by_role("status")).to_contain_text("amel@example.org is invited")
    expect(page.get_by_role("table")).to_contain_text("Not yet taken up")

    invitation = Invitation.objects.get()
    guest = new_page(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    guest.goto(f"/invitations/{invitation_token(invitation.pk)}/")
    expect(guest.get_by_role("heading", level=1)).to_contain_text("Rejoindre")
    guest.get_by_role("textbox", name="Nouveau mot de passe", exact=False).first.fill(PASSWORD)
    guest.get_by_label("Confirmation du nouveau mot de passe").fill(PASSWORD)
    guest.get_by_role("button", name="Choisir mon mot de passe et rejoindre le projet").click()
    expect(guest.get_by_role("heading", level=1)).to_have_text("Translation assistant")
    expect(guest.get_by_role("status")).to_contain_text("Bienvenue")
    assert project.collaborators.filter(email="amel@example.org").exists()


def test_the_preferences_turn_an_email_off_with_the_keyboard(new_page, live_server, owner) -> None:
    page = new_page()
    login(page, live_server, "maria", PASSWORD, next_path="/accounts/preferences/")
    box = page.get_by_label("Someone comments on a workplan I take part in")
    expect(box).to_be_checked()
    box.focus()
    page.keyboard.press("Space")
    page.locator("main").get_by_label("Language").select_option("fr")
    page.get_by_role("button", name="Save preferences").click()
    expect(page.get_by_role("status")).to_have_text("Vos préférences sont enregistrées.")
    expect(
        page.get_by_label("Quelqu’un commente un plan de travail auquel je participe")
    ).not_to_be_checked()
    preferences = Preferences.objects.get(user=owner)
    assert preferences.language == "fr" and not preferences.email_commented
