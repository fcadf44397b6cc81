"""Share links for governance boards: the token, its hash, expiry, revocation, headers, limits,
the frozen snapshot, views, and the team-only pages that create, list and revoke links."""

import base64
import hashlib
import re
import secrets
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.catalogue.models import PriceOffer
from apps.core import ratelimit
from apps.projects.models import Project, ProjectSnapshot
from apps.projects.services import scenario_update
from apps.projects.versions import version_estimate
from apps.reviews.services import project_submit
from apps.sharing import services, views
from apps.sharing.models import ShareLink
from tests.factories import make_manager, make_project, make_scenario, seed_000_inference

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def rate_limit_clock(monkeypatch) -> float:
    """The rate limits' clock, stopped 15 seconds into a minute (and an hour): no test straddles
    two windows, whose counts start again from zero."""
    now = 1_800_000_015.0
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture
def scenario(manager):
    return make_scenario(make_project(manager, title="Support bot"), is_baseline=True)


def share(scenario, **options) -> tuple[ShareLink, str]:
    """A link to the scenario's latest version, created by the project's owner."""
    version = scenario.versions.get(number=scenario.version)
    options.setdefault("label", "Board meeting")
    return services.share_link_create(subject=version, user=scenario.project.owner, **options)


def submit(project: Project) -> ProjectSnapshot:
    """Submit the project for review as its owner: the latest versions freeze as a snapshot."""
    return project_submit(project=project, user=project.owner)


def shared_url(token: str) -> str:
    return f"/s/{token}/"


def without_language_switcher(html: str) -> str:
    """The page but the layout's language switcher (a form with its own CSRF token)."""
    return re.sub(r'<form class="language-switcher".*?</form>', "", html, flags=re.S)


def new_url_on(html: str) -> str:
    """The path of the link a creation page shows once."""
    return re.search(r'<code id="new-link-url">http://testserver(/s/[^/<]+/)</code>', html)[1]


# The token


def test_a_token_carries_256_random_bits_from_secrets_and_no_two_are_alike(scenario, monkeypatch):
    calls = []
    token_urlsafe = secrets.token_urlsafe
    monkeypatch.setattr(
        services.secrets, "token_urlsafe", lambda n: calls.append(n) or token_urlsafe(n)
    )
    tokens = [share(scenario)[1] for _ in range(2)]
    assert calls == [32, 32]
    assert tokens[0] != tokens[1]
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
        assert len(base64.urlsafe_b64decode(token + "=")) * 8 == 256


def test_only_the_tokens_hash_is_stored_never_the_token(client, manager, scenario):
    html = client.post(
        f"/scenarios/{scenario.pk}/share/", {"label": "Board", "expires_in_days": "30"}
    ).content.decode()
    token = new_url_on(html).split("/")[2]
    link = ShareLink.objects.get()
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            assert token not in repr(cursor.fetchall()), f"the token is stored in {table}"


# What a link shows


def test_anyone_with_the_link_sees_the_comparison_chart_and_description_and_no_form(
    client, scenario
):
    _, token = share(scenario)
    client.logout()
    response = client.get(shared_url(token))
    assert response.status_code == 200
    html = without_language_switcher(response.content.decode())
    version = scenario.versions.get()
    assert f'snapshot of <time datetime="{version.created_at.isoformat()}">' in html
    assert f"{version.created_at:%-d %B %Y}</time>, version 1." in html
    assert "Training against inference" in html
    assert "Training: build once" in html and "Inference: every request" in html
    assert 'id="chart-data"' in html and 'id="chart-hours"' in html
    assert "Describe this without the diagram" in html
    assert "8.33 accelerator-hours" in html
    # the whole footprint, as the scenario page shows it (issue 27)
    for words in ("Embodied emissions", "Water", "Embodied emissions over the horizon"):
        assert f"<dt>{words} " in html, words
    assert "<dt>Water over the horizon " in html
    assert "<form" not in html and "hx-" not in html and "csrfmiddlewaretoken" not in html


def test_the_toggle_is_a_plain_link_between_one_request_and_many(client, scenario):
    _, token = share(scenario)
    client.logout()
    single = client.get(f"{shared_url(token)}?view=single").content.decode()
    assert "Cost per 1,000 requests" in single and "Accelerators needed at peak" not in single
    assert '<a href="?view=many" id="view-many" >Many requests</a>' in single
    many = client.get(shared_url(token)).content.decode()
    assert "Accelerators needed at peak" in many


