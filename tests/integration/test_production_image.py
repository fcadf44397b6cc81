"""The production image's build (scripts/build-image) serves the main pages with production settings.

The script runs whole into a temporary folder, as the Dockerfile runs it: a virtual environment
without the dev group, and the static files collected with the production storage. gunicorn from
that environment then serves the test database (PostgreSQL) and Redis with COMPUTE_PLANNER_ENV
production, behind a pretend TLS proxy (X-Forwarded-Proto: https); every main page must answer
200 and every script, stylesheet and icon it names must be found, under its hashed name.
"""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from http.client import HTTPConnection, HTTPResponse
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection

from apps.sharing.services import share_link_create
from tests.factories import make_manager, make_project, make_scenario
from tests.servers import Server, database_url_of_tests

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]

ROOT = Path(__file__).resolve().parents[2]
HOST = "planner.test"
PASSWORD = "a-long-test-password"
BUILD_SECONDS = 300
# What collectstatic's manifest storage gives every name: name.<12 hex digits>.ext
HASHED = re.compile(r"\.[0-9a-f]{12}\.")


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """scripts/build-image run whole into a temporary folder: venv/ and static/."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("production settings need PostgreSQL and Redis (CI has both)")
    folder = tmp_path_factory.mktemp("image")
    environment = {
        **os.environ,
        "UV": str(Path(sys.executable).parent / "uv"),
        "UV_PYTHON": sys.executable,
        "UV_PROJECT_ENVIRONMENT": str(folder / "venv"),
        "STATIC_ROOT": str(folder / "static"),
    }
    built = subprocess.run(
        [str(ROOT / "scripts" / "build-image")],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return folder


class Browser:
    """Requests to the server as a browser behind a TLS proxy would send them, with cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> HTTPResponse:
        headers = {"Host": HOST, "X-Forwarded-Proto": "https"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"https://{HOST}",
            }
        conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.body = response.read()
        conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response

    def get(self, path: str) -> HTTPResponse:
        return self.request("GET", path)

    def sign_in(self, username: str) -> None:
        self.get("/accounts/login/")  # the CSRF cookie
        token = self.cookies["csrftoken"]
        form = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
        response = self.request("POST", "/accounts/login/", form)
        assert response.status == 302, response.body.decode()[:2000]


@pytest.fixture
def server(image: Path, tmp_path: Path) -> Iterator[Browser]:
    """gunicorn from the image's environment with production settings, on a loopback port."""
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))},
        "COMPUTE_PLANNER_ENV": "production",
        "DJANGO_SECRET_KEY": "p4#Lq8!zV2mX7@kR1tN9&wE3yU6oI0aS5dF8gH2jK4lQ7zX9cV1bN3mR6tY8uP",
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DATABASE_URL": database_url_of_tests(),
        "REDIS_URL": settings.REDIS_URL,
        "RELEASE_ID": "image-test",
        "EMAIL_URL": "smtp+tls://mail.example.org",
        "DEFAULT_FROM_EMAIL": "planner@example.org",
        "SITE_URL": f"https://{HOST}",
        "STATIC_ROOT": str(image / "static"),
        "LOG_LEVEL": "WARNING",
    }
    gunicorn = [str(image / "venv" / "bin" / "gunicorn"), "config.wsgi:application"]
    server = Server(
        [*gunicorn, "--bind", "127.0.0.1:{port}", "--workers", "1", "--no-control-socket"],
        environment,
        tmp_path / "gunicorn.log",
    )
    try:
        yield Browser(server.port)
    finally:
        server.stop()
    assert "Traceback" not in server.log()


class Assets(HTMLParser):
    """The scripts, stylesheets and icons a page names."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.urls.append(values["src"])
        if tag == "link" and values.get("rel") in {"stylesheet", "icon"} and values.get("href"):
            self.urls.append(values["href"])


def assets_of(html: str) -> list[str]:
    parser = Assets()
    parser.feed(html)
    return parser.urls


@pytest.fixture
def pages() -> dict[str, str]:
    """The main pages, by name: the public ones and a signed-in manager's scenario."""
    manager = make_manager(password=PASSWORD)
    scenario = make_scenario(make_project(manager, title="Support bot"), is_baseline=True)
    _, token = share_link_create(
        subject=scenario.versions.get(number=scenario.version), user=manager, label="Board"
    )
    return {
        "home": "/",
        "sign-in": "/accounts/login/",
        "catalogue": "/catalogue/",
        "API docs": "/api/docs/",
        "share link": f"/s/{token}/",
        "scenario": f"/scenarios/{scenario.pk}/",
    }


def test_each_main_page_answers_200_with_every_script_and_style_it_names(server, pages):
    server.sign_in("manager")
    statuses, assets = {}, {}
    for name, path in pages.items():
        response = server.get(path)
        statuses[name] = response.status
        for url in assets_of(response.body.decode()):
            assets[url] = server.get(url).status
    assert statuses == dict.fromkeys(pages, 200)
    assert {"/static/vendor/htmx/", "/static/vendor/chartjs/", "/static/favicon."} <= {
        re.sub(r"(vendor/\w+/|favicon\.).*", r"\1", url) for url in assets
    }
    assert assets == dict.fromkeys(assets, 200)
    assert [url for url in assets if not HASHED.search(url)] == []


def test_the_image_has_no_dev_dependencies_and_no_test_only_assets(image):
    site_packages = next((image / "venv" / "lib").glob("python3.*/site-packages"))
    assert (site_packages / "django").is_dir()
    assert not (site_packages / "pytest").exists()
    static = image / "static"
    assert (static / "staticfiles.json").is_file()
    assert not (static / "vendor" / "axe-core").exists()
