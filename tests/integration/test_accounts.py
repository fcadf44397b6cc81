"""Signing in and out, changing a password, and personal API tokens on the page and in the API."""

import hashlib
from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_create, api_token_revoke
from tests.factories import make_manager

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"
NEW_PASSWORD = "another-quite-long-password-2026"
TOKENS_API = "/api/v1/auth/tokens/"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only


@pytest.fixture
def manager():
    return make_manager(password=PASSWORD)


@pytest.fixture
def signed_in(client, manager):
    client.force_login(manager)
    return client


def bearer(key: str) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


# Sign in, sign out, change password


def test_login_page_labels_every_field_and_asks_for_autocomplete(client):
    response = client.get("/accounts/login/?next=/catalogue/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<label for="id_username">' in html
    assert '<label for="id_password">' in html
    assert 'autocomplete="username"' in html
    assert 'autocomplete="current-password"' in html
    assert 'name="next" value="/catalogue/"' in html
    assert "There is a problem" not in html


def test_signing_in_starts_a_session_and_goes_to_next(client, manager):
    response = client.post(
        "/accounts/login/", {"username": "manager", "password": PASSWORD, "next": "/catalogue/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/catalogue/"
    assert client.session[SESSION_KEY] == str(manager.pk)


def test_signing_in_without_next_goes_to_the_project_list(client, manager):
    response = client.post("/accounts/login/", {"username": "manager", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("project-list")


def test_signing_in_ignores_a_next_address_on_another_site(client, manager):
    response = client.post(
        "/accounts/login/",
        {"username": "manager", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_wrong_password_shows_the_error_summary_and_keeps_the_username(client, manager):
    response = client.post(
        "/accounts/login/", {"username": "manager", "password": "wrong", "next": "/catalogue/"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Error: Sign in" in html
    assert 'class="error-summary" role="alert"' in html
    assert '<a href="#id_username">Please enter a correct username and password.' in html
    assert 'name="username" value="manager"' in html
    assert 'value="wrong"' not in html
    assert SESSION_KEY not in client.session


def test_missing_fields_are_linked_from_the_summary_and_described_next_to_the_field(client):
    html = client.post("/accounts/login/", {"username": "", "password": ""}).content.decode()
    assert '<a href="#id_username">Username: This field is required.</a>' in html
    assert '<a href="#id_password">Password: This field is required.</a>' in html
    assert '<ul class="errorlist" id="id_password_error">' in html
    assert 'aria-describedby="id_password_error"' in html
    assert 'aria-invalid="true"' in html


def test_sign_out_accepts_post_only(signed_in):
    assert signed_in.get("/accounts/logout/").status_code == 405
    assert SESSION_KEY in signed_in.session
    response = signed_in.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert SESSION_KEY not in signed_in.session


def test_password_change_needs_a_signed_in_user(client):
    response = client.get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/password/")


def test_password_change_sets_the_new_password_and_keeps_the_session(signed_in, manager):
    page = signed_in.get("/accounts/password/").content.decode()
    assert '<label for="id_old_password">' in page
    assert 'autocomplete="current-password"' in page
    assert page.count('autocomplete="new-password"') == 2
    assert 'aria-describedby="id_new_password1_helptext"' in page

    response = signed_in.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/done/"
    manager.refresh_from_db()
    assert manager.check_password(NEW_PASSWORD)
    assert signed_in.get("/accounts/password/done/").status_code == 200  # still signed in


def test_password_change_with_a_wrong_current_password_links_the_error_to_that_field(
    signed_in, manager
):
    response = signed_in.post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert (
        '<a href="#id_old_password">Old password: Your old password was entered incorrectly.'
        in html
    )
    assert 'aria-describedby="id_old_password_error"' in html
    manager.refresh_from_db()
    assert manager.check_password(PASSWORD)


# API tokens: the key and what is stored


def test_only_the_hash_of_the_key_is_stored(manager):
    token, key = api_token_create(user=manager, name="CI")
    assert key.startswith("cp_")
    assert len(key) > 40
    assert token.prefix == key[:8]
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apitoken WHERE id = %s", [token.pk])
        row = cursor.fetchone()
    assert not any(key in str(value) for value in row)


def test_every_key_is_different(manager):
    keys = {api_token_create(user=manager, name="CI")[1] for _ in range(5)}
    assert len(keys) == 5


# API tokens: the API


def test_token_from_the_api_authenticates_later_requests(api_client, manager):
    response = api_client.post(
        "/api/v1/auth/token/",
        {"username": "manager", "password": PASSWORD, "name": "Nightly export"},
        format="json",
    )
    assert response.status_code == 201
    created = response.json()
    assert set(created) == {"id", "name", "token", "prefix", "created_at"}
    assert created["name"] == "Nightly export"
    assert created["token"].startswith(created["prefix"])

    listed = bearer(created["token"]).get(TOKENS_API)
    assert listed.status_code == 200
    assert [row["id"] for row in listed.json()] == [created["id"]]
    assert created["token"] not in listed.content.decode()
    assert ApiToken.objects.get().last_used_at is not None


def test_token_endpoint_names_the_token_api_token_by_default(api_client, manager):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "manager", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == "API token"


def test_token_keyword_is_accepted_as_well_as_bearer(manager):
    _, key = api_token_create(user=manager, name="CI")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(TOKENS_API).status_code == 200


@pytest.mark.parametrize("username", ["manager", "nobody"])
def test_token_endpoint_refuses_wrong_credentials_alike_and_creates_no_token(
    api_client, manager, username
):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": username, "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": ["Unable to sign in with this username and password."]
    }
    assert not ApiToken.objects.exists()


def test_token_endpoint_refuses_an_inactive_user(api_client, manager):
    manager.is_active = False
    manager.save(update_fields=["is_active"])
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "manager", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_token_endpoint_is_throttled_after_ten_attempts_a_minute(api_client, manager):
    # Two guesses at each of five names: under the limit of failures per account (see
    # test_security_limits), so that this is the endpoint's limit per address.
    statuses = [
        api_client.post(
            "/api/v1/auth/token/", {"username": f"name{i % 5}", "password": "x"}, format="json"
        ).status_code
        for i in range(11)
    ]
    assert statuses == [400] * 10 + [429]
    refused = api_client.post(
        "/api/v1/auth/token/", {"username": "manager", "password": PASSWORD}, format="json"
    )
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert not ApiToken.objects.exists()


def test_revoked_token_is_refused_with_401_and_a_bearer_challenge(manager):
    token, key = api_token_create(user=manager, name="CI")
    api_token_revoke(token=token, user=manager)
    response = bearer(key).get(TOKENS_API)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header", ["Bearer cp_not-a-real-key", "Bearer", "Bearer two parts", "Token cp_unknown"]
)
def test_unknown_or_malformed_token_is_refused_with_401(manager, header):
    api_token_create(user=manager, name="CI")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get(TOKENS_API)
    assert response.status_code == 401
    assert "WWW-Authenticate" in response


def test_token_of_an_inactive_user_is_refused(manager):
    _, key = api_token_create(user=manager, name="CI")
    manager.is_active = False
    manager.save(update_fields=["is_active"])
    assert bearer(key).get(TOKENS_API).status_code == 401


def test_tokens_api_needs_authentication(api_client):
    response = api_client.get(TOKENS_API)
    assert response.status_code == 401


def test_last_use_is_written_at_most_once_a_minute(manager):
    token, key = api_token_create(user=manager, name="CI")
    client = bearer(key)
    client.get(TOKENS_API)
    token.refresh_from_db()
    first_use = token.last_used_at
    assert first_use is not None

    with CaptureQueriesContext(connection) as queries:
        client.get(TOKENS_API)
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]
    token.refresh_from_db()
    assert token.last_used_at == first_use

    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first_use - timedelta(minutes=2))
    client.get(TOKENS_API)
    token.refresh_from_db()
    assert token.last_used_at > first_use - timedelta(seconds=1)


def test_requests_with_a_token_need_no_csrf_token_but_session_requests_do(manager):
    token, key = api_token_create(user=manager, name="CI")
    session_client = APIClient(enforce_csrf_checks=True)
    session_client.force_login(manager)
    assert session_client.delete(f"{TOKENS_API}{token.pk}/").status_code == 403

    assert bearer(key).delete(f"{TOKENS_API}{token.pk}/").status_code == 204
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_api_revokes_ones_own_token_and_lists_it_as_revoked(manager):
    token, key = api_token_create(user=manager, name="Old script")
    _, other_key = api_token_create(user=manager, name="New script")
    client = bearer(other_key)
    assert client.delete(f"{TOKENS_API}{token.pk}/").status_code == 204
    listed = {row["name"]: row for row in client.get(TOKENS_API).json()}
    assert listed["Old script"]["is_active"] is False
    assert listed["Old script"]["revoked_at"] is not None
    assert listed["New script"]["is_active"] is True
    assert bearer(key).get(TOKENS_API).status_code == 401


def test_another_users_token_cannot_be_listed_or_revoked_through_the_api(manager):
    other = make_manager("other")
    theirs, _ = api_token_create(user=other, name="Theirs")
    _, key = api_token_create(user=manager, name="Mine")
    client = bearer(key)
    assert client.delete(f"{TOKENS_API}{theirs.pk}/").status_code == 404
    assert [row["name"] for row in client.get(TOKENS_API).json()] == ["Mine"]
    theirs.refresh_from_db()
    assert theirs.is_active


def test_openapi_schema_documents_the_token_endpoints_and_bearer_scheme(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    create = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert {"201", "400", "429"} <= set(create["responses"])
    request_ref = create["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    request_schema = schema["components"]["schemas"][request_ref.rsplit("/", 1)[-1]]
    assert set(request_schema["required"]) == {"username", "password"}
    assert {"get"} <= set(schema["paths"]["/api/v1/auth/tokens/"])
    assert {"delete"} <= set(schema["paths"]["/api/v1/auth/tokens/{id}/"])
    assert schema["components"]["securitySchemes"]["apiToken"]["scheme"] == "bearer"


# API tokens: the page


def test_tokens_page_needs_a_signed_in_user(client):
    response = client.get("/accounts/tokens/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_tokens_page_shows_a_new_key_exactly_once(signed_in, manager):
    response = signed_in.post("/accounts/tokens/", {"name": "Spreadsheet"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get(user=manager)
    html = response.content.decode()
    keys = [part.split("</code>")[0] for part in html.split('<pre class="token-key"><code>')[1:]]
    assert len(keys) == 1
    key = keys[0]
    assert html.count(key) == 1
    assert "shown only this once" in html
    assert hashlib.sha256(key.encode()).hexdigest() == token.key_hash

    again = signed_in.get("/accounts/tokens/").content.decode()
    assert key not in again
    assert token.prefix in again
    assert "Spreadsheet" in again


def test_tokens_page_lists_ones_own_tokens_with_their_status(signed_in, manager):
    used, _ = api_token_create(user=manager, name="Used")
    ApiToken.objects.filter(pk=used.pk).update(last_used_at=timezone.now())
    revoked, _ = api_token_create(user=manager, name="Retired")
    api_token_revoke(token=revoked, user=manager)
    api_token_create(user=make_manager("other"), name="Someone else's")
    html = signed_in.get("/accounts/tokens/").content.decode()
    assert "Used" in html
    assert "Retired" in html
    assert "Revoked on" in html
    assert "Someone else" not in html
    assert html.count('aria-label="Revoke') == 1  # no button for the revoked token


def test_tokens_page_refuses_a_nameless_token_with_a_linked_error(signed_in):
    response = signed_in.post("/accounts/tokens/", {"name": ""})
    html = response.content.decode()
    assert '<a href="#id_name">Token name: This field is required.</a>' in html
    assert "token-key" not in html
    assert not ApiToken.objects.exists()


def test_revoking_on_the_page_redirects_back_and_says_so(signed_in, manager):
    token, key = api_token_create(user=manager, name="CI")
    assert signed_in.get(f"/accounts/tokens/{token.pk}/revoke/").status_code == 405
    response = signed_in.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/tokens/"
    assert "“CI” is revoked" in signed_in.get("/accounts/tokens/").content.decode()
    assert bearer(key).get(TOKENS_API).status_code == 401


def test_another_users_token_cannot_be_revoked_on_the_page(signed_in):
    theirs, _ = api_token_create(user=make_manager("other"), name="Theirs")
    assert signed_in.post(f"/accounts/tokens/{theirs.pk}/revoke/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.is_active


# Admin


def test_admin_lists_tokens_without_any_way_to_see_or_edit_the_key(client, manager):
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    token, key = api_token_create(user=manager, name="CI")
    client.force_login(admin)
    listing = client.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200
    assert token.prefix in listing.content.decode()
    change = client.get(f"/admin/accounts/apitoken/{token.pk}/change/").content.decode()
    assert token.key_hash in change
    assert 'name="key_hash"' not in change
    assert key not in change
    assert client.get("/admin/accounts/apitoken/add/").status_code == 403


def test_admin_action_revokes_the_selected_tokens(client, manager):
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    token, _ = api_token_create(user=manager, name="CI")
    client.force_login(admin)
    response = client.post(
        "/admin/accounts/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
