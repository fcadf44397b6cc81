"""The embedded default (`make run`: runserver on a SQLite file) under concurrent writers, with real
threads against a real server process: racing saves of one scenario give one 200 and 412s, racing
creations all succeed, and a write that cannot get the lock in time answers 503 with Retry-After
and leaves nothing behind. Whatever database the rest of the suite uses, these run on SQLite.
"""

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings

READY_SECONDS = 60
# Settings of the outer environment that would point the server away from the embedded default.
NOT_EMBEDDED = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "COMPUTE_PLANNER_ENV")


def embedded_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in NOT_EMBEDDED}
    return {**env, "DATA_DIR": str(data_dir), **extra}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`manage.py runserver` (threaded, as `make run` serves) on the SQLite file in `data_dir`."""

    def __init__(self, data_dir: Path, log: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        with open(log, "ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"],
                cwd=settings.BASE_DIR,
                env=embedded_env(data_dir, **env),
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"The server did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Answer:
    def __init__(self, status: int, headers, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def call(
    opener: urllib.request.OpenerDirector,
    method: str,
    url: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with opener.open(request, timeout=120) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


class Api:
    """API calls with a personal token, as an integrator makes them."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.opener = urllib.request.build_opener()

    def __call__(self, method: str, path: str, data=None, **headers: str) -> Answer:
        sent = {"Authorization": f"Bearer {self.token}", **headers}
        body = None
        if data is not None:
            body, sent["Content-Type"] = json.dumps(data).encode(), "application/json"
        return call(self.opener, method, self.base + path, body=body, headers=sent)


def at_once(count: int, send) -> list[Answer]:
    """`send(i)` from `count` threads released together; their answers in order."""
    start = threading.Barrier(count)
    answers: list[Answer | None] = [None] * count

    def run(i: int) -> None:
        start.wait()
        answers[i] = send(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A fresh embedded setup, as `make run` makes it: migrated, catalogue, demo account."""
    directory = tmp_path_factory.mktemp("embedded")
    subprocess.run(
        [sys.executable, "manage.py", "setup_local"],
        cwd=settings.BASE_DIR,
        env=embedded_env(directory),
        check=True,
        capture_output=True,
    )
    return directory


def demo_credentials(data_dir: Path) -> tuple[str, str]:
    """The demo account that setup_local wrote down: username, then password, a line each."""
    username, password = (data_dir / "demo-login.txt").read_text().split()
    return username, password


@pytest.fixture(scope="module")
def server(data_dir) -> Iterator[Server]:
    running = Server(data_dir, data_dir / "server.log")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server, data_dir) -> Api:
    username, password = demo_credentials(data_dir)
    answer = call(
        urllib.request.build_opener(),
        "POST",
        f"{server.base}/api/v1/auth/token/",
        body=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 201, answer.body
    return Api(server.base, answer.json()["token"])


def demo_scenarios(api: Api) -> tuple[int, list[dict]]:
    projects = api("GET", "/api/v1/projects/").json()
    project_id = projects[0]["id"]
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
    running = Server(data_dir, tmp_path / "server.log", SQLITE_TIMEOUT_SECONDS="1")
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
    form = call(browser, "GET", login_url).body.decode()
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
    page = signed_in.body.decode()
    assert "<h1>Busy for a moment</h1>" in page and "nothing was saved" in page
    assert 'class="brand"' in page  # in the app's layout
    assert "Traceback" not in page and "OperationalError" not in page

    after = slow("GET", path).json()
    assert [scenario["name"] for scenario in after] == [scenario["name"] for scenario in before]
    # Once the lock is free the same request goes through.
    again = slow("POST", path, {"name": "Saved on retry", "inputs": before[0]["inputs"]})
    assert again.status == 201
