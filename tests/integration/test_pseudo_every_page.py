"""A pseudo-locale render of EVERY page: each route of the URLconf (config/urls.py) is either
rendered here, every message written ⟦message⟧, with no visible English left outside the
brackets (tests/integration/test_pseudo_locale.py explains the check), or exempt below with
its reason. A new page without a render case fails `test_every_route_is_rendered_or_exempt`.

The world (tests/integration/pseudo_world.py) holds one of every object a page shows; it is
built once for the module and each case runs in a savepoint, so a POST case changes nothing the
next one sees. POST cases follow their redirect: the page they land on shows their message.
"""

from dataclasses import dataclass, field

import pytest
from babel.numbers import get_currency_name
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from apps.core.ratelimit import too_many_requests
from apps.core.views import database_unavailable, server_error
from apps.sweeps import tasks
from apps.words.currencies import active_currencies
from tests.factories import session_cookie
from tests.integration.pseudo_world import WORLD_DATA, world_build
from tests.integration.test_langexports_pseudo_pages import catalogue_words
from tests.integration.test_project_pages import scenario_post
from tests.integration.test_pseudo_locale import (  # noqa: F401 (a fixture)
    PSEUDO,
    pseudo_locale,
    untranslated,
)
from tests.integration.test_sweeps_pages import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pseudo_locale")]


@dataclass(frozen=True)
class Case:
    """One render: a path (formatted with the world's ids), who asks, and how."""

    path: str
    user: str = "owner"
    method: str = "get"
    data: dict = field(default_factory=dict)
    status: int = 200
    htmx: bool = False
    headers: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path} as {self.user}{' (HTMX)' if self.htmx else ''}"


def get(path: str, user: str = "owner", **options) -> Case:
    return Case(path, user, **options)


def post(path: str, data: dict | None = None, user: str = "owner", **options) -> Case:
    return Case(path, user, "post", data or {}, **options)


S = "/scenarios/{rented}"
P = "/projects/{project}"
SWEEP_FORM = form_data(
    inputs__0__field="inference.requests_per_month",
    inputs__0__kind="log",
    inputs__0__start="1,000",
    inputs__0__stop="1e7",
    inputs__0__steps="5",
)
TOO_MANY_POINTS = {**SWEEP_FORM, "inputs-0-steps": "2000000"}
SCENARIO_FORM = scenario_post("Rented pilot", inference_requests_per_month="300,000")

