"""Sweeps on real Celery worker processes (prefork, one task at a time) with the real Redis broker
and the test PostgreSQL database, never eager: the stored figures equal the engine's point for
point; a worker killed (SIGKILL) mid-sweep and replaced loses no chunk and counts none twice; a
chunk that cannot run fails the sweep with its reason.

Each run uses a queue of its own, so that nothing left on the broker by another run can reach
these workers. Without a broker or PostgreSQL (the plain local run) the tests skip; in CI, where a
skip is a failure, both are there.
"""

import contextlib
import copy
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction

from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import evaluate
from apps.projects.presets import PRESETS_BY_SLUG
from apps.sweeps import services
from apps.sweeps.models import Sweep, SweepChunk
from apps.sweeps.selectors import sweep_rows
from config.celery import app as celery_app
from tests.broker import delete_queue
from tests.factories import make_manager, make_project, make_scenario
from tests.servers import database_url_of_tests, wait_until_disconnected

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.postgres,
]

READY_SECONDS = 90
# The broker hands a killed worker's task to another after this long (see settings).
VISIBILITY_TIMEOUT_SECONDS = 2


def _needs_broker_and_postgres() -> None:
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no CELERY_BROKER_URL: sweeps run in-process here (CI runs them on workers)")
    if connection.vendor != "postgresql":
        pytest.skip("a worker process needs a database it can share: PostgreSQL (CI has it)")


class CeleryWorker:
    """`celery -A config worker` in its own process group, on one queue, logging to a file (its
    standard error; the start-up banner on standard output goes to a file of its own)."""

    def __init__(self, queue: str, log: Path) -> None:
        self.queue, self.log_path = queue, log
        self.name = f"{queue}-{uuid.uuid4().hex[:6]}@%h"
        # Its database sessions are named, so that stopping it waits until they are gone.
        self.application_name = f"worker-{uuid.uuid4().hex[:12]}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url_of_tests(self.application_name),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_SECONDS),
        }
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork"]
        command += ["--concurrency=1", "-Q", queue, "-n", self.name, "--loglevel=INFO"]
        command += ["--without-gossip", "--without-mingle"]
        with open(log, "ab") as errors, open(log.with_suffix(".stdout"), "ab") as output:
            self.process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=env,
                stdout=output,
                stderr=errors,
                start_new_session=True,  # its own process group: the pool child dies with it
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while " ready." not in self.log():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"The Celery worker did not start:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL to the main process and its pool child: no warm shutdown, no acks."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        wait_until_disconnected(self.application_name)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        wait_until_disconnected(self.application_name)


@contextlib.contextmanager
def own_queue() -> Iterator[str]:
    """A new queue, where this process sends its tasks meanwhile; deleted afterwards."""
    queue = f"sweeps-test-{uuid.uuid4().hex[:12]}"
    default = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        yield queue
    finally:
        celery_app.conf.task_default_queue = default
        delete_queue(queue)


@contextlib.contextmanager
def workers_on(queue: str, log_dir: Path) -> Iterator[Callable[[], CeleryWorker]]:
    """start() starts one more worker on the queue; all are stopped at the end."""
    workers: list[CeleryWorker] = []

    def start() -> CeleryWorker:
        workers.append(CeleryWorker(queue, log_dir / f"worker-{len(workers)}.log"))
        workers[-1].wait_ready()
        return workers[-1]

    try:
        yield start
    finally:
        for worker in workers:
            worker.stop()


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory) -> Iterator[CeleryWorker]:
    """One worker for the tests of this module that need no worker of their own."""
    _needs_broker_and_postgres()
    with own_queue() as queue, workers_on(queue, tmp_path_factory.mktemp("worker")) as start:
        yield start()


@pytest.fixture
def start_worker(tmp_path) -> Iterator[Callable[[], CeleryWorker]]:
    """Workers of the test's own, on a queue of its own."""
    _needs_broker_and_postgres()
    with own_queue() as queue, workers_on(queue, tmp_path) as start:
        yield start


@pytest.fixture
def scenario():
    """The fine-tune preset (tokens, roofline latency, two accelerators) with the catalogue."""
    manager = make_manager()
    return make_scenario(make_project(manager), inputs=PRESETS_BY_SLUG["fine-tune-7b"].inputs)


def wait_until_ended(sweep: Sweep, workers: list[CeleryWorker], seconds: float = 120) -> Sweep:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sweep.refresh_from_db()
        if not sweep.is_active:
            return sweep
        time.sleep(0.1)
    logs = "\n".join(worker.log()[-3000:] for worker in workers)
    pytest.fail(f"The sweep is still {sweep.status} ({sweep.chunks_done} chunks):\n{logs}")


def task_ids(worker: CeleryWorker, event: str) -> set[str]:
    """Ids of the chunk tasks the worker's log says were "received" or "succeeded"."""
    return set(re.findall(rf"sweep_run_chunk\[([0-9a-f-]+)\] {event}", worker.log()))


def in_flight(worker: CeleryWorker) -> set[str]:
    return task_ids(worker, "received") - task_ids(worker, "succeeded")


def request_for(base: dict, point: dict, sections: tuple[str, ...]) -> dict:
    """The estimate request of one point, built the way a person would type it."""
    request = copy.deepcopy(base)
    for path, value in point.items():
        if path == "accelerator":
            for section in sections:
                request[section]["accelerator"] = value
        elif "." in path:
            section, name = path.split(".")
            request[section][name] = value
        else:
            request[path] = value
    return request


