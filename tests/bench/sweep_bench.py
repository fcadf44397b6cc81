"""`make bench`, part 3: a 1,000,000-point sweep end to end on two Celery worker processes.

Creates a throwaway PostgreSQL database (DATABASE_URL names the server and an account that may
create databases; default postgres://postgres@127.0.0.1:5432/postgres), migrates it and loads the
catalogue; starts two workers (`celery -A config worker --pool=prefork --concurrency=1`) on a
queue of their own on Redis (CELERY_BROKER_URL, default redis://127.0.0.1:6379/14); then times
submit (POST /api/v1/scenarios/{id}/sweeps/) → every chunk stored → the summary read (GET
…/summary/), and reports points per second, the CPU seconds of the workers, of this process and
of PostgreSQL for the workers while timed, and each worker's peak memory (VmHWM of its
processes, from /proc). Sampled points are recomputed in-process to check the stored figures.
Everything is stopped and dropped afterwards.

Targets: under 1.5 s end to end (issue 20), under 1 GiB per worker. `--strict` turns a missed
target into exit status 1; a wrong result always is.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "bench-results" / "sweep-latest.json"
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_BROKER = "redis://127.0.0.1:6379/14"
TARGET_SECONDS = 1.5
TARGET_WORKER_BYTES = 1024**3
WORKERS = 2
SAMPLED_POINTS = 300
# 1,000 demand levels × 200 MFU values × 5 accelerators = 1,000,000 points.
DEFINITION = {
    "inputs": [
        {"field": "inference.requests_per_month", "kind": "log", "start": 1e3, "stop": 1e8, "steps": 1000},
        {"field": "training.mfu", "kind": "linear", "start": 0.2, "stop": 0.6, "steps": 200},
    ],
    "accelerators": [
        "nvidia-h100-sxm", "nvidia-a100-sxm-80gb", "google-tpu-v6e", "nvidia-l4", "amd-mi300x",
    ],
}  # fmt: skip


def say(text: str = "") -> None:
    print(text, flush=True)


def database_urls(server: str) -> tuple[str, str]:
    """(the server's maintenance database, a new throwaway database on the same server)."""
    parts = urlsplit(server)
    name = f"compute_planner_sweep_bench_{os.getpid()}"
    return urlunsplit(parts._replace(path="/postgres")), urlunsplit(parts._replace(path=f"/{name}"))


def admin(maintenance_url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(statement)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (from /proc)."""
    # After the command's closing parenthesis: state, …, utime and stime (fields 14 and 15).
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_backends_cpu_seconds() -> float | None:
    """CPU seconds of the PostgreSQL backends connected to this database but this process's own:
    the workers' connections, opened by their first chunk (0 where a worker closes its connection
    after each task); None where the server's processes cannot be read (another machine)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        pids = [pid for (pid,) in cursor.fetchall()]
    try:
        return sum(cpu_seconds(pid) for pid in pids)
    except OSError:
        return None


class Worker:
    def __init__(self, number: int, queue: str, env: dict, log_dir: Path) -> None:
        self.log_path = log_dir / f"worker-{number}.log"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork"]
        command += ["--concurrency=1", "-Q", queue, "-n", f"bench-{number}-{queue}@%h"]
        command += ["--without-gossip", "--without-mingle", "--loglevel=WARNING"]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def processes(self) -> list[int]:
        """The main process and its pool child(ren)."""
        pids = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            pids += [int(pid) for pid in children.read_text().split()]
        return pids

    def peak_bytes(self) -> dict[int, int]:
        """VmHWM (peak resident memory) of each of the worker's processes, in bytes."""
        peaks = {}
        for pid in self.processes():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[pid] = int(line.split()[1]) * 1024
        return peaks

    def cpu_seconds(self) -> float:
        """User and system CPU seconds of the worker's processes so far."""
        return sum(cpu_seconds(pid) for pid in self.processes())

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"worker exited:\n{self.log_path.read_text()[-3000:]}")
        return len(self.processes()) > 1  # the pool child is forked once the worker is up

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def check_points(sweep, count: int) -> list[str]:
    """Recompute sampled points one by one, in-process, and compare with the stored figures."""
    import copy

    from apps.catalogue.resolve import estimate_input_from_request
    from apps.catalogue.snapshot import Catalogue
    from apps.estimates import evaluate
    from apps.sweeps.selectors import sweep_rows

    catalogue, problems = Catalogue.load(), []
    sections = sweep.definition["accelerator_sections"]
    for index in random.Random(20_251_130).sample(range(sweep.total_points), count):
        (row,) = sweep_rows(sweep, index, index + 1)
        request = copy.deepcopy(sweep.base_inputs)
        for path, value in row.inputs.items():
            if path == "accelerator":
                for section in sections:
                    request[section]["accelerator"] = value
            else:
                section, name = path.split(".")
                request[section][name] = value
        figures = evaluate(estimate_input_from_request(request, catalogue)[0])
        expected = figures.training_cost + figures.inference_cost
        if row.figures["total_cost"] != expected or (
            row.figures["inference_latency_seconds"] != figures.inference_latency_seconds
        ):
            problems.append(f"point {index}: stored {row.figures['total_cost']}, engine {expected}")
    return problems