# Every HTML route, with the renders that show its words: each state a page has (empty, with
# errors, with results) where its words differ.
PAGES: dict[str, tuple[Case, ...]] = {
    "": (get("/", "anonymous"), get("/")),
    "catalogue/": (get("/catalogue/", "anonymous"),),
    "catalogue/models/": (get("/catalogue/models/", "anonymous"),),
    "catalogue/calibration/": (get("/catalogue/calibration/", "anonymous"),),
    "catalogue/api-prices/": (get("/catalogue/api-prices/", "anonymous"),),
    "glossary/": (get("/glossary/", "anonymous"),),
    "glossary/<slug:term>/": (get("/glossary/kv-cache/", "anonymous"),),
    "accounts/login/": (
        get("/accounts/login/", "anonymous"),
        post("/accounts/login/", {"username": "amina", "password": "wrong"}, "anonymous"),
    ),
    "accounts/logout/": (post("/accounts/logout/"),),
    "accounts/password/": (
        get("/accounts/password/"),
        post("/accounts/password/", {"old_password": "wrong"}),
    ),
    "accounts/password/done/": (get("/accounts/password/done/"),),
    "accounts/language/": (
        post("/accounts/language/", {"language": "tlh", "next": "/"}, status=400),
    ),
    "accounts/tokens/": (get("/accounts/tokens/"), post("/accounts/tokens/", {"name": "Second"})),
    "accounts/preferences/": (
        get("/accounts/preferences/"),
        post("/accounts/preferences/", {"language": "tlh"}),
        post("/accounts/preferences/", {"language": "", "email_reviewed": "on"}),
    ),
    "accounts/password/reset/": (
        get("/accounts/password/reset/", "anonymous"),
        post("/accounts/password/reset/", {"email": ""}, "anonymous"),
        post("/accounts/password/reset/", {"email": "guest@example.org"}, "anonymous"),
    ),
    "accounts/password/reset/sent/": (get("/accounts/password/reset/sent/", "anonymous"),),
    "accounts/reset/<uidb64>/<token>/": (get("/accounts/reset/MQ/no-token/", "anonymous"),),
    "accounts/reset/done/": (get("/accounts/reset/done/", "anonymous"),),
    "projects/<int:project_id>/invitations/": (
        get(f"{P}/invitations/"),
        post(f"{P}/invitations/", {"email": "not an address"}),
        post(f"{P}/invitations/", {"email": "newcomer@example.org", "language": "fr"}),
        get("/projects/{board}/invitations/"),
    ),
    "invitations/<str:token>/": (
        get("/invitations/{invitation_token}/", "anonymous"),
        post("/invitations/{invitation_token}/", {"new_password1": "x"}, "anonymous"),
        get("/invitations/not-a-token/", "anonymous", status=404),
    ),
    "accounts/tokens/<int:token_id>/revoke/": (post("/accounts/tokens/{token}/revoke/"),),
    "projects/": (get("/projects/"),),
    "projects/new/": (get("/projects/new/"), post("/projects/new/", {"title": ""})),
    "projects/<int:project_id>/": (
        get(f"{P}/"),
        get("/projects/{board}/"),
    ),
    "projects/<int:project_id>/edit/": (get(f"{P}/edit/"), post(f"{P}/edit/", {"title": ""})),
    "projects/<int:project_id>/audit/": (get(f"{P}/audit/"), get("/projects/{board}/audit/")),
    # The whole audit log is an administrator's: the pseudo world has none, so its refusal.
    "audit/": (get("/audit/", status=403),),
    "projects/<int:project_id>/scenarios/new/": (
        post(f"{P}/scenarios/new/"),
        post("/projects/{board}/scenarios/new/"),
    ),
    "projects/<int:project_id>/compare/": (
        get(f"{P}/compare/?s={{rented}}&s={{owned}}&s={{chat}}&s={{vendor}}"),
        get(f"{P}/compare/?s={{rented}}"),
    ),
    "scenarios/<int:scenario_id>/": (
        get(f"{S}/"),
        get(f"{S}/?view=single"),
        get("/scenarios/{owned}/"),
        get("/scenarios/{chat}/"),
        get("/scenarios/{vendor}/"),
        get("/scenarios/{board_pilot}/"),
        post(f"{S}/", {"name": ""}),
        post(f"{S}/", {**SCENARIO_FORM, "version": "3"}),
        post(f"{S}/", {**SCENARIO_FORM, "version": "1"}, status=409),
    ),
    "scenarios/precisions/<str:section>/": (
        get(
            "/scenarios/precisions/inference/?inference_accelerator=h100-sxm&inference_precision=fp4",
            htmx=True,
        ),
    ),
    "scenarios/<int:scenario_id>/preview/": (post(f"{S}/preview/", SCENARIO_FORM, htmx=True),),
    "scenarios/<int:scenario_id>/duplicate/": (post(f"{S}/duplicate/"),),
    "scenarios/<int:scenario_id>/baseline/": (post("/scenarios/{owned}/baseline/"),),
    "scenarios/<int:scenario_id>/delete/": (post("/scenarios/{owned}/delete/"),),
    "scenarios/<int:scenario_id>/versions/": (get(f"{S}/versions/"),),
    "scenarios/<int:scenario_id>/versions/compare/": (get(f"{S}/versions/compare/?old=1&new=3"),),
    "scenarios/<int:scenario_id>/sweeps/new/": (
        get(f"{S}/sweeps/new/"),
        get("/scenarios/{chat}/sweeps/new/"),
        post(f"{S}/sweeps/new/", {**SWEEP_FORM, "action": "count"}),
        post(f"{S}/sweeps/new/", TOO_MANY_POINTS),
        post(f"{S}/sweeps/new/", SWEEP_FORM),
    ),
    "scenarios/<int:scenario_id>/sweeps/count/": (
        post(f"{S}/sweeps/count/", SWEEP_FORM, htmx=True),
        post(f"{S}/sweeps/count/", TOO_MANY_POINTS, htmx=True),
    ),
    "sweeps/<int:sweep_id>/": (
        get("/sweeps/{line_sweep}/"),
        get("/sweeps/{grid_sweep}/"),
        get("/sweeps/{model_sweep}/"),
        get("/sweeps/{queued_sweep}/"),
        get("/sweeps/{queued_sweep}/", htmx=True),
        get("/sweeps/{line_sweep}/?announced=running-0", htmx=True),
    ),
    "sweeps/<int:sweep_id>/cancel/": (
        post("/sweeps/{queued_sweep}/cancel/"),
        post("/sweeps/{line_sweep}/cancel/"),
    ),
    "projects/<int:project_id>/submit/": (
        post(f"{P}/submit/"),
        post("/projects/{board}/submit/"),
    ),
    "reviews/": (get("/reviews/", "reviewer"), get("/reviews/?sort=-fy:FY2027", "reviewer")),
    "portfolio/": (get("/portfolio/", "reviewer"), get("/portfolio/")),
    "reviews/<int:project_id>/": (get("/reviews/{board}/", "reviewer"),),
    "reviews/<int:project_id>/comments/": (
        post("/reviews/{board}/comments/", {"body": "Fine."}, "reviewer"),
        post("/reviews/{board}/comments/", {"body": ""}, "reviewer"),
    ),
    "reviews/<int:project_id>/return/": (
        post("/reviews/{board}/return/", {"comment": "Redo it."}, "reviewer"),
        post("/reviews/{board}/return/", {"comment": ""}, "reviewer"),
    ),
    "reviews/<int:project_id>/clear/": (post("/reviews/{board}/clear/", {}, "reviewer"),),
    "scenarios/<int:scenario_id>/share/": (
        get(f"{S}/share/"),
        post(f"{S}/share/", {"label": "Second", "expires_in_days": "7"}),
    ),
    "projects/<int:project_id>/share/": (get(f"{P}/share/"), get("/projects/{board}/share/")),
    "share-links/": (get("/share-links/"),),
    "share-links/<int:link_id>/revoke/": (post("/share-links/{link}/revoke/"),),
    "s/<str:token>/": (
        get("/s/{version_token}/", "anonymous"),
        get("/s/{snapshot_token}/", "anonymous"),
        get("/s/not-a-token/", "anonymous", status=404),
    ),
    "s/<str:token>/<int:position>/": (get("/s/{snapshot_token}/2/?view=single", "anonymous"),),
    "projects/import/": (get("/projects/import/"), post("/projects/import/")),
    "scenarios/<int:scenario_id>/options/": (
        get(f"{S}/options/"),
        get("/scenarios/{chat}/options/"),
    ),
    "scenarios/<int:scenario_id>/options/use/": (
        post(f"{S}/options/use/", {"key": "own"}),
        post(f"{S}/options/use/", {"key": "nothing"}),
    ),
    "scenarios/<int:scenario_id>/budget/": (get(f"{S}/budget/"),),
    "scenarios/<int:scenario_id>/fiscal-year-rates/": (
        get(f"{S}/fiscal-year-rates/"),
        post(f"{S}/fiscal-year-rates/", {"year_0": "x"}),  # the field's error, on the page
        post(f"{S}/fiscal-year-rates/", {"year_0": "0.9"}),  # saved: the budget page's message
    ),
    "scenarios/<int:scenario_id>/cost-lines/new/": (
        get(f"{S}/cost-lines/new/?template=licence"),
        post(f"{S}/cost-lines/new/", {"kind": "licence"}),
        post(f"{S}/cost-lines/new/", {"kind": "licence"}, htmx=True),
    ),
    "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/edit/": (
        get(f"{S}/cost-lines/{{line}}/edit/"),
    ),
    "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/delete/": (
        post(f"{S}/cost-lines/{{line}}/delete/"),
    ),
    "projects/<int:project_id>/actuals/": (get(f"{P}/actuals/"),),
    "projects/<int:project_id>/actuals/upload/": (
        post(f"{P}/actuals/upload/", {}),  # no file: the form's error, on the page
    ),
    "projects/<int:project_id>/actuals/rules/": (
        post(f"{P}/actuals/rules/", {"column": "", "kind": "storage"}),
    ),
    "projects/<int:project_id>/actuals/rules/<int:rule_id>/delete/": (
        post(f"{P}/actuals/rules/999999/delete/"),
    ),
    "projects/<int:project_id>/actuals/thresholds/": (
        post(f"{P}/actuals/thresholds/", {"percentages": "0, x"}, status=400),  # the errors
        post(f"{P}/actuals/thresholds/", {"percentages": "80, 100", "on_actual": "on"}),
    ),
    "projects/<int:project_id>/actuals/enter/": (
        post(f"{P}/actuals/enter/", {"month": "2026-03", "kind": "staff", "amount": "10"}),
        post(f"{P}/actuals/enter/", {"month": "March", "kind": "staff", "amount": "x"}),
    ),
    "projects/<int:project_id>/actuals/replan/": (get(f"{P}/actuals/replan/"),),
    "projects/<int:project_id>/actuals/replan/create/": (
        post(f"{P}/actuals/replan/create/"),  # refused or re-planned: the message it leaves
    ),
}