def test_the_link_shows_the_saved_version_after_the_scenario_and_catalogue_prices_change(
    client, manager, scenario
):
    _, token = share(scenario)
    board = Client()  # a board member, without an account
    before = without_language_switcher(board.get(shared_url(token)).content.decode())
    live_before = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    scenario_update(
        scenario=scenario,
        name="Pilot, twice the demand",
        inputs={**scenario.inputs, "inference": seed_000_inference(30_000)},
        user=manager,
    )
    offers = list(PriceOffer.objects.filter(accelerator__slug="nvidia-h100-sxm", kind="rent"))
    try:
        for offer in offers:
            offer.price_per_accelerator_hour *= 3
            offer.save()
        after = board.get(shared_url(token)).content.decode()
        assert without_language_switcher(after) == before
        live_after = client.get(f"/scenarios/{scenario.pk}/").content.decode()
        assert live_after != live_before  # the edits did change the scenario's own page
    finally:
        for offer in offers:
            offer.price_per_accelerator_hour /= 3
            offer.save()


def test_a_project_snapshot_link_shows_each_scenario_with_its_version(client, manager):
    project = make_project(manager, title="Support bot")
    pilot = make_scenario(project, name="Pilot", is_baseline=True)
    wider = make_scenario(project, name="Wider use")
    scenario_update(
        scenario=wider,
        name="Wider use",
        inputs={**wider.inputs, "inference": seed_000_inference(300_000)},
        user=manager,
    )
    snapshot = submit(project)
    html = client.post(
        f"/projects/{project.pk}/share/", {"label": "Board", "expires_in_days": "14"}
    ).content.decode()
    url = new_url_on(html)
    client.logout()
    first = client.get(url).content.decode()
    assert f'snapshot of <time datetime="{snapshot.created_at.isoformat()}">' in first
    assert f'<a href="{url}1/?view=many" aria-current="page">Pilot</a>, version 1' in first
    assert f'<a href="{url}2/?view=many">Wider use</a>, version 2' in first
    assert "<strong>Pilot</strong>: snapshot of" in first
    second = client.get(f"{url}2/").content.decode()
    assert "<strong>Wider use</strong>: snapshot of" in second and ", version 2." in second
    assert "167 accelerator-hours" in second and "167 accelerator-hours" not in first
    assert client.get(f"{url}3/").status_code == 404
    assert pilot.versions.count() == 1


def test_each_view_is_counted_and_the_team_sees_the_count(client, manager, scenario):
    link, token = share(scenario)
    client.logout()
    for _ in range(3):
        client.get(shared_url(token))
    client.get(f"{shared_url(token)}2/")  # no such scenario: not a view
    link.refresh_from_db()
    assert link.view_count == 3 and link.last_viewed_at is not None
    client.force_login(manager)
    html = client.get(f"/scenarios/{scenario.pk}/share/").content.decode()
    assert re.search(r"<td>3 \(last on [^)]+\)</td>", html)


def test_a_shared_page_runs_the_same_queries_however_many_scenarios_a_snapshot_has(client, manager):
    def queries(scenarios: int) -> int:
        project = make_project(manager, title=f"{scenarios} scenarios")
        for index in range(scenarios):
            make_scenario(project, name=f"Variant {index}", is_baseline=index == 0)
        submit(project)
        _, token = services.share_link_create(
            subject=project.snapshots.get(), user=manager, label="Board"
        )
        client.get(shared_url(token))  # warm caches such as the content types
        with CaptureQueriesContext(connection) as captured:
            assert client.get(shared_url(token)).status_code == 200
        return len(captured)

    assert queries(1) == queries(6) <= 6


# Expiry and revocation


def test_a_link_expires_after_30_days_unless_told_otherwise_and_at_most_after_90(scenario):
    link, _ = share(scenario)
    assert link.expires_at - link.created_at == timedelta(days=30)
    link, _ = share(scenario, expires_in_days=90)
    assert link.expires_at - link.created_at == timedelta(days=90)


def test_an_expired_link_answers_404_right_away(client, scenario, monkeypatch):
    link, token = share(scenario, expires_in_days=7)
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: link.expires_at - timedelta(seconds=1))
    assert client.get(shared_url(token)).status_code == 200
    monkeypatch.setattr(timezone, "now", lambda: link.expires_at)
    response = client.get(shared_url(token))
    assert response.status_code == 404
    assert "This link does not open" in response.content.decode()
    assert response["Cache-Control"] == "no-store"
    assert now < link.expires_at