def run(points_check: int) -> dict:
    server = os.environ.get("DATABASE_URL", DEFAULT_SERVER)
    broker = os.environ.get("CELERY_BROKER_URL", DEFAULT_BROKER)
    maintenance, database = database_urls(server)
    queue = f"sweep-bench-{uuid.uuid4().hex[:8]}"
    say(f"  throwaway database {urlsplit(database).path[1:]} on {urlsplit(server).hostname};")
    say(f"  broker {broker}, queue {queue}")
    admin(maintenance, f'CREATE DATABASE "{urlsplit(database).path[1:]}"')
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "CELERY_BROKER_URL": broker,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "COMPUTE_PLANNER_ENV": "local",
        "API_USER_RATE": "1000000/minute",
    }
    env.pop("REDIS_URL", None)  # each process keeps its own cache: nothing shared to clean up
    os.environ.update(env)
    os.environ.pop("REDIS_URL", None)
    workers: list[Worker] = []
    log_dir = Path(tempfile.mkdtemp(prefix="sweep-bench-"))
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from django.core.management import call_command
        from django.db import connections
        from django.test import Client

        from apps.catalogue.loading import catalogue_load
        from apps.projects.models import Project
        from apps.projects.presets import PRESETS_BY_SLUG
        from apps.projects.roles import MANAGER
        from apps.sweeps.models import Sweep, SweepChunk
        from config.celery import app as celery_app

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        catalogue_load()
        say(f"  migrated and catalogue loaded in {time.perf_counter() - started:.1f} s")
        celery_app.conf.task_default_queue = queue

        started = time.perf_counter()
        workers = [Worker(number, queue, env, log_dir) for number in range(1, WORKERS + 1)]
        while not all(worker.ready() for worker in workers):
            time.sleep(0.05)
        time.sleep(1.0)  # the pool children connect to the broker
        say(
            f"  {WORKERS} workers up in {time.perf_counter() - started:.1f} s (pids "
            + ", ".join("+".join(map(str, w.processes())) for w in workers)
            + ")"
        )

        user = get_user_model().objects.create_user("bench", password=uuid.uuid4().hex)
        user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
        project = Project.objects.create(owner=user, title="Sweep bench")
        scenario = project.scenarios.create(
            name="Fine-tune", inputs=PRESETS_BY_SLUG["fine-tune-7b"].inputs, is_baseline=True
        )
        client = Client()
        client.force_login(user)
        # A running web server has its views imported, its URLs, number formats and catalogue
        # loaded (it has shown the scenario's page) and its broker connection open already: warm
        # this process up the same way, so that the time measures the sweep.
        client.get(f"/api/v1/scenarios/{scenario.pk}/sweeps/")
        page = client.get(scenario.get_absolute_url())
        if page.status_code != 200:
            raise RuntimeError(f"the scenario's page answered {page.status_code}")
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=3)

        cpu_before = [worker.cpu_seconds() for worker in workers]
        own_cpu_before = time.process_time()
        started = time.perf_counter()
        response = client.post(
            f"/api/v1/scenarios/{scenario.pk}/sweeps/", DEFINITION, content_type="application/json"
        )
        submitted = time.perf_counter()
        if response.status_code != 201:
            raise RuntimeError(f"submit answered {response.status_code}: {response.content[:500]}")
        progress = Sweep.objects.filter(pk=response.json()["id"]).values_list(
            "status", "chunks_done"
        )
        first_chunk = None
        # Two columns, not the whole row: the polling takes the processors the workers need.
        while (state := progress.get())[0] in Sweep.ACTIVE:
            if first_chunk is None and state[1]:
                first_chunk = time.perf_counter()
            time.sleep(0.02)
        stored = time.perf_counter()
        sweep = Sweep.objects.get(pk=response.json()["id"])
        summary = client.get(f"/api/v1/sweeps/{sweep.pk}/summary/")
        finished = time.perf_counter()
        own_cpu = time.process_time() - own_cpu_before
        database_cpu = database_backends_cpu_seconds()
        workers_cpu = [
            w.cpu_seconds() - before for w, before in zip(workers, cpu_before, strict=True)
        ]
        if sweep.status != "completed" or summary.status_code != 200:
            raise RuntimeError(
                f"sweep {sweep.status} ({sweep.error}); summary {summary.status_code}"
            )
        peaks = [worker.peak_bytes() for worker in workers]
        chunks = SweepChunk.objects.filter(sweep=sweep)
        stored_bytes = sum(len(blob) for blob in chunks.values_list("results", flat=True))
        cheapest = summary.json()["rankings"]["cheapest"][0]
        problems = check_points(sweep, points_check)
        counts_ok = (sweep.chunks_done, sweep.points_done, chunks.count()) == (
            sweep.total_chunks,
            sweep.total_points,
            sweep.total_chunks,
        )
        connections.close_all()
        return {
            "points": sweep.total_points,
            "chunks": sweep.total_chunks,
            "chunk_size": sweep.chunk_size,
            "workers": WORKERS,
            "submit_seconds": submitted - started,
            "first_chunk_seconds": (first_chunk or stored) - started,
            "all_stored_seconds": stored - started,
            "summary_seconds": finished - stored,
            "end_to_end_seconds": finished - started,
            "points_per_second": sweep.total_points / (finished - started),
            # Where the time went: the workers' CPU (the chunks) and this process's (submit,
            # waiting, summary); PostgreSQL and Redis use the same processors.
            "worker_cpu_seconds": workers_cpu,
            "submitting_process_cpu_seconds": own_cpu,
            "workers_database_backends_cpu_seconds": database_cpu,
            "worker_peak_bytes": [
                {
                    "processes": {str(pid): peak for pid, peak in p.items()},
                    "largest": max(p.values()),
                }
                for p in peaks
            ],
            "stored_bytes": stored_bytes,
            "cheapest": cheapest,
            "counts_ok": counts_ok,
            "sampled_points": points_check,
            "mismatches": problems[:5],
            "correct": counts_ok and not problems,
        }
    except Exception:
        for worker in workers:
            say(f"  {worker.log_path.name}:\n{worker.log_path.read_text(errors='replace')[-2000:]}")
        raise
    finally:
        for worker in workers:
            worker.stop()
        shutil.rmtree(log_dir, ignore_errors=True)
        try:
            from tests.broker import delete_queue

            delete_queue(queue)
        except Exception as error:  # a cleanup problem must not hide the result
            say(f"  (could not delete queue {queue}: {error})")
        admin(maintenance, f'DROP DATABASE IF EXISTS "{urlsplit(database).path[1:]}" WITH (FORCE)')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    load = os.getloadavg()[0]
    say(
        f"== Sweep: 1,000,000 points end to end on {WORKERS} Celery workers, {os.cpu_count()} CPUs,"
        f" load average {load:.2f} =="
    )
    try:
        result = run(SAMPLED_POINTS)
    except Exception as error:
        say(f"  FAILED: {type(error).__name__}: {error}")
        return 1
    fast = result["end_to_end_seconds"] < TARGET_SECONDS
    small = all(w["largest"] < TARGET_WORKER_BYTES for w in result["worker_peak_bytes"])
    say(
        f"  submit {result['submit_seconds']:.2f} s; first chunk stored after"
        f" {result['first_chunk_seconds']:.2f} s; all {result['chunks']} chunks of"
        f" {result['chunk_size']:,} stored after {result['all_stored_seconds']:.2f} s; summary"
        f" read in {result['summary_seconds']:.2f} s; {result['stored_bytes'] / 1e6:.0f} MB stored"
    )
    say(
        f"  end to end {result['end_to_end_seconds']:.2f} s,"
        f" {result['points_per_second']:,.0f} points/s"
        f"   [target < {TARGET_SECONDS:g} s: {'PASS' if fast else 'MISS'}]"
    )
    say(
        "  CPU while timed: workers "
        + ", ".join(f"{seconds:.2f} s" for seconds in result["worker_cpu_seconds"])
        + f"; this process (submit, polling, summary) {result['submitting_process_cpu_seconds']:.2f} s"
        + (
            ""
            if result["workers_database_backends_cpu_seconds"] is None
            else "; PostgreSQL for the workers' open connections"
            f" {result['workers_database_backends_cpu_seconds']:.2f} s"
        )
    )
    for number, worker in enumerate(result["worker_peak_bytes"], start=1):
        processes = ", ".join(
            f"pid {pid} {peak / 2**20:,.0f} MiB" for pid, peak in worker["processes"].items()
        )
        say(
            f"  worker {number} peak memory {worker['largest'] / 2**20:,.0f} MiB ({processes})"
            f"   [target < 1 GiB: {'PASS' if worker['largest'] < TARGET_WORKER_BYTES else 'MISS'}]"
        )
    say(
        f"  results correct: {'yes' if result['correct'] else 'NO'} (counts; {SAMPLED_POINTS}"
        f" sampled points recomputed one by one) {' '.join(result['mismatches'])}"
    )
    RESULTS.parent.mkdir(exist_ok=True)
    report = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "load_average": load}
    RESULTS.write_text(json.dumps({**report, **result}, indent=2) + "\n")
    if not result["correct"]:
        return 1
    return 1 if args.strict and not (fast and small) else 0


if __name__ == "__main__":
    sys.exit(main())
