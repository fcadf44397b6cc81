"""Real server processes for the tests that need one (runserver, gunicorn), and HTTP calls to them
from real threads: `make run`'s embedded default on a SQLite file, or the test PostgreSQL."""

import atexit
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection

READY_SECONDS = 60
# Settings of the outer environment that would point a process away from the embedded default.
NOT_EMBEDDED = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "COMPUTE_PLANNER_ENV")


def embedded_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of `make run`: a SQLite file in `data_dir`, no Redis, tasks in-process."""
    env = {name: value for name, value in os.environ.items() if name not in NOT_EMBEDDED}
    return {**env, "DATA_DIR": str(data_dir), **extra}


# The settings that decide what `setup_local` writes, and where: a process given any of them
# writes elsewhere than the embedded default's SQLite file. The cache and the broker (REDIS_URL,
# CELERY_BROKER_URL) change nothing it writes.
WRITES_ELSEWHERE = ("DATABASE_URL", "COMPUTE_PLANNER_ENV")


def embedded_setup(data_dir: Path, env: dict[str, str]) -> None:
    """What `make run` does first: migrate, load the catalogue, create the demo account.

    Where the database is `make run`'s SQLite file (neither of WRITES_ELSEWHERE set)
    `setup_local` runs once in this process, in a folder of its own, and every data folder gets a
    copy of what it wrote (the SQLite database, the demo account's file): the same start, without
    migrating and loading again for each server. test_setup.py checks what `setup_local` writes
    and says on that first folder, then runs it again on a copy."""
    if any(name in env for name in WRITES_ELSEWHERE):
        _setup_local(data_dir, env)
    else:
        shutil.copytree(embedded_made().folder, data_dir, dirs_exist_ok=True)


@dataclass(frozen=True)
class EmbeddedMade:
    folder: Path
    stdout: str


@functools.cache
def embedded_made() -> EmbeddedMade:
    """A folder where `setup_local` ran with `make run`'s environment on a fresh folder (removed
    at exit), and what it printed."""
    folder = Path(tempfile.mkdtemp(prefix="embedded-setup-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return EmbeddedMade(folder, _setup_local(folder, embedded_env(folder)))


def _setup_local(data_dir: Path, env: dict[str, str]) -> str:
    """`manage.py setup_local` in `env`; what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "setup_local"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def demo_credentials(data_dir: Path) -> tuple[str, str]:
    """The demo account that setup_local wrote down: username, then password, a line each."""
    username, password = (data_dir / "demo-login.txt").read_text().split()
    return username, password


def database_url_of_tests(application_name: str = "", database: str = "") -> str:
    """The test database (or `database` on its server), for processes other than this one; its
    sessions named `application_name` in pg_stat_activity when one is given."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    named = f"?application_name={quote(application_name)}" if application_name else ""
    return f"postgres://{user}{password}@{host}{port}/{database or db['NAME']}{named}"


def wait_until_disconnected(application_name: str, timeout_seconds: float = 15) -> None:
    """Wait until PostgreSQL has no session left of a stopped process: a session outlives its
    process for a moment, and a test database with one left cannot be dropped at the end."""
    with psycopg.connect(database_url_of_tests(database="postgres"), autocommit=True) as probe:
        deadline = time.monotonic() + timeout_seconds
        while probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            (application_name,),
        ).fetchone()[0]:
            assert time.monotonic() < deadline, f"{application_name} is still connected"
            time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A server process on a free port (or `port`, where its configuration already names it),
    logging to a file; `command` gets the port."""

    def __init__(
        self, command: list[str], env: dict[str, str], log: Path, port: int | None = None
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        with open(log, "ab") as output:
            self.process = subprocess.Popen(
                [arg.format(port=self.port) for arg in command],
                cwd=settings.BASE_DIR,
                env=env,
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
                    pytest.fail(f"The server did not start:\n{self.log()[-3000:]}")
                time.sleep(0.1)

    @classmethod
    def runserver(cls, env: dict[str, str], log: Path) -> "Server":
        """`manage.py runserver`, threaded, as `make run` serves."""
        command = [sys.executable, "manage.py", "runserver", "127.0.0.1:{port}", "--noreload"]
        return cls(command, env, log)

    @classmethod
    def gunicorn(cls, env: dict[str, str], log: Path) -> "Server":
        """gunicorn with two sync workers, each keeping its database connection between requests."""
        command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", "127.0.0.1:{port}"]
        return cls([*command, "--workers", "2"], env, log)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def records(self) -> list[dict]:
        """The app's log records so far (its lines are JSON; the server's own are not all)."""
        lines = self.log().splitlines()
        return [json.loads(line) for line in lines if line.startswith('{"time"')]

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

    def text(self) -> str:
        return self.body.decode()


def call(
    opener: urllib.request.OpenerDirector,
    method: str,
    url: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One HTTP request; an error status is an answer too."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with opener.open(request, timeout=120) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


class Api:
    """API calls with a personal token, as an integrator makes them."""

    def __init__(self, base: str, token: str = "") -> None:
        self.base, self.token = base, token
        self.opener = urllib.request.build_opener()

    def __call__(self, method: str, path: str, data=None, **headers: str) -> Answer:
        sent = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        sent |= headers
        body = None
        if data is not None:
            body, sent["Content-Type"] = json.dumps(data).encode(), "application/json"
        return call(self.opener, method, self.base + path, body=body, headers=sent)

    def sign_in(self, username: str, password: str) -> "Api":
        """This client with a new token of the account (POST /api/v1/auth/token/)."""
        answer = self("POST", "/api/v1/auth/token/", {"username": username, "password": password})
        assert answer.status == 201, answer.body
        return Api(self.base, answer.json()["token"])


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