# Routes that answer no page for people, each with its reason.
EXEMPT: dict[str, str] = {
    "projects/<int:project_id>/audit.csv": "a download: its header is gettext's (test_audit_pages)",
    "audit.csv": "a download: its header is gettext's (test_audit_pages)",
    "actuals/template-<str:language>.csv": (
        "a download: the plain CSV's template, its header in the language its URL names "
        "(test_actuals_pages)"
    ),
    "accounts/oidc/sign-in/": "a redirect to the organisation's provider (404 without one)",
    "accounts/oidc/callback/": "a redirect back from the provider, onwards or to the sign-in page",
    "portfolio/export.csv": "a download: test_langexports_pseudo_files reads every word",
    "portfolio/export.xlsx": "a download: test_langexports_pseudo_files reads every word",
    "projects/<int:project_id>/export.<export_format:export_format>": (
        "a download (CSV, XLSX, PDF, JSON): test_langexports_pseudo_files reads every word of "
        "each, test_langexports_french_files reads each in French"
    ),
    "scenarios/<int:scenario_id>/export.<export_format:export_format>": (
        "a download (CSV, XLSX, PDF, JSON): test_langexports_pseudo_files reads every word of "
        "each, test_langexports_french_files reads each in French"
    ),
}
# Families of routes under one prefix, each with its reason.
EXEMPT_PREFIXES: dict[str, str] = {
    "api/": (
        "the REST API: JSON for integrators (its errors follow Accept-Language: "
        "test_api_errors_french), a sweep's CSV (test_sweeps_export_language), and the OpenAPI "
        "schema with its Swagger UI, the API's contract, in English"
    ),
    "admin/": (
        "Django's admin, for catalogue editors: rendered as a superuser, page by page for every "
        "model the project registers, by test_pseudo_admin (and in French by test_admin_french)"
    ),
}
# The error pages Django renders outside any route, by handler name; the 500 page (and the
# 429 and 503 pages, which no handler names) are rendered by their views directly.
ERROR_PAGES = {
    "handler400": get("/projects/", headers={"host": "elsewhere.example"}, status=400),
    "handler403": get("/reviews/", status=403),
    "handler404": get("/nowhere/", status=404),
    "handler500": None,
}


def routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the URLconf as its pattern text, e.g. "scenarios/<int:scenario_id>/"."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += routes(pattern.url_patterns, text)
        elif isinstance(pattern, URLPattern):
            found.append(text)
    return found


def test_every_route_is_rendered_or_exempt():
    listed = [r for r in routes() if not r.startswith(tuple(EXEMPT_PREFIXES))]
    missing = [r for r in listed if r not in PAGES and r not in EXEMPT]
    assert missing == [], "routes without a pseudo-locale render case (add them to PAGES)"
    stale = sorted((set(PAGES) | set(EXEMPT)) - set(listed))
    assert stale == [], "cases for routes the URLconf no longer has"
    assert not set(PAGES) & set(EXEMPT)


def test_every_error_handler_is_rendered():
    from config import urls

    handlers = {name for name in vars(urls) if name.startswith("handler")}
    assert handlers == set(ERROR_PAGES)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once, in a transaction rolled back at the end; each test runs in a savepoint. Each
    user is signed in once here: a case's client takes the session's cookie (a case that signs
    out or changes the session does so in its savepoint, and the cache is cleared after it)."""
    with pytest.MonkeyPatch.context() as patch, django_db_blocker.unblock():
        patch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
        with transaction.atomic():
            built = world_build()
            built["cookies"] = {
                name: user and session_cookie(user) for name, user in built["users"].items()
            }
            data = [*WORLD_DATA, *catalogue_words(), *CURRENCY_NAMES]
            built["data"] = sorted(data, key=len, reverse=True)
            yield built
            transaction.set_rollback(True)


def _render(world: dict, case: Case):
    client = Client(headers={"accept-language": PSEUDO})
    session = world["cookies"][case.user]
    if session is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = session
    path = case.path.format(**world["ids"])
    headers = {**case.headers, **({"HX-Request": "true"} if case.htmx else {})}
    if case.method == "get":
        return client.get(path, headers=headers)
    return client.post(path, case.data, headers=headers, follow=not case.htmx)


CASES = [pytest.param(case, id=str(case)) for cases in PAGES.values() for case in cases]
# The project's currency is chosen by its name as CLDR (Babel) gives it in the reader's language,
# as numbers are written: data here, written as the pseudo-locale's numbers (British English).
CURRENCY_NAMES = [
    f"{get_currency_name(code, locale='en_GB')} ({code})" for code in active_currencies()
]


def _check(world: dict, case: Case) -> list[str]:
    response = _render(world, case)
    assert response.status_code == case.status, response.content.decode()[:3000]
    assert response["Content-Language"] == PSEUDO
    html = response.content.decode()
    if "<body>" not in html:  # an HTMX fragment, or a plain-text answer
        html = f"<body>{html}</body>"
    return untranslated(html, world["data"])


@pytest.mark.parametrize("case", CASES)
def test_every_word_of_every_page_goes_through_gettext(world, case):
    assert _check(world, case) == []


@pytest.mark.parametrize("handler", [h for h, case in ERROR_PAGES.items() if case])
def test_every_error_page_is_in_the_readers_language(world, handler):
    assert _check(world, ERROR_PAGES[handler]) == []


@pytest.mark.parametrize(
    "view",
    [
        lambda request: server_error(request),
        lambda request: too_many_requests(request, retry_after_seconds=90),
        lambda request: database_unavailable(request),
    ],
    ids=["500", "429", "503"],
)
def test_the_pages_of_a_failure_are_in_the_readers_language(view):
    request = RequestFactory().get("/projects/", headers={"accept-language": PSEUDO})
    request.user = AnonymousUser()
    request.session = {}
    with translation.override(PSEUDO):
        html = view(request).content.decode()
    assert untranslated(html) == []