def same(stored: float | None, computed: float) -> bool:
    return math.isnan(computed) if stored is None else stored == computed


def test_a_sweep_on_a_worker_stores_the_engines_figures_point_for_point(scenario, worker):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=None,
        definition={
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e8,
                    "steps": 11,
                },
                {"field": "training.mfu", "kind": "linear", "start": 0.2, "stop": 0.6, "steps": 5},
                {"field": "inference.months", "kind": "list", "values": [6, 12, 36]},
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-a100-sxm-80gb", "nvidia-l4"],
        },
        chunk_size=128,
    )
    sweep = wait_until_ended(sweep, [worker])
    assert sweep.status == "completed", sweep.error
    assert (sweep.total_points, sweep.total_chunks) == (3 * 11 * 5 * 3, 4)
    assert (sweep.chunks_done, sweep.points_done) == (4, 495)

    catalogue = Catalogue.load()
    sections = tuple(sweep.definition["accelerator_sections"])
    rows = sweep_rows(sweep, 0, sweep.total_points)
    assert [row.index for row in rows] == list(range(495))
    for row in rows:
        inputs, _ = estimate_input_from_request(
            request_for(scenario.inputs, row.inputs, sections), catalogue
        )
        figures = evaluate(inputs)  # one point, on floats
        for name, stored in row.figures.items():
            computed = (
                figures.training_cost + figures.inference_cost
                if name == "total_cost"
                else getattr(figures, name)
            )
            assert same(stored, computed), (row.index, name, stored, computed)


def test_a_worker_logs_one_json_object_a_line_with_the_task_and_sweep_ids(scenario, worker):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=None,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2, 1.4]}]},
        chunk_size=1,
    )
    sweep = wait_until_ended(sweep, [worker])
    assert sweep.status == "completed", sweep.error

    records = [json.loads(line) for line in worker.log().splitlines()]  # each line is JSON
    assert any(record["message"].endswith(" ready.") for record in records)
    done = [
        record
        for record in records
        if record.get("sweep_id") == sweep.pk and " succeeded in " in record["message"]
    ]
    assert len(done) == 3
    for record in done:
        assert record["level"] == "INFO" and record["logger"] == "celery.app.trace"
        assert f"sweep_run_chunk[{record['task_id']}] succeeded" in record["message"]
    assert len({record["task_id"] for record in done}) == 3


def test_a_worker_computes_chunk_after_chunk_on_one_database_connection(scenario, worker):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=None,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2, 1.4, 1.5]}]},
        chunk_size=1,
    )
    sweep = wait_until_ended(sweep, [worker])
    assert sweep.status == "completed", sweep.error
    first_stored = SweepChunk.objects.filter(sweep=sweep, index=0).get().computed_at
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        opened = [started for (started,) in cursor.fetchall()]
    # Still open after the last chunk, the connection that stored the first one (a connection a
    # task: each would have opened after the one before had stored its chunk).
    assert any(started < first_stored for started in opened), opened


def test_a_worker_killed_mid_sweep_and_replaced_loses_no_chunk_and_counts_none_twice(
    scenario, start_worker
):
    first = start_worker()
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=None,
        definition={
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e8,
                    "steps": 1000,
                },
                {
                    "field": "training.mfu",
                    "kind": "linear",
                    "start": 0.2,
                    "stop": 0.6,
                    "steps": 200,
                },
            ],
        },
        chunk_size=5_000,
    )
    assert sweep.total_chunks == 40
    deadline = time.monotonic() + 60
    while not (sweep.chunks_done >= 3 and in_flight(first)) and time.monotonic() < deadline:
        time.sleep(0.01)
        sweep.refresh_from_db()
    killed_tasks = in_flight(first)
    first.kill()
    sweep.refresh_from_db()
    assert killed_tasks, "no chunk was under way when the worker was killed"
    assert sweep.is_active and 3 <= sweep.chunks_done < sweep.total_chunks

    second = start_worker()
    sweep = wait_until_ended(sweep, [first, second])
    assert sweep.status == "completed", sweep.error
    assert (sweep.chunks_done, sweep.points_done) == (40, 200_000)
    # The chunk the first worker had taken was handed to the second one, and finished there. The
    # sweep can end first: the killed chunk may have been stored just before the kill, and its
    # message comes back only once its visibility timeout has passed.
    deadline = time.monotonic() + 10 * VISIBILITY_TIMEOUT_SECONDS
    while not killed_tasks <= task_ids(second, "succeeded") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert killed_tasks <= task_ids(second, "succeeded"), second.log()[-3000:]
    stored = list(SweepChunk.objects.filter(sweep=sweep).values_list("run", "index", "point_count"))
    assert sorted(stored) == [(1, index, 5_000) for index in range(40)]


def test_a_chunk_that_cannot_run_fails_the_sweep_with_its_reason(scenario, worker):
    with transaction.atomic():  # the chunks are queued when this commits
        sweep = services.sweep_create(
            scenario=scenario,
            created_by=None,
            definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.4]}]},
        )
        broken = {"inputs": [{"field": "pue", "kind": "list", "values": [0.5, 1.4]}]}
        Sweep.objects.filter(pk=sweep.pk).update(definition=broken)
    sweep = wait_until_ended(sweep, [worker])
    assert sweep.status == "failed"
    assert sweep.error.startswith("The sweep cannot run: PUE must be at least 1")
    assert not SweepChunk.objects.filter(sweep=sweep).exists()
