"""Faults of the services around the app, on real server processes: PostgreSQL dropping every
connection (what a restart does to its clients) while requests are under way, and Redis gone.

PostgreSQL: gunicorn on the test database, whose backends another connection terminates with
pg_terminate_backend (this database's only; the server is shared). Redis: the embedded setup with
the cache and the broker pointed at a port where nothing listens, so no shared Redis is stopped.
A worker killed mid-sweep is tests/integration/test_sweeps_worker.py.
"""

import re
import threading
import urllib.request
from collections import Counter
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.db import connection

from apps.accounts.services import api_token_create
from apps.projects.presets import PRESETS_BY_SLUG
from tests.factories import make_manager, make_project, make_scenario
from tests.servers import (
    Answer,
    Api,
    Server,
    call,
    database_url_of_tests,
    demo_credentials,
    embedded_env,
    embedded_setup,
)

# Nothing listens here: a Redis that is down.
NO_REDIS = "redis://127.0.0.1:6399"
# The errors a sweep that could not be queued logs: why, and the 503 (Django logs every 5xx).
LOGGED_FOR_A_SWEEP = ("Could not queue sweep", "Service Unavailable: ")


# PostgreSQL dropping its connections


@pytest.fixture
def on_postgres(transactional_db, tmp_path) -> Iterator[tuple[Server, Api, int]]:
    """gunicorn on the test database, an API client with a token, and a scenario of theirs."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (CI runs it there)")
    manager = make_manager()
    scenario = make_scenario(make_project(manager), inputs=PRESETS_BY_SLUG["fine-tune-7b"].inputs)
    _, key = api_token_create(user=manager, name="faults")
    env = {"DATABASE_URL": database_url_of_tests(), "DATABASE_CONN_MAX_AGE": "600"}
    server = Server.gunicorn({**embedded_env(tmp_path), **env}, tmp_path / "server.log")
    yield server, Api(server.base, key), scenario.pk
    server.stop()


def terminate_server_connections() -> int:
    """Drop every other connection to this test database, as a restart drops them all."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def read_and_estimate(api: Api, scenario_id: int) -> list[Answer]:
    return [
        api("GET", f"/api/v1/scenarios/{scenario_id}/estimate/"),
        api("GET", "/api/v1/projects/"),
    ]


@pytest.mark.postgres
def test_after_postgresql_drops_the_connections_the_next_requests_succeed(on_postgres):
    server, api, scenario_id = on_postgres
    for _ in range(10):  # both workers hold a connection
        assert {answer.status for answer in read_and_estimate(api, scenario_id)} == {200}

    assert terminate_server_connections() >= 1

    answers = [answer for _ in range(10) for answer in read_and_estimate(api, scenario_id)]
    assert [answer.status for answer in answers] == [200] * 20
    assert not [record for record in server.records() if record["level"] == "ERROR"]


@pytest.mark.postgres
def test_requests_under_way_when_postgresql_drops_them_answer_503_never_500(on_postgres):
    server, api, scenario_id = on_postgres
    statuses: Counter[int] = Counter()
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            statuses.update(answer.status for answer in read_and_estimate(api, scenario_id))

    clients = [threading.Thread(target=keep_asking) for _ in range(4)]
    for client in clients:
        client.start()
    try:
        while statuses.total() < 40:
            stop.wait(0.05)
        terminated = sum(terminate_server_connections() for _ in range(5))
        seen = statuses.total()
        while statuses.total() < seen + 40:
            stop.wait(0.05)
    finally:
        stop.set()
        for client in clients:
            client.join()

    assert terminated >= 1
    assert set(statuses) <= {200, 503}, statuses
    assert not [r for r in server.records() if r["message"].startswith("Internal Server Error")]
    answers = [answer for _ in range(10) for answer in read_and_estimate(api, scenario_id)]
    assert [answer.status for answer in answers] == [200] * 20


# Redis gone


@pytest.fixture(scope="module")
def without_redis(tmp_path_factory) -> Iterator[tuple[Server, Path]]:
    """The embedded setup with its cache and task broker on a Redis that is down."""
    data_dir = tmp_path_factory.mktemp("no-redis")
    env = embedded_env(data_dir, REDIS_URL=f"{NO_REDIS}/1", CELERY_BROKER_URL=f"{NO_REDIS}/0")
    embedded_setup(data_dir, env)
    server = Server.runserver(env, data_dir / "server.log")
    yield server, data_dir
    server.stop()


