"""A real OpenID Connect provider in a process of its own (tests/oidc_provider, django-oauth-
toolkit), and a browser's side of signing in through it: the planner is driven by Django's test
client, the provider over real HTTP, and the planner itself calls the provider over HTTP for its
discovery document, keys, tokens and user info."""

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.conf import settings
from django.test import Client

from tests.oidc_provider.prepare import PASSWORD
from tests.servers import Server, free_port

CLIENT_ID = "compute-planner"
CLIENT_SECRET = "a-client-secret-only-the-tests-know"
# Django's test client serves the planner as http://testserver.
CALLBACK = "http://testserver/accounts/oidc/callback/"


@dataclass
class Provider:
    server: Server
    issuer: str

    def stop(self) -> None:
        self.server.stop()


def provider_start(folder: Path, callback: str = CALLBACK) -> Provider:
    """Migrate the provider's database, add its client (whose sign-ins come back to
    `callback`) and people, and serve it."""
    port = free_port()
    issuer = f"http://127.0.0.1:{port}/o"
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.oidc_provider.settings",
        "PROVIDER_DATABASE": str(folder / "provider.sqlite3"),
        "PROVIDER_ISSUER": issuer,
        "PROVIDER_SIGNING_KEY": key.decode(),
    }
    subprocess.run(
        [sys.executable, "-m", "tests.oidc_provider.prepare", CLIENT_ID, CLIENT_SECRET, callback],
        cwd=settings.BASE_DIR,
        env=env,
        check=True,
        capture_output=True,
    )
    command = [sys.executable, "-m", "django", "runserver", "127.0.0.1:{port}", "--noreload"]
    server = Server(command, env, folder / "provider.log", port=port)
    return Provider(server, issuer)


def organisation_settings(provider: Provider) -> dict:
    """The planner's settings for this provider, as config/settings.py makes them from
    OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_ROLE_GROUPS."""
    return {
        "OIDC_ISSUER": provider.issuer,
        "OIDC_ENABLED": True,
        "OIDC_RP_CLIENT_ID": CLIENT_ID,
        "OIDC_RP_CLIENT_SECRET": CLIENT_SECRET,
        "OIDC_PROVIDER_NAME": "Example Org",
        "OIDC_ROLE_GROUPS": {
            "planners": "manager",
            "finance-reviewers": "front office",
            "catalogue": "catalogue editor",
        },
        "AUTHENTICATION_BACKENDS": [
            *settings.AUTHENTICATION_BACKENDS,
            "apps.accounts.oidc.OrganisationBackend",
        ],
    }


def sign_in_through_provider(client: Client, username: str, next_path: str = "/projects/"):
    """What a browser does: start at the planner's button, sign in at the provider, come back.
    Returns the planner's answer to the callback."""
    start = client.get(f"/accounts/oidc/sign-in/?next={next_path}")
    assert start.status_code == 302, start
    browser = requests.Session()  # the person's browser, at the provider
    answer = browser.get(start["Location"], allow_redirects=False, timeout=30)
    login_url = urljoin(start["Location"], answer.headers["Location"])
    page = browser.get(login_url, timeout=30)
    assert page.status_code == 200, page.text
    token = browser.cookies["csrftoken"]
    answer = browser.post(
        login_url,
        data={
            "csrfmiddlewaretoken": token,
            "username": username,
            "password": PASSWORD,
            "next": parse_qs(urlsplit(login_url).query)["next"][0],
        },
        headers={"Referer": login_url},
        allow_redirects=False,
        timeout=30,
    )
    location = urljoin(login_url, answer.headers["Location"])
    while not location.startswith("http://testserver/"):
        answer = browser.get(location, allow_redirects=False, timeout=30)
        assert answer.status_code == 302, answer.text[:2000]
        location = urljoin(location, answer.headers["Location"])
    return client.get(location.removeprefix("http://testserver"))
