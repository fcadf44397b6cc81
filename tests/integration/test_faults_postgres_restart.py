"""PostgreSQL really restarted (`pg_ctl restart`, fast and immediate) under a live gunicorn: the
requests under way answer 200 or a plain 503, and every request after the restart succeeds,
because the app checks a kept connection before reusing it (CONN_HEALTH_CHECKS, with
CONN_MAX_AGE keeping connections between requests as in production).

The shared server on 5432 is never restarted: the test starts a throwaway cluster of its own
(initdb into a temporary directory, as the `postgres` user when run as root) on a free port, and
serves the embedded setup's steps (migrate, catalogues, demo account) from it. It needs only the
PostgreSQL server binaries, so it runs on the SQLite suite too; in CI a missing one fails it
(tests/conftest.py).
"""

import glob
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest

from tests.servers import (
    Answer,
    Api,
    Server,
    call,
    demo_credentials,
    embedded_env,
    embedded_setup,
    free_port,
)

# Requests that read the database: an estimate and a list through the API (token looked up),
# and a signed-in page (session and user looked up), a round each.
ROUNDS_AFTER_RESTART = 10


class Cluster:
    """A PostgreSQL cluster of this test's own, on 127.0.0.1:<port>, trusting local users."""

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin_dir, self.root = bin_dir, root
        self.data, self.log = root / "data", root / "postgresql.log"
        self.port = free_port()
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        options = f"-p {self.port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.pg_ctl("start", "-o", options)
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "cp")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/cp"

    def connections_of_others(self) -> int:
        """How many connections to the app's database are open now, besides this question's."""
        with psycopg.connect(self.url) as connection:
            return connection.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()[0]

    def run(self, program: str, *args: str) -> None:
        # initdb refuses to run as root: the cluster belongs to the `postgres` user then.
        as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        command = [*as_owner, str(self.bin_dir / program), *args]
        done = subprocess.run(command, cwd=self.root, capture_output=True, text=True, check=False)
        assert done.returncode == 0, f"{program} {args}: {done.stdout}{done.stderr}"

    def pg_ctl(self, action: str, *args: str) -> None:
        """`pg_ctl <action>`, waiting until the server is up (or down) again."""
        self.run("pg_ctl", action, "-D", str(self.data), "-l", str(self.log), "-w", *args)

    def restart(self, mode: str) -> None:
        self.pg_ctl("restart", "-m", mode)


def postgresql_bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)")
    return Path(found[-1]).parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    bin_dir = postgresql_bin_dir()
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("needs the `postgres` user to own a cluster when run as root")
    root = Path(tempfile.mkdtemp(prefix="cp-pg-restart-"))
    if os.geteuid() == 0:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    try:
        cluster = Cluster(bin_dir, root)
        yield cluster
        cluster.pg_ctl("stop", "-m", "immediate")
    finally:
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class Clients:
    server: Server
    api: Api
    browser: urllib.request.OpenerDirector
    scenario_id: int

    def round(self) -> list[Answer]:
        """One of each request; the page is a signed-in scenario page."""
        scenario = f"/scenarios/{self.scenario_id}/"
        return [
            self.api("GET", f"/api/v1/scenarios/{self.scenario_id}/estimate/"),
            self.api("GET", "/api/v1/projects/"),
            call(self.browser, "GET", self.server.base + scenario),
        ]


@pytest.fixture(scope="module")
def clients(cluster, tmp_path_factory) -> Iterator[Clients]:
    """gunicorn on the cluster with the production defaults for connections (kept up to
    CONN_MAX_AGE, health-checked), signed in through the API and through the sign-in page."""
    data_dir = tmp_path_factory.mktemp("pg-restart")
    env = embedded_env(data_dir, DATABASE_URL=cluster.url)
    embedded_setup(data_dir, env)
    server = Server.gunicorn(env, data_dir / "server.log")
    try:
        username, password = demo_credentials(data_dir)
        api = Api(server.base).sign_in(username, password)
        project = api("GET", "/api/v1/projects/").json()[0]
        scenario = api("GET", f"/api/v1/projects/{project['id']}/scenarios/").json()[0]
        yield Clients(server, api, sign_in(server, username, password), scenario["id"])
    finally:
        server.stop()


def sign_in(server: Server, username: str, password: str) -> urllib.request.OpenerDirector:
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    url = f"{server.base}/accounts/login/"
    token = re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', call(browser, "GET", url).text()
    )
    fields = {"csrfmiddlewaretoken": token[1], "username": username, "password": password}
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Referer": url}
    answer = call(browser, "POST", url, body=urlencode(fields).encode(), headers=headers)
    assert answer.status == 200 and "Sign out" in answer.text()
    return browser


def assert_no_traceback(answers: list[Answer]) -> None:
    for answer in answers:
        body = answer.body.decode(errors="replace")
        assert "Traceback" not in body and "OperationalError" not in body, body[:2000]


def assert_all_succeed_afterwards(clients: Clients) -> None:
    answers = [answer for _ in range(ROUNDS_AFTER_RESTART) for answer in clients.round()]
    assert [answer.status for answer in answers] == [200] * 3 * ROUNDS_AFTER_RESTART, [
        (answer.status, answer.body[:300]) for answer in answers if answer.status != 200
    ]
    assert_no_traceback(answers)


def server_errors_logged(server: Server) -> list[str]:
    return [r["message"] for r in server.records() if r["message"].startswith("Internal Server")]


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_after_postgresql_restarts_while_idle_the_next_requests_succeed(clients, cluster, mode):
    """Every worker holds a connection from before the restart: each finds it dead before use
    and opens a new one (without CONN_HEALTH_CHECKS the first request of each would fail)."""
    for _ in range(6):  # the workers that served keep their connections
        assert {answer.status for answer in clients.round()} == {200}
    # Kept between requests (CONN_MAX_AGE; 0 without it). Sequential requests may all reach the
    # same gunicorn worker, so one kept connection is what can be counted on.
    assert cluster.connections_of_others() >= 1

    cluster.restart(mode)

    assert_all_succeed_afterwards(clients)
    assert not server_errors_logged(clients.server)


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_postgresql_restarted_under_requests_answers_200_or_503_then_all_succeed(
    clients, cluster, mode
):
    statuses: Counter[int] = Counter()
    answers: list[Answer] = []
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            done = clients.round()
            statuses.update(answer.status for answer in done)
            answers.extend(done)

    threads = [threading.Thread(target=keep_asking) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        while statuses.total() < 24:
            stop.wait(0.05)
        cluster.restart(mode)
        seen = statuses.total()
        while statuses.total() < seen + 24:
            stop.wait(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join()

    assert set(statuses) <= {200, 503}, statuses
    assert_no_traceback(answers)
    for answer in answers:
        if answer.status == 503:
            assert int(answer.headers["Retry-After"]) > 0
    assert_all_succeed_afterwards(clients)
    assert not server_errors_logged(clients.server)