def test_a_revoked_link_answers_404_on_the_very_next_request(client, manager, scenario):
    link, token = share(scenario)
    assert client.get(shared_url(token)).status_code == 200
    page = f"/scenarios/{scenario.pk}/share/"
    response = client.post(f"/share-links/{link.pk}/revoke/", {"next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert client.get(shared_url(token)).status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is not None and link.revoked_by == manager
    html = client.get(page).content.decode()
    assert "Revoked on" in html and "Revoke Board meeting" not in html


def test_revoking_never_redirects_to_another_host(client, manager, scenario):
    link, _ = share(scenario)
    response = client.post(f"/share-links/{link.pk}/revoke/", {"next": "https://evil.example/"})
    assert response["Location"] == "/share-links/"


# Headers, other hosts and rate limits


def test_shared_pages_send_no_referrer_noindex_and_no_store_whatever_the_answer(client, scenario):
    _, token = share(scenario)
    unknown = secrets.token_urlsafe(32)
    for url, status in ((shared_url(token), 200), (shared_url(unknown), 404)):
        response = client.get(url)
        assert response.status_code == status
        assert response["Referrer-Policy"] == "no-referrer"
        assert response["X-Robots-Tag"] == "noindex"
        assert response["Cache-Control"] == "no-store"
        assert only_this_host(response["Content-Security-Policy"])


def only_this_host(policy: str) -> bool:
    """Whether a Content Security Policy lets a page load from its own host only."""
    directives = dict(
        (name, sources) for name, *sources in (part.split() for part in policy.split(";"))
    )
    allowed = {"'self'", "'none'", "data:"}
    return directives["default-src"] == ["'self'"] and all(
        source in allowed or source.startswith("'nonce-")
        for sources in directives.values()
        for source in sources
    )


def test_a_shared_page_loads_nothing_from_other_hosts(client, scenario):
    _, token = share(scenario)
    html = client.get(shared_url(token)).content.decode()
    sources = re.findall(r'(?:src|href|action|poster|srcset)="([^"]*)"', html)
    assert any(source.endswith("chart.umd.min.js") for source in sources)
    assert all(source.startswith(("/", "?", "#")) for source in sources), sources
    assert not any(source.startswith("//") for source in sources)


def test_a_hundred_random_tokens_all_answer_404(client, scenario):
    # A token is looked up by its hash, so every random one is a miss: a hundred show it as well
    # as a thousand did (no guess among 2**256 could match).
    link, _ = share(scenario)
    for index in range(100):
        address = f"10.{index % 4}.{index // 4}.1"  # one guess per address: no rate limit
        response = client.get(shared_url(secrets.token_urlsafe(32)), REMOTE_ADDR=address)
        assert response.status_code == 404, index
    link.refresh_from_db()
    assert link.view_count == 0


def test_guessing_tokens_is_rate_limited_with_429_and_retry_after(
    client, scenario, rate_limit_clock
):
    _, token = share(scenario)
    guesser = {"REMOTE_ADDR": "203.0.113.7"}
    for _ in range(views.UNKNOWN_TOKEN_BUDGET.requests):
        assert client.get(shared_url(secrets.token_urlsafe(32)), **guesser).status_code == 404
    refused = client.get(shared_url(secrets.token_urlsafe(32)), **guesser)
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(60 * 60 - 15)
    assert refused["Cache-Control"] == "no-store"
    assert "Try again in" in refused.content.decode()
    # Once refused, even a valid token is refused: the answer tells a guesser nothing.
    assert client.get(shared_url(token), **guesser).status_code == 429
    assert client.get(shared_url(token), REMOTE_ADDR="198.51.100.1").status_code == 200


def test_too_many_requests_from_one_address_answer_429_with_retry_after(
    client, scenario, rate_limit_clock
):
    _, token = share(scenario)
    for _ in range(views.SHARED_PAGE_BUDGET.requests):
        assert client.get(shared_url(token)).status_code == 200
    refused = client.get(shared_url(token))
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(60 - 15)


def test_the_rate_limit_counts_the_address_behind_the_trusted_proxies(
    client, scenario, settings, rate_limit_clock
):
    _, token = share(scenario)
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]  # the test client's REMOTE_ADDR
    for _ in range(views.SHARED_PAGE_BUDGET.requests):
        client.get(shared_url(token), HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert client.get(shared_url(token), HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429
    assert client.get(shared_url(token), HTTP_X_FORWARDED_FOR="192.0.2.2").status_code == 200


# The team's pages


def test_a_manager_creates_a_link_and_sees_it_only_this_once(client, manager, scenario):
    page = f"/scenarios/{scenario.pk}/share/"
    response = client.post(page, {"label": "March board", "expires_in_days": "14"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    url = new_url_on(response.content.decode())
    link = ShareLink.objects.get()
    assert (link.label, link.created_by, link.scenario_version.scenario) == (
        "March board",
        manager,
        scenario,
    )
    assert link.expires_at - link.created_at == timedelta(days=14)
    again = client.get(page).content.decode()
    assert url not in again and "March board" in again
    assert "Revoke March board" in client.get("/share-links/").content.decode()


def test_an_expiry_over_90_days_is_refused_with_a_message_on_the_field(client, manager, scenario):
    html = client.post(
        f"/scenarios/{scenario.pk}/share/", {"label": "Board", "expires_in_days": "91"}
    ).content.decode()
    assert "A link lasts at most 90 days" in html
    assert 'id="id_expires_in_days_error"' in html and 'aria-invalid="true"' in html
    assert 'value="Board"' in html
    assert not ShareLink.objects.exists()


def test_the_scenario_and_project_pages_offer_to_share(client, manager, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert f'href="/scenarios/{scenario.pk}/share/"' in html
    html = client.get(f"/projects/{scenario.project_id}/").content.decode()
    assert f'href="/projects/{scenario.project_id}/share/"' in html


def test_a_draft_project_is_shared_only_once_submitted(client, manager, scenario):
    page = f"/projects/{scenario.project_id}/share/"
    html = client.get(page).content.decode()
    assert "once it is submitted for review" in html and "Create link" not in html
    client.post(page, {"label": "Board", "expires_in_days": "30"})
    assert not ShareLink.objects.exists()
    submit(scenario.project)
    assert "Create link" in client.get(page).content.decode()


def test_a_scenario_never_saved_as_a_version_cannot_be_shared_yet(client, manager):
    project = make_project(manager)
    unsaved = project.scenarios.create(name="Imported", inputs={"training": {}})
    html = client.post(
        f"/scenarios/{unsaved.pk}/share/", {"label": "Board", "expires_in_days": "30"}
    ).content.decode()
    assert "Save the scenario once before sharing it" in html
    assert not ShareLink.objects.exists()


def test_a_collaborator_shares_and_revokes_links_of_the_project(client, scenario):
    colleague = make_manager("colleague")
    scenario.project.collaborators.add(colleague)
    owners_link, _ = share(scenario)
    client.force_login(colleague)
    client.post(f"/scenarios/{scenario.pk}/share/", {"label": "Mine", "expires_in_days": "5"})
    assert ShareLink.objects.filter(created_by=colleague).exists()
    client.post(f"/share-links/{owners_link.pk}/revoke/")
    owners_link.refresh_from_db()
    assert owners_link.revoked_at is not None


PAGES = [
    ("get", "/scenarios/{scenario}/share/"),
    ("post", "/scenarios/{scenario}/share/"),
    ("get", "/projects/{project}/share/"),
    ("post", "/projects/{project}/share/"),
    ("post", "/share-links/{link}/revoke/"),
]


@pytest.mark.parametrize(("method", "url"), PAGES)
def test_nobody_reaches_another_projects_share_links_through_any_page(client, method, url):
    owner = make_manager("owner")
    project = make_project(owner, title="Owner's project")
    scenario = make_scenario(project, is_baseline=True)
    submit(project)
    link, _ = share(scenario, label="Owner's link")
    client.force_login(make_manager("intruder"))
    path = url.format(scenario=scenario.pk, project=project.pk, link=link.pk)
    response = getattr(client, method)(path, {"label": "Stolen", "expires_in_days": "30"})
    assert response.status_code == 404
    assert ShareLink.objects.get() == link and ShareLink.objects.active().exists()
    assert "Owner's link" not in client.get("/share-links/").content.decode()


def test_anonymous_visitors_are_sent_to_sign_in_to_manage_links(client, scenario):
    link, _ = share(scenario)
    client.logout()
    for method, url in [*PAGES, ("get", "/share-links/")]:
        path = url.format(scenario=scenario.pk, project=scenario.project_id, link=link.pk)
        response = getattr(client, method)(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/accounts/login/")
    link.refresh_from_db()
    assert link.revoked_at is None


def test_money_on_a_shared_page_is_the_saved_figure_to_the_cent(client, scenario):
    _, token = share(scenario)
    cost = version_estimate(scenario.versions.get()).result.inference.total.cost
    html = client.get(shared_url(token)).content.decode()
    assert f'<data value="{cost:.2f}">' in html
