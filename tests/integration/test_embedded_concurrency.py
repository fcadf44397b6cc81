"""The embedded default (`make run`: runserver on a SQLite file) under concurrent writers, with real
threads against a real server process: racing saves of one scenario give one 200 and 412s, racing
creations all succeed, and a write that cannot get the lock in time answers 503 with Retry-After
and leaves nothing behind. Whatever database the rest of the suite uses, these run on SQLite.
"""

import re
import sqlite3
import urllib.request
from collections import Counter
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.servers import (
    Api,
    Server,
    at_once,
    call,
    demo_credentials,
    embedded_env,
    embedded_setup,
)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A fresh embedded setup, as `make run` makes it: migrated, catalogue, demo account."""
    directory = tmp_path_factory.mktemp("embedded")
    embedded_setup(directory, embedded_env(directory))
    return directory


@pytest.fixture(scope="module")
def server(data_dir) -> Iterator[Server]:
    running = Server.runserver(embedded_env(data_dir), data_dir / "server.log")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server, data_dir) -> Api:
    return Api(server.base).sign_in(*demo_credentials(data_dir))


def demo_scenarios(api: Api) -> tuple[int, list[dict]]:
    project_id = api("GET", "/api/v1/projects/").json()[0]["id"]
    return project_id, api("GET", f"/api/v1/projects/{project_id}/scenarios/").json()


def test_racing_saves_of_one_scenario_with_one_if_match_give_one_200_and_the_rest_412(api):
    project_id, scenarios = demo_scenarios(api)
    path = f"/api/v1/projects/{project_id}/scenarios/{scenarios[0]['id']}/"
    read = api("GET", path)
    etag, version = read.headers["ETag"], read.json()["version"]

    answers = at_once(
        20, lambda i: api("PATCH", path, {"name": f"Saved by writer {i}"}, **{"If-Match": etag})
    )

    assert Counter(answer.status for answer in answers) == {200: 1, 412: 19}
    winner = next(i for i, answer in enumerate(answers) if answer.status == 200)
    saved = api("GET", path).json()
    assert (saved["name"], saved["version"]) == (f"Saved by writer {winner}", version + 1)


def test_racing_creations_of_scenarios_all_succeed_and_each_is_saved_once(api):
    project_id, before = demo_scenarios(api)
    path = f"/api/v1/projects/{project_id}/scenarios/"
    inputs = before[0]["inputs"]

    answers = at_once(40, lambda i: api("POST", path, {"name": f"Racer {i}", "inputs": inputs}))

    assert Counter(answer.status for answer in answers) == {201: 40}
    after = api("GET", path).json()
    names = Counter(scenario["name"] for scenario in after)
    assert len(after) == len(before) + 40
    assert all(names[f"Racer {i}"] == 1 for i in range(40))


@pytest.fixture
def impatient_server(data_dir, tmp_path) -> Iterator[Server]:
    """The same database, served by a process that waits one second for the write lock."""
    env = embedded_env(data_dir, SQLITE_TIMEOUT_SECONDS="1")
    running = Server.runserver(env, tmp_path / "server.log")
    yield running
    running.stop()


def test_a_write_that_cannot_get_the_lock_in_time_answers_503_and_writes_nothing(
    api, data_dir, impatient_server
):
    slow = Api(impatient_server.base, api.token)
    project_id, before = demo_scenarios(slow)
    path = f"/api/v1/projects/{project_id}/scenarios/"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    login_url = f"{impatient_server.base}/accounts/login/"
    form = call(browser, "GET", login_url).text()
    csrf_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
    username, password = demo_credentials(data_dir)

    holder = sqlite3.connect(data_dir / "compute-planner.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer that keeps the lock
    try:
        created = slow("POST", path, {"name": "Never saved", "inputs": before[0]["inputs"]})
        signed_in = call(
            browser,
            "POST",
            login_url,
            body=urlencode(
                {"csrfmiddlewaretoken": csrf_token, "username": username, "password": password}
            ).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Referer": login_url},
        )
    finally:
        holder.rollback()
        holder.close()

    assert created.status == 503
    assert int(created.headers["Retry-After"]) > 0
    assert created.json() == {
        "detail": "The database is busy; nothing was saved. Try again in a few seconds."
    }
    assert signed_in.status == 503
    assert int(signed_in.headers["Retry-After"]) > 0
    page = signed_in.text()
    assert "<h1>Busy for a moment</h1>" in page and "nothing was saved" in page
    assert 'class="brand"' in page  # in the app's layout
    assert "Traceback" not in page and "OperationalError" not in page

    after = slow("GET", path).json()
    assert [scenario["name"] for scenario in after] == [scenario["name"] for scenario in before]
    # Once the lock is free the same request goes through.
    again = slow("POST", path, {"name": "Saved on retry", "inputs": before[0]["inputs"]})
    assert again.status == 201
