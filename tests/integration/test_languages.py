"""The interface's language: the switcher, the stored preference, the cookie, Accept-Language,
`<html lang dir>`, share links, API errors, and the language that exports and sweeps take."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from apps.accounts.models import Preferences
from apps.core.fragments import fragment_key
from apps.sharing.services import share_link_create
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"
SWITCHER = 'action="/accounts/language/"'


def html_lang(response) -> str:
    text = response.content.decode()
    start = text.index("<html ")
    return text[start : text.index(">", start) + 1]


def switch(client: Client, language: str, next_url: str = "/catalogue/"):
    return client.post("/accounts/language/", {"language": language, "next": next_url})


def test_pages_follow_accept_language_and_say_so_in_html_lang():
    client = Client()
    english = client.get("/", headers={"accept-language": "en-US,en;q=0.9"})
    french = client.get("/", headers={"accept-language": "fr-CH, fr;q=0.9"})
    assert html_lang(english) == '<html lang="en-gb" dir="ltr">'
    assert html_lang(french) == '<html lang="fr" dir="ltr">'
    assert french["Content-Language"] == "fr"
    assert "Accept-Language" in french["Vary"]
    assert "Changer de langue" in french.content.decode()


def test_every_layout_page_has_the_switcher_as_a_plain_form_with_languages_in_their_own_names():
    page = Client().get("/catalogue/").content.decode()
    assert SWITCHER in page and 'method="post"' in page
    assert '<option value="en-gb" lang="en-gb" selected>English</option>' in page
    assert '<option value="fr" lang="fr">Français</option>' in page
    assert 'name="next" value="/catalogue/"' in page
    assert SWITCHER in Client().get("/accounts/login/").content.decode()


def test_an_anonymous_visitor_switches_by_cookie_over_accept_language():
    client = Client()
    response = switch(client, "fr")
    assert response.status_code == 302 and response["Location"] == "/catalogue/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    page = client.get("/catalogue/", headers={"accept-language": "en"})
    assert html_lang(page) == '<html lang="fr" dir="ltr">'


def test_the_switcher_refuses_a_language_the_interface_does_not_have():
    client = Client()
    assert switch(client, "de").status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert html_lang(client.get("/")) == '<html lang="en-gb" dir="ltr">'


def test_a_signed_in_choice_is_stored_and_wins_over_cookie_and_accept_language_next_time():
    user = make_manager("amina")
    client = Client()
    assert client.login(username="amina", password=PASSWORD)
    switch(client, "fr")
    assert Preferences.objects.get(user=user).language == "fr"

    other_browser = Client()
    other_browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "en-gb"
    response = other_browser.post(
        "/accounts/login/", {"username": "amina", "password": PASSWORD}, follow=True
    )
    assert html_lang(response) == '<html lang="fr" dir="ltr">'
    page = other_browser.get("/projects/", headers={"accept-language": "en"})
    assert html_lang(page) == '<html lang="fr" dir="ltr">'

    other_browser.post("/accounts/logout/")
    page = other_browser.get("/", headers={"accept-language": "en"})
    assert html_lang(page) == '<html lang="en-gb" dir="ltr">', "signed out: the cookie again"


def test_a_user_who_never_chose_follows_the_browser():
    make_manager("li")
    client = Client()
    client.post("/accounts/login/", {"username": "li", "password": PASSWORD})
    page = client.get("/projects/", headers={"accept-language": "fr"})
    assert html_lang(page) == '<html lang="fr" dir="ltr">'
    assert not Preferences.objects.exists()


def test_a_share_link_opens_in_the_readers_language():
    owner = make_manager("owner")
    scenario = make_scenario(make_project(owner, title="Plan"), is_baseline=True)
    version = scenario.versions.get(number=scenario.version)
    _, token = share_link_create(subject=version, user=owner, label="Board")
    for accept, lang in (("fr", "fr"), ("en", "en-gb")):
        page = Client().get(f"/s/{token}/", headers={"accept-language": accept})
        assert page.status_code == 200
        assert html_lang(page) == f'<html lang="{lang}" dir="ltr">'
        assert SWITCHER in page.content.decode()
        assert token not in page.content.decode(), "the switcher's form must not carry the token"
    # Switching there goes back to the link by the Referer header (same-origin referrer policy).
    reader = Client()
    response = reader.post(
        "/accounts/language/",
        {"language": "fr"},
        headers={"referer": f"http://testserver/s/{token}/"},
    )
    assert response.status_code == 302 and response["Location"] == f"http://testserver/s/{token}/"


def test_api_errors_come_in_the_language_of_accept_language(api_client):
    french = api_client.get("/api/v1/projects/", headers={"accept-language": "fr"})
    english = api_client.get("/api/v1/projects/", headers={"accept-language": "en"})
    assert french.status_code == english.status_code == 401
    assert english.json()["detail"] == "Authentication credentials were not provided."
    assert french.json()["detail"] == "Informations d'authentification non fournies."


def test_cached_fragments_are_kept_apart_per_language():
    with translation.override("fr"):
        french = fragment_key("navigation", 1)
    with translation.override("en-gb"):
        english = fragment_key("navigation", 1)
    assert french != english


def test_a_sweep_queued_from_a_french_request_runs_and_fails_in_french(
    monkeypatch, django_capture_on_commit_callbacks
):
    from apps.sweeps import runs, tasks
    from apps.sweeps.models import Sweep
    from tests.factories import DEMAND_SWEEP

    queued = []
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: queued.append(args))
    manager = make_manager()
    scenario = make_scenario(make_project(manager))
    client = Client()
    client.force_login(manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/scenarios/{scenario.pk}/sweeps/",
            {"inputs": [DEMAND_SWEEP]},
            content_type="application/json",
            headers={"accept-language": "fr"},
        )
    assert response.status_code == 201
    sweep = Sweep.objects.get()
    assert queued == [(sweep.pk, 1, 0, "fr")]

    failure = runs.SweepCannotRun("no such input")
    tasks.sweep_run_chunk.on_failure(failure, "task-id", queued[0], {}, None)
    sweep.refresh_from_db()
    assert sweep.error == "Le balayage ne peut pas être lancé\u00a0: no such input"


def test_an_export_is_written_in_the_language_it_was_asked_in(monkeypatch):
    from apps.exports import formats
    from apps.exports.report import project_report

    owner = make_manager()
    project = make_project(owner, title="Plan")
    written_in = []
    export = formats.ExportFormat(
        "csv",
        "text/csv",
        "utf-8",
        lambda report: written_in.append(translation.get_language()) or b"",
    )
    with translation.override("fr"):
        report = project_report(project, user=owner)
    assert report.language == "fr"
    with translation.override("en-gb"):
        formats.download(report, export, user=owner)
    assert written_in == ["fr"]