def sign_in_page(server: Server, username: str, password: str):
    """A browser's session, signed in through the sign-in page; and the page's answer."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    login_url = f"{server.base}/accounts/login/"
    form = call(browser, "GET", login_url)
    assert form.status == 200
    fields = {
        "csrfmiddlewaretoken": csrf_token(form.text()),
        "username": username,
        "password": password,
    }
    answer = post_form(browser, login_url, fields)
    return browser, answer


def csrf_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]


def post_form(browser, url: str, fields: dict) -> Answer:
    return call(
        browser,
        "POST",
        url,
        body=urlencode(fields, doseq=True).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Referer": url},
    )


def test_without_redis_pages_estimates_and_sign_in_keep_working(without_redis):
    server, data_dir = without_redis
    username, password = demo_credentials(data_dir)
    anonymous = Api(server.base)

    for path in ("/", "/catalogue/", "/accounts/login/", "/api/v1/accelerators/"):
        assert anonymous("GET", path).status == 200, path
    browser, signed_in = sign_in_page(server, username, password)
    assert signed_in.status == 200 and "Sign out" in signed_in.text()  # followed to the projects
    api = anonymous.sign_in(username, password)
    project = api("GET", "/api/v1/projects/").json()[0]
    scenario = api("GET", f"/api/v1/projects/{project['id']}/scenarios/").json()[0]
    for _ in range(2):  # the second time, the page's cache would be read
        page = call(browser, "GET", f"{server.base}/scenarios/{scenario['id']}/")
        assert page.status == 200 and scenario["name"] in page.text()
    estimate = anonymous("POST", "/api/v1/estimate/", scenario["inputs"])
    assert estimate.status == 200 and estimate.json()["training"]["accelerator_hours"] > 0
    wrong = Api(server.base)("POST", "/api/v1/auth/token/", {"username": username, "password": "x"})
    assert wrong.status == 400  # a wrong password is still refused

    records = server.records()
    skipped = [record for record in records if record["logger"] == "django_redis.cache"]
    assert skipped and all(record["message"] == "Exception ignored" for record in skipped)
    assert "ConnectionError" in skipped[0]["exception"]  # the reason, for whoever reads the log
    assert not [r for r in records if r["level"] == "ERROR" and r["logger"] != "django_redis.cache"]


def test_without_redis_a_sweep_submission_answers_503_and_the_sweep_is_failed_with_the_reason(
    without_redis,
):
    server, data_dir = without_redis
    username, password = demo_credentials(data_dir)
    api = Api(server.base).sign_in(username, password)
    project = api("GET", "/api/v1/projects/").json()[0]
    scenario_id = api("GET", f"/api/v1/projects/{project['id']}/scenarios/").json()[0]["id"]
    sweeps = f"/api/v1/scenarios/{scenario_id}/sweeps/"
    definition = {
        "inputs": [{"field": "inference.months", "kind": "list", "values": [6, 12, 24]}],
        "name": "Through a dead queue",
    }

    answer = api("POST", sweeps, definition)

    assert answer.status == 503
    assert int(answer.headers["Retry-After"]) > 0
    assert answer.json() == {
        "detail": "The task queue is not answering, so the sweep was not started (it is listed "
        "as failed, with the reason). Try again in a minute."
    }
    [sweep] = api("GET", sweeps).json()
    assert (sweep["name"], sweep["status"]) == ("Through a dead queue", "failed")
    assert sweep["error"].startswith("The sweep could not be queued (the task broker did not")

    browser, _ = sign_in_page(server, username, password)
    url = f"{server.base}/scenarios/{scenario_id}/sweeps/new/"
    form = call(browser, "GET", url)
    fields = {
        "csrfmiddlewaretoken": csrf_token(form.text()),
        "inputs-TOTAL_FORMS": "1",
        "inputs-INITIAL_FORMS": "0",
        "inputs-MIN_NUM_FORMS": "0",
        "inputs-MAX_NUM_FORMS": "3",
        "name": "Typed on the page",
        "inputs-0-field": "inference.months",
        "inputs-0-kind": "list",
        "inputs-0-values": "6; 12; 24",
    }
    page = post_form(browser, url, fields)
    assert page.status == 503 and int(page.headers["Retry-After"]) > 0
    text = page.text()
    assert "The task queue is not answering, so the sweep was not started" in text
    assert 'value="Typed on the page"' in text  # nothing typed is lost
    assert len(api("GET", sweeps).json()) == 2
    errors = [
        record["message"]
        for record in server.records()
        if record["level"] == "ERROR" and record["logger"] != "django_redis.cache"  # the cache's
    ]
    assert errors and all(message.startswith(LOGGED_FOR_A_SWEEP) for message in errors), errors
