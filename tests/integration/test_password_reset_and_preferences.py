"""Password reset by email for local accounts (Django's views: the same answer whether an account
has the address or not; one email per account in ten minutes; a link that works once), the
sign-in page's link to it, and the preferences page (language, which emails)."""

import re
from types import SimpleNamespace

import pytest
from django.core import mail

from apps.accounts.language import SESSION_LANGUAGE
from apps.accounts.models import Preferences, wants_email
from apps.core.logs import without_share_tokens
from apps.notifications import deliveries, forms, tasks
from apps.notifications.models import Delivery
from tests.factories import make_manager

pytestmark = pytest.mark.django_db
RESET = "/accounts/password/reset/"


@pytest.fixture
def maria():
    user = make_manager("maria")
    user.email = "maria@example.org"
    user.save()
    return user


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    sent: list[int] = []
    monkeypatch.setattr(tasks.delivery_send, "delay", sent.append)
    return sent


def without_csrf(response) -> str:
    """The page without its CSRF tokens, which differ from one response to the next."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def ask(client, email: str, **headers):
    return client.post(RESET, {"email": email}, **headers)


def test_the_sign_in_page_links_to_the_reset_instead_of_asking_staff(client):
    html = client.get("/accounts/login/").content.decode()
    assert f'href="{RESET}"' in html
    assert "Ask a member of staff" not in html


def test_the_answer_is_the_same_whether_an_account_has_the_address_or_not(
    client, maria, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        known = ask(client, "MARIA@example.org")
        unknown = ask(client, "nobody@example.org")
    assert known.status_code == unknown.status_code == 302
    assert known.url == unknown.url == "/accounts/password/reset/sent/"
    assert without_csrf(client.get(known.url)) == without_csrf(client.get(unknown.url))
    assert [Delivery.objects.get(pk=pk).recipient for pk in queued] == [maria]


def test_asking_again_within_ten_minutes_sends_no_second_email(
    client, maria, queued, django_capture_on_commit_callbacks, monkeypatch
):
    now = 1_800_000_000  # the start of a ten-minute window
    for seconds, emails in ((0, 1), (120, 1), (599, 1), (600, 2)):
        monkeypatch.setattr(forms, "time", SimpleNamespace(time=lambda s=seconds: now + s))
        with django_capture_on_commit_callbacks(execute=True):
            assert ask(client, "maria@example.org").status_code == 302
        assert len(queued) == emails


def test_accounts_without_a_local_password_or_disabled_get_no_email(client, maria, queued):
    maria.set_unusable_password()  # signs in with the organisation's provider
    maria.save()
    other = make_manager("other")
    other.email, other.is_active = "other@example.org", False
    other.save()
    for address in ("maria@example.org", "other@example.org"):
        ask(client, address)
    assert not Delivery.objects.exists()


def test_the_emailed_link_sets_a_new_password_once_in_the_accounts_language(
    client, maria, queued, django_capture_on_commit_callbacks
):
    Preferences.objects.create(user=maria, language="fr")
    with django_capture_on_commit_callbacks(execute=True):
        ask(client, "maria@example.org")  # asked from an English page
    deliveries.delivery_send(delivery_id=queued[0])
    (message,) = mail.outbox
    assert message.subject == "Choisissez un nouveau mot de passe pour Compute Planner"
    assert "maria" in message.body
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/reset/\S+)", message.body)[1]
    page = client.get(link, follow=True)
    assert page.context["validlink"]
    form_url = page.redirect_chain[-1][0]
    assert "set-password" in form_url  # the token left the address bar for the session
    new = {"new_password1": "a-new-long-password", "new_password2": "a-new-long-password"}
    assert client.post(form_url, new).url == "/accounts/reset/done/"
    maria.refresh_from_db()
    assert maria.check_password("a-new-long-password")
    used = client.get(link, follow=True)
    assert not used.context["validlink"]
    assert "This link does not work" in used.content.decode()


def test_the_reset_and_invitation_tokens_stay_out_of_the_logs():
    assert (
        without_share_tokens("GET /accounts/reset/MQ/cz1a2b-0123456789abcdef/ 200")
        == "GET /accounts/reset/MQ/<token>/ 200"
    )
    assert without_share_tokens("GET /invitations/MTI:1v2x3y:abc/ 200") == (
        "GET /invitations/<token>/ 200"
    )
    assert without_share_tokens("POST /projects/3/invitations/ 302") == (
        "POST /projects/3/invitations/ 302"
    )


def test_the_preferences_page_saves_the_language_and_the_emails_chosen(client, maria):
    client.force_login(maria)
    page = client.get("/accounts/preferences/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "maria@example.org" in html
    for name in ("email_submitted", "email_reviewed", "email_commented", "email_share_expiring"):
        assert f'name="{name}"' in html and "checked" in html
    saved = client.post(
        "/accounts/preferences/", {"language": "fr", "email_reviewed": "on"}, follow=True
    )
    assert saved.redirect_chain == [("/accounts/preferences/", 302)]
    assert "Vos préférences sont enregistrées." in saved.content.decode()
    assert client.session[SESSION_LANGUAGE] == "fr"
    assert wants_email(maria, "email_reviewed")
    assert not wants_email(maria, "email_commented")
    assert not wants_email(maria, "email_submitted")
    client.post("/accounts/preferences/", {"language": ""})
    assert SESSION_LANGUAGE not in client.session
    assert Preferences.objects.get(user=maria).language == ""


def test_someone_who_never_chose_receives_every_email(maria):
    assert not Preferences.objects.filter(user=maria).exists()
    assert wants_email(maria, "email_share_expiring")


def test_the_preferences_page_needs_a_signed_in_user(client):
    assert client.get("/accounts/preferences/").url.startswith("/accounts/login/")
