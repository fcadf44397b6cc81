"""Security headers, cookies and request limits: the Content Security Policy with its nonce, HTTPS
and HSTS, secure HttpOnly cookies, production settings, and oversized request bodies."""

import io
import json
import re

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import make_manager
from tests.integration.test_settings import PRODUCTION_ENV, manage

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"

EXPECTED_DIRECTIVES = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'none'",
    "object-src": "'none'",
}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only


def policy(response) -> dict[str, str]:
    """The Content-Security-Policy header as {directive: sources}."""
    directives = (
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    return {name: sources for name, sources in directives}


# Content Security Policy


def test_every_page_gets_a_strict_content_security_policy(client):
    directives = policy(client.get("/catalogue/"))
    assert directives.items() >= EXPECTED_DIRECTIVES.items()
    # No inline code on this page, so no nonce: only the app's own files.
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert not any("unsafe" in sources or "http" in sources for sources in directives.values())


def test_the_api_docs_inline_script_carries_the_nonce_of_its_response(client):
    first, second = client.get("/api/docs/"), client.get("/api/docs/")
    nonces = []
    for response in (first, second):
        nonce = re.search(r"'nonce-([^']+)'", policy(response)["script-src"]).group(1)
        html = response.content.decode()
        assert f'<script nonce="{nonce}">' in html
        # Every other script is a file of the app's own.
        assert re.findall(r"<script(?![^>]*\bnonce=)(?![^>]*\bsrc=\"/static/)[^>]*>", html) == []
        nonces.append(nonce)
    assert nonces[0] != nonces[1], "a nonce must be new for each response"


def test_htmx_is_told_not_to_add_inline_styles(client):
    html = client.get("/").content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1)
    assert json.loads(config) == {
        "includeIndicatorStyles": False,
        "attributesToSettle": ["class", "width", "height"],
    }


def test_pages_may_not_be_framed(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert policy(response)["frame-ancestors"] == "'none'"


# HTTPS, HSTS and cookies


def test_plain_http_is_redirected_to_https_and_https_answers_with_hsts(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    client = Client()
    redirect = client.get("/catalogue/")
    assert redirect.status_code == 301
    assert redirect["Location"] == "https://testserver/catalogue/"
    response = client.get("/catalogue/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def test_session_and_csrf_cookies_are_secure_and_httponly_in_production(settings):
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    make_manager(password=PASSWORD)
    client = Client()
    client.get("/accounts/login/", secure=True)
    client.post("/accounts/login/", {"username": "manager", "password": PASSWORD}, secure=True)
    for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
        cookie = client.cookies[name]
        assert cookie["secure"] is True, name
        assert cookie["httponly"] is True, name
        assert cookie["samesite"] == "Lax", name


def test_production_settings_turn_on_https_hsts_secure_cookies_and_a_shared_cache():
    result = manage(
        "shell",
        "-c",
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'ssl': s.SECURE_SSL_REDIRECT, 'hsts': s.SECURE_HSTS_SECONDS, "
        "'session_secure': s.SESSION_COOKIE_SECURE, 'csrf_secure': s.CSRF_COOKIE_SECURE, "
        "'session_httponly': s.SESSION_COOKIE_HTTPONLY, 'csrf_httponly': s.CSRF_COOKIE_HTTPONLY, "
        "'cache': s.CACHES['default']['BACKEND'], 'csp': bool(s.SECURE_CSP)}))",
        env=PRODUCTION_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "ssl": True,
        "hsts": 31_536_000,
        "session_secure": True,
        "csrf_secure": True,
        "session_httponly": True,
        "csrf_httponly": True,
        "cache": "apps.core.cache.PrefixedRedisCache",
        "csp": True,
    }


# Request bodies


@pytest.fixture
def browser_client() -> Client:
    """A client that checks CSRF like a browser session would, and holds a CSRF cookie."""
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    return client


def test_an_oversized_form_body_is_refused_with_the_400_page_not_a_500(browser_client):
    body = {"username": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1), "password": "p"}
    response = browser_client.post("/accounts/login/", body)
    assert response.status_code == 400
    assert "The request could not be read" in response.content.decode()


def test_a_form_with_too_many_fields_is_refused_with_a_400(browser_client):
    fields = {f"field{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    response = browser_client.post("/accounts/login/", fields)
    assert response.status_code == 400


def test_a_form_with_more_than_one_file_is_refused_with_a_400(browser_client):
    files = {f"file{i}": io.BytesIO(b"x") for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FILES + 1)}
    response = browser_client.post("/accounts/login/", files)
    assert response.status_code == 400


@pytest.mark.parametrize(
    "key", ["abc\x00defghijkl", "ABCDEFGH12345678", "abcd efgh ijkl", "é" * 32]
)
def test_a_session_cookie_no_session_could_have_is_no_session_not_a_500(client, key):
    """An escaped NUL in the cookie once reached PostgreSQL, which refuses it (found by fuzzing)."""
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    assert client.get("/").status_code == 200
    response = client.get("/projects/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_real_session_key_still_signs_in(client):
    client.force_login(make_manager("maria"))
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert key.isalnum() and key == key.lower()
    assert client.get("/projects/").status_code == 200
