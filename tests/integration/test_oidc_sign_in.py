"""Sign-in with an organisation's OpenID Connect provider, against a real one running in its own
process (tests/oidc_provider: django-oauth-toolkit): the planner reads its discovery document,
sends the browser there with state, nonce and a PKCE challenge, exchanges the code, checks the ID
token (signature, issuer, audience, expiry, nonce) and signs the person in, creating their
account with the roles their groups map to; a token for another client, or an expired one, is
refused. Without OIDC_ISSUER nothing of this is on."""

from pathlib import Path

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client

from apps.accounts.models import ProviderIdentity
from apps.audit.models import Action, AuditEvent
from tests.factories import make_manager
from tests.integration.oidc import (
    organisation_settings,
    provider_start,
    sign_in_through_provider,
)
from tests.integration.test_settings import PRODUCTION_ENV, manage

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    started = provider_start(Path(tmp_path_factory.mktemp("oidc-provider")))
    yield started
    started.stop()


@pytest.fixture
def organisation(settings, provider):
    for name, value in organisation_settings(provider).items():
        setattr(settings, name, value)
    return provider


def signed_in_user(client: Client):
    user_id = client.session.get(SESSION_KEY)
    return get_user_model().objects.get(pk=user_id) if user_id else None


def test_the_first_sign_in_creates_the_user_with_the_role_their_groups_map_to(organisation):
    client = Client()
    response = sign_in_through_provider(client, "amina", next_path="/projects/")
    assert response.status_code == 302 and response["Location"] == "/projects/"
    user = signed_in_user(client)
    assert user.username == "amina" and user.email == "amina@example.org"
    assert list(user.groups.values_list("name", flat=True)) == ["manager"]
    assert not user.has_usable_password()
    assert ProviderIdentity.objects.get(user=user).issuer == organisation.issuer
    assert client.get("/projects/").status_code == 200
    events = AuditEvent.objects.filter(object_pk=str(user.pk)).order_by("pk")
    assert [event.action_name for event in events] == [Action.ROLE_CHANGED, Action.SIGNED_IN]
    assert events[0].changes["roles"] == [[], ["manager"]]


def test_the_next_sign_in_finds_the_same_user(organisation):
    sign_in_through_provider(Client(), "bruno")
    client = Client()
    sign_in_through_provider(client, "bruno")
    user = signed_in_user(client)
    assert get_user_model().objects.filter(username__startswith="bruno").count() == 1
    # "staff" is a group no mapping names: the provider gives only the roles it maps.
    assert list(user.groups.values_list("name", flat=True)) == ["front office"]


def test_a_local_account_with_the_providers_email_is_linked_not_duplicated(organisation):
    local = make_manager("chen.local")
    local.email = "CHEN@example.org"
    local.save()
    client = Client()
    sign_in_through_provider(client, "chen")
    assert signed_in_user(client) == local
    # chen is in no mapped group: the provider takes the role the account had away.
    assert not local.groups.exists()


@pytest.mark.parametrize("username", ["elsewhere", "stale"])
def test_an_id_token_for_another_client_or_expired_is_refused(organisation, username):
    """elsewhere's ID token names another client as its audience; stale's expired an hour ago
    (tests/oidc_provider/validator.py): both are signed by the provider, and both refused."""
    client = Client()
    before = AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first()
    response = sign_in_through_provider(client, username)
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert signed_in_user(client) is None
    assert not get_user_model().objects.filter(username=username).exists()
    page = client.get("/accounts/login/").content.decode()
    assert "Signing in with Example Org did not work" in page
    failed = AuditEvent.objects.filter(pk__gt=before or 0)
    assert [event.action_name for event in failed] == [Action.SIGN_IN_FAILED]
    assert failed[0].changes == {"method": [None, "identity provider"]}


def test_a_callback_with_a_state_this_browser_never_started_is_refused(organisation):
    client = Client()
    client.get("/accounts/oidc/sign-in/")
    response = client.get("/accounts/oidc/callback/?code=stolen&state=not-ours")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert signed_in_user(client) is None


def test_the_sign_in_page_shows_the_providers_button_when_one_is_configured(organisation):
    html = Client().get("/accounts/login/?next=/projects/").content.decode()
    assert "Sign in with Example Org" in html
    assert 'href="/accounts/oidc/sign-in/?next=/projects/"' in html


def test_without_a_provider_the_page_has_no_button_and_the_routes_are_not_found():
    client = Client()
    assert "/accounts/oidc/sign-in/" not in client.get("/accounts/login/").content.decode()
    assert client.get("/accounts/oidc/sign-in/").status_code == 404
    assert client.get("/accounts/oidc/callback/?code=a&state=b").status_code == 404


def test_the_provider_is_configured_from_the_environment():
    env = {
        "OIDC_ISSUER": "https://id.example.org/realms/un/",
        "OIDC_CLIENT_ID": "planner",
        "OIDC_CLIENT_SECRET": "secret",
        "OIDC_ROLE_GROUPS": "planners=manager,finance=front office,cat=catalogue editor",
    }
    code = (
        "from django.conf import settings as s; "
        "print(s.OIDC_ISSUER, s.OIDC_RP_CLIENT_ID, sorted(s.OIDC_ROLE_GROUPS.items()), "
        "s.AUTHENTICATION_BACKENDS[-1])"
    )
    result = manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    printed = result.stdout.strip().splitlines()[-1]
    assert printed.split(" ", 2)[:2] == ["https://id.example.org/realms/un", "planner"]
    assert "('cat', 'catalogue editor')" in printed
    assert printed.endswith("apps.accounts.oidc.OrganisationBackend")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"OIDC_ISSUER": "https://id.example.org"}, "OIDC_CLIENT_ID is required"),
        (
            {
                "OIDC_ISSUER": "http://id.example.org",
                "OIDC_CLIENT_ID": "a",
                "OIDC_CLIENT_SECRET": "b",
            },
            "OIDC_ISSUER must be an https:// address in production",
        ),
        ({"OIDC_ROLE_GROUPS": "planners=boss"}, "OIDC_ROLE_GROUPS must list group=role pairs"),
    ],
)
def test_a_wrong_provider_setting_refuses_to_start(change, message):
    result = manage("check", env={**PRODUCTION_ENV, **change})
    assert result.returncode != 0 and message in result.stderr


def test_an_administrators_account_is_never_taken_over_by_email(organisation):
    admin = get_user_model().objects.create_superuser(
        "root", email="chen@example.org", password="x" * 20
    )
    client = Client()
    sign_in_through_provider(client, "chen")
    user = signed_in_user(client)
    assert user != admin and not user.is_superuser and user.username == "chen"
