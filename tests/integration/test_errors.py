"""Error pages: 400, 403, 404, 429 and 500 in the app's layout with the right status, leaking
nothing (no exception text, traceback, setting or file path); API paths answer in DRF's JSON.

The views that fail on purpose live in this module's URLconf, used only by these tests.
"""

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest
from django.template import loader
from django.test import Client
from django.urls import include, path

from config import urls as project_urls

pytestmark = pytest.mark.django_db
SECRET_DETAIL = "internal-detail-7f3a: /srv/app/apps/billing.py line 12"


def _raise(exception: Exception):
    def view(request: HttpRequest):
        raise exception

    return view


urlpatterns = [
    path("fail/400/", _raise(SuspiciousOperation(SECRET_DETAIL))),
    path("fail/403/", _raise(PermissionDenied(SECRET_DETAIL))),
    path("fail/404/", _raise(Http404(SECRET_DETAIL))),
    path("fail/500/", _raise(RuntimeError(SECRET_DETAIL))),
    path("api/fail/500/", _raise(RuntimeError(SECRET_DETAIL))),
    path("", include(project_urls.urlpatterns)),
]
handler400 = project_urls.handler400
handler403 = project_urls.handler403
handler404 = project_urls.handler404
handler500 = project_urls.handler500


@pytest.fixture(autouse=True)
def _failing_urls(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


@pytest.fixture
def client() -> Client:
    # Answer like the server does, instead of raising the view's exception in the test.
    return Client(raise_request_exception=False)


def assert_friendly_page(response, status: int, heading: str) -> None:
    html = response.content.decode()
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert '<header class="site-header">' in html
    assert '<nav aria-label="Main">' in html
    assert '<footer class="site-footer">' in html
    assert f"<h1>{heading}</h1>" in html
    for leak in (
        SECRET_DETAIL,
        "internal-detail",
        "Traceback",
        "Exception",
        settings.SECRET_KEY,
        str(settings.BASE_DIR),
        "site-packages",
        ".py",
        "DEBUG",
        "settings",
    ):
        assert leak not in html, f"the {status} page shows {leak!r}"


@pytest.mark.parametrize(
    ("path", "status", "heading"),
    [
        ("/fail/400/", 400, "The request could not be read"),
        ("/fail/403/", 403, "You cannot do this"),
        ("/fail/404/", 404, "Page not found"),
        ("/no/such/page/", 404, "Page not found"),
        ("/fail/500/", 500, "Something went wrong on our side"),
    ],
)
def test_error_pages_are_friendly_in_the_layout_and_leak_nothing(client, path, status, heading):
    assert_friendly_page(client.get(path), status, heading)


def test_the_500_page_gives_the_request_id_to_quote(client):
    response = client.get("/fail/500/")
    assert f"<code>{response['X-Request-ID']}</code>" in response.content.decode()


def test_the_500_page_renders_without_a_request_context():
    html = loader.get_template("500.html").render()
    assert "Something went wrong on our side" in html
    assert "reference" not in html


def test_a_request_for_another_host_gets_the_400_page(client):
    response = client.get("/", HTTP_HOST="attacker.example")
    assert_friendly_page(response, 400, "The request could not be read")


def test_a_form_without_its_csrf_token_gets_the_403_page_in_the_layout():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a"})
    assert_friendly_page(response, 403, "The form could not be sent")


def test_too_many_sign_in_attempts_get_the_429_page(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS + 1):
        response = client.post("/accounts/login/", {"username": "someone", "password": "x"})
    assert_friendly_page(response, 429, "Too many attempts")
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        ("/api/v1/no-such-thing/", 404, {"detail": "Not found."}),
        (
            "/api/v1/accelerators/no-such-accelerator/",
            404,
            {"detail": "No Accelerator matches the given query."},
        ),
        ("/api/fail/500/", 500, {"detail": "A server error occurred."}),
    ],
)
def test_api_paths_answer_errors_in_drf_json(client, path, status, body):
    response = client.get(path)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.json() == body
