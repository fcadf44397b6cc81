"""Racing edits of one cost line, with real threads against real server processes: 20 PATCHes
sent with the same If-Match give exactly one 200 and 19 412s, and the line holds the winner's
change: nothing is silently lost. On the embedded default (runserver on a SQLite file) and on
gunicorn over PostgreSQL (the test database; CI runs the suite there)."""

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from apps.accounts.services import api_token_create
from apps.projects.presets import PRESETS_BY_SLUG
from tests.factories import make_manager, make_project, make_scenario
from tests.servers import (
    Api,
    Server,
    at_once,
    database_url_of_tests,
    demo_credentials,
    embedded_env,
    embedded_setup,
)

LINE = {
    "name": "Licence",
    "kind": "licence",
    "quantity": 1,
    "unit": "seat",
    "unit_price": "100.00",
    "recurrence": "monthly",
    "start": "2026-01-01",
    "category": 7,
}


@pytest.fixture
def on_sqlite(tmp_path: Path) -> Iterator[tuple[Api, int]]:
    """runserver on a fresh embedded setup, as `make run` makes it, and a scenario of the demo."""
    embedded_setup(tmp_path, embedded_env(tmp_path))
    server = Server.runserver(embedded_env(tmp_path), tmp_path / "server.log")
    api = Api(server.base).sign_in(*demo_credentials(tmp_path))
    project_id = api("GET", "/api/v1/projects/").json()[0]["id"]
    scenario_id = api("GET", f"/api/v1/projects/{project_id}/scenarios/").json()[0]["id"]
    yield api, scenario_id
    server.stop()


@pytest.fixture
def on_postgres(transactional_db, tmp_path: Path) -> Iterator[tuple[Api, int]]:
    """gunicorn on the test database, an API client with a token, and a scenario of theirs."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (CI runs it there)")
    manager = make_manager()
    scenario = make_scenario(make_project(manager), inputs=PRESETS_BY_SLUG["fine-tune-7b"].inputs)
    _, key = api_token_create(user=manager, name="races")
    env = {"DATABASE_URL": database_url_of_tests(), "DATABASE_CONN_MAX_AGE": "600"}
    server = Server.gunicorn({**embedded_env(tmp_path), **env}, tmp_path / "server.log")
    yield Api(server.base, key), scenario.pk
    server.stop()


def race_twenty_patches(api: Api, scenario_id: int) -> None:
    lines = f"/api/v1/scenarios/{scenario_id}/cost-lines/"
    created = api("POST", lines, LINE)
    assert created.status == 201, created.body
    path = f"{lines}{created.json()['id']}/"
    etag = created.headers["ETag"]

    answers = at_once(
        20, lambda i: api("PATCH", path, {"name": f"Saved by writer {i}"}, **{"If-Match": etag})
    )

    assert Counter(answer.status for answer in answers) == {200: 1, 412: 19}
    winner = next(i for i, answer in enumerate(answers) if answer.status == 200)
    assert api("GET", path).json()["name"] == f"Saved by writer {winner}"
    refused = next(answer for answer in answers if answer.status == 412).json()["detail"]
    assert refused.startswith("It has changed since you read it")


def test_racing_patches_of_one_line_on_sqlite_give_one_200_and_the_rest_412(on_sqlite):
    race_twenty_patches(*on_sqlite)


@pytest.mark.postgres
def test_racing_patches_of_one_line_on_postgresql_give_one_200_and_the_rest_412(on_postgres):
    race_twenty_patches(*on_postgres)
