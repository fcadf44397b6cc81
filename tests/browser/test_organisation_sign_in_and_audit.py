"""Signing in with the organisation's provider, and reading the audit log, in headless Chromium,
in English and in French, on a laptop and on a phone, with no axe-core WCAG 2.2 AA violation:
the sign-in page shows the provider's button, the person signs in at the real provider
(tests/oidc_provider, its own process) and comes back signed in; a project's audit log lists who
did what; the whole log is an administrator's page."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from apps.projects.services import project_update
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
)
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.oidc import organisation_settings, provider_start
from tests.oidc_provider.prepare import PASSWORD as PROVIDER_PASSWORD

PASSWORD = "a-long-test-password"
LANGUAGES = pytest.mark.parametrize("language", ["en-gb", "fr"])
WORDS = {
    "en-gb": {
        "button": "Sign in with Example Org",
        "projects": "Your projects",
        "audit link": "Audit log: who did what to this project, and when",
        "audit heading": "Audit log of “Support bot”",
        "changed": "Collaborators changed",
        "log": "Audit log",
        "main": "Main",
    },
    "fr": {
        "button": "Se connecter avec Example Org",
        "projects": "Vos projets",
        "audit link": "Journal d’audit\u00a0: qui a fait quoi dans ce projet, et quand",
        "audit heading": "Journal d’audit de «\u00a0Support bot\u00a0»",
        "changed": "Collaborateurs modifiés",
        "log": "Journal d’audit",
        "main": "Navigation principale",
    },
}


@pytest.fixture(scope="module")
def provider(tmp_path_factory, live_server):
    started = provider_start(
        Path(tmp_path_factory.mktemp("oidc-provider")),
        callback=f"{live_server.url}/accounts/oidc/callback/",
    )
    yield started
    started.stop()


@pytest.fixture
def organisation(settings, provider):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    for name, value in organisation_settings(provider).items():
        setattr(settings, name, value)
    return provider


def in_language(new_page, language: str) -> Page:
    return new_page(locale=language, extra_http_headers={"Accept-Language": language})


@languages_each_at_a_width("en-gb", "fr")
def test_a_person_signs_in_with_the_organisations_provider(
    new_page, live_server, organisation, language
) -> None:
    words = WORDS[language]
    page = in_language(new_page, language)
    page.goto(f"{live_server.url}/accounts/login/?next=/projects/")
    button = page.get_by_role("link", name=words["button"])
    expect(button).to_be_visible()
    assert_no_axe_violations_at_each_width(
        page, f"the sign-in page with the provider's button ({language})"
    )
    button.click()
    page.wait_for_url(f"{organisation.issuer.removesuffix('/o')}/login/**")
    page.locator("input[name='username']").fill("amina")
    page.locator("input[name='password']").fill(PROVIDER_PASSWORD)
    with page.expect_navigation(url=f"{live_server.url}/projects/"):
        page.locator("button[type='submit']").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["projects"])
    user = get_user_model().objects.get(username="amina")
    assert list(user.groups.values_list("name", flat=True)) == ["manager"]


@pytest.fixture
def audited_project(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    maria = make_manager("maria", PASSWORD)
    project = make_project(maria, "Support bot")
    make_scenario(project, is_baseline=True)
    project_update(project=project, fields={}, collaborators=[make_manager("kofi", PASSWORD)])
    return project


@languages_each_at_a_width("en-gb", "fr")
def test_a_manager_reads_the_projects_audit_log(
    new_page, live_server, audited_project, language
) -> None:
    words = WORDS[language]
    page = in_language(new_page, language)
    login(page, live_server, "maria", PASSWORD, next_path=audited_project.get_absolute_url())
    page.get_by_role("link", name=words["audit link"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["audit heading"])
    expect(page.get_by_role("rowheader", name=words["changed"])).to_be_visible()
    assert_no_axe_violations_at_each_width(page, f"a project's audit log ({language})")


@languages_each_at_a_width("en-gb", "fr")
def test_an_administrator_reads_the_whole_log(
    new_page, live_server, audited_project, language
) -> None:
    words = WORDS[language]
    get_user_model().objects.create_superuser("root", password=PASSWORD)
    page = in_language(new_page, language)
    login(page, live_server, "root", PASSWORD, next_path="/projects/")
    page.get_by_role("navigation", name=words["main"]).get_by_role(
        "link", name=words["log"]
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["log"])
    expect(page.get_by_role("rowheader", name=words["changed"])).to_be_visible()
    assert_no_axe_violations_at_each_width(page, f"the whole audit log ({language})")
