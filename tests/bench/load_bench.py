"""The load benchmark of `make bench`: 32 simulated users at once against two setups.

Managers open a scenario, type into its live preview (the HTMX preview endpoint, one request per
pause in typing), save it (the page's form with its version, or the API with If-Match) and now
and then add a scenario or a cost line (the budget's API; a new version of the scenario too); front offices open the review queue and review pages; boards open share
links; integrators call the estimate API. Two managers edit each scenario, so saves collide and
some are refused (409 on the page, 412 in the API), as they must be.

Each setup runs for DURATION_SECONDS or MAX_REQUESTS requests, whichever comes first, on
loopback only (each user from a loopback address of its own, 127.0.0.10 on, so that limits per
client address count each person, as they would):

- gunicorn (the production image's 3 sync workers) + PostgreSQL + Redis: the database named by
  BENCH_DATABASE_URL and the Redis database named by BENCH_REDIS_URL, both emptied first (never
  DATABASE_URL or REDIS_URL, which may hold real data); skipped when they are not set.
- `make run`'s default: Django's runserver (what `make run` starts: one process, a thread per
  request) on a throwaway SQLite file, the embedded default a small team would use.

After each run the saved versions, scenarios and cost lines are counted against the writes that were
answered 2xx: none may be lost or doubled. Targets on gunicorn + PostgreSQL: no server error,
p95 under 250 ms for pages and for the API. Prints a table and writes bench-results/load.json,
with the app's CPU time per request and the machine's load average: on a shared machine the
latencies grow with what else runs, the CPU time per request much less.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.common import PYTHON, say  # noqa: E402
from tests.bench.http_bench import (  # noqa: E402
    Server,
    _free_port,
    _server_env,
    gunicorn_command,
)
from tests.bench.load_users import USERS, Sample, User, simulate, warm_up  # noqa: E402

DURATION_SECONDS = 60.0
MAX_REQUESTS = 15_000
GUNICORN_WORKERS = 3  # as the Dockerfile runs it
TARGET_P95_MS = 250.0
RESULTS = ROOT / "bench-results" / "load.json"


def _shell(env: dict[str, str], code: str) -> str:
    completed = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"manage.py shell failed:\n{completed.stderr[-3000:]}")
    return completed.stdout.strip().splitlines()[-1]


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    if not ordered:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0}
    pick = lambda p: ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1e3  # noqa: E731
    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99)}


def _writes_check(users: list[User], seeded: dict, stored: dict) -> dict:
    """Saved versions, scenarios and cost lines against the writes answered 2xx: lost and
    doubled ones. A cost line saved is a version of its scenario too."""
    answered: Counter = sum((u.writes for u in users), Counter())
    lost = doubled = gaps = 0
    for target in {t["scenario"]: t for t in seeded["edited"]}.values():
        saved = stored["scenarios"][str(target["scenario"])]
        sid = target["scenario"]
        # Version 1 was the seed's; every save and every cost line added made one more.
        expected = 1 + answered["scenario", sid] + answered["cost line", sid]
        lost += max(0, expected - saved["version"])
        doubled += max(0, saved["version"] - expected)
        gaps += saved["version_numbers"] != list(range(1, saved["version"] + 1))
        lines_expected = answered["cost line", sid]  # the seed's scenarios have none
        lost += max(0, lines_expected - saved["cost_lines"])
        doubled += max(0, saved["cost_lines"] - lines_expected)
    for project, count in stored["projects"].items():
        expected = seeded["scenarios_per_project"] + answered["project", int(project)]
        lost += max(0, expected - count)
        doubled += max(0, count - expected)
    return {
        "writes_answered_2xx": sum(answered.values()),
        "cost_lines_answered_201": sum(
            n for (what, _), n in answered.items() if what == "cost line"
        ),
        "writes_unanswered": sum(u.unanswered_writes for u in users),
        "lost": lost,
        "doubled": doubled,
        "scenarios_whose_versions_are_not_1_to_n": gaps,
    }


def _report(name: str, users: list[User], elapsed: float, writes: dict) -> dict:
    samples = [s for u in users for s in u.samples]
    by_label: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_label[sample.label].append(sample)
    answered = [s for s in samples if s.status is not None]
    return {
        "setup": name,
        "seconds": elapsed,
        "requests": len(samples),
        "requests_per_second": len(samples) / elapsed,
        "latency_ms": _percentiles([s.seconds for s in answered]),
        "latency_ms_pages": _percentiles([s.seconds for s in answered if s.kind == "page"]),
        "latency_ms_api": _percentiles([s.seconds for s in answered if s.kind == "api"]),
        "server_errors": sum(1 for s in samples if s.status is None or s.status >= 500),
        "unexpected_statuses": sum(1 for s in answered if s.status < 500 and not s.expected),
        "statuses": dict(Counter(str(s.status) for s in samples)),
        "steps": {
            label: {
                "requests": len(group),
                "statuses": dict(Counter(str(s.status) for s in group)),
                "latency_ms": _percentiles([s.seconds for s in group if s.status is not None]),
            }
            for label, group in sorted(by_label.items())
        },
        "writes": writes,
    }


def run_setup(
    name: str, env: dict[str, str], data_dir: str, runserver: bool, args: argparse.Namespace
) -> dict:
    started = time.perf_counter()
    # BENCH_DATABASE_URL names a database the bench may empty; the SQLite file is new anyway.
    seeded = json.loads(_shell(env, "from tests.bench.load_data import seed; seed(empty=True)"))
    say(f"  {name}: database ready in {time.perf_counter() - started:.1f} s")
    port = _free_port()
    log = os.path.join(data_dir, f"{'runserver' if runserver else 'gunicorn'}.log")
    if runserver:
        command = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        server = Server(env, port, log, command=command, workers=0)
    else:
        command = gunicorn_command(port, GUNICORN_WORKERS)
        if args.threads > 1:  # gunicorn's gthread worker: requests in threads of each worker
            command += ["--threads", str(args.threads)]
        server = Server(env, port, log, command=command, workers=GUNICORN_WORKERS)
    try:
        server.wait_ready(timeout=60)
        warm_up(port, seeded)
        load_before = os.getloadavg()[0]
        cpu_before, _ = server.cpu_seconds()
        users, elapsed = simulate(port, seeded, args.seed, (args.seconds, args.requests))
        server_cpu = server.cpu_seconds()[0] - cpu_before
    finally:
        server.stop()
    edited = json.dumps([{k: t[k] for k in ("project", "scenario")} for t in seeded["edited"]])
    stored = json.loads(_shell(env, f"from tests.bench.load_data import saved; saved({edited!r})"))
    report = _report(name, users, elapsed, _writes_check(users, seeded, stored))
    report["server_log_tracebacks"] = Path(log).read_text(errors="replace").count("Traceback")
    report["load_average"] = {"before": load_before, "after": os.getloadavg()[0]}
    # The app's processes only (PostgreSQL's and Redis's are not counted).
    report["server_cpu_ms_per_request"] = server_cpu / max(report["requests"], 1) * 1e3
    return report


def _row(report: dict) -> str:
    pages, api, writes = report["latency_ms_pages"], report["latency_ms_api"], report["writes"]
    return (
        f"| {report['setup']} | {report['requests']:,} | {report['requests_per_second']:.1f} |"
        f" {report['latency_ms']['p50']:.0f} / {report['latency_ms']['p95']:.0f} /"
        f" {report['latency_ms']['p99']:.0f} | {pages['p95']:.0f} | {api['p95']:.0f} |"
        f" {report['server_errors']} | {report['unexpected_statuses']} |"
        f" {writes['writes_answered_2xx']} ({writes['cost_lines_answered_201']}) |"
        f" {writes['lost']} / {writes['doubled']} |"
        f" {report['server_cpu_ms_per_request']:.0f} | {report['load_average']['before']:.1f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--seed", type=int, default=15, help="the simulated users' randomness")
    parser.add_argument("--seconds", type=float, default=DURATION_SECONDS, help="run time a setup")
    parser.add_argument("--requests", type=int, default=MAX_REQUESTS, help="requests a setup")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads a gunicorn worker (1: sync, as the image)"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still stop the servers
    say(
        f"== Load: {sum(USERS.values())} simulated users ({', '.join(f'{v} {k}s' for k, v in USERS.items())})"
        f" for {args.seconds:g} s or {args.requests:,} requests, loopback only =="
    )
    reports = []
    database, redis = os.environ.get("BENCH_DATABASE_URL"), os.environ.get("BENCH_REDIS_URL")
    with tempfile.TemporaryDirectory(prefix="compute-planner-load-") as data_dir:
        if database and redis:
            env = _server_env(data_dir) | {"DATABASE_URL": database, "REDIS_URL": redis}
            reports.append(
                run_setup(
                    f"gunicorn ({GUNICORN_WORKERS} workers"
                    f"{f' x {args.threads} threads' if args.threads > 1 else ''}) + PostgreSQL + Redis",
                    env,
                    data_dir,
                    False,
                    args,
                )
            )
        else:
            say(
                "  gunicorn + PostgreSQL + Redis: skipped; set BENCH_DATABASE_URL (a PostgreSQL"
                " database the bench empties) and BENCH_REDIS_URL (a Redis database it clears)"
            )
        sqlite_dir = os.path.join(data_dir, "sqlite")
        os.mkdir(sqlite_dir)
        env = _server_env(sqlite_dir)
        os.mkdir(env["STATIC_ROOT"])
        reports.append(run_setup("runserver + SQLite (`make run`)", env, sqlite_dir, True, args))
    say()
    say(
        "| setup | requests | req/s | latency p50 / p95 / p99 (ms) | pages p95 | API p95 |"
        " server errors | unexpected 4xx | writes 2xx (cost lines) | lost / doubled | app CPU ms/req |"
        " load average |"
    )
    say("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for report in reports:
        say(_row(report))
    for report in reports:
        say(f"  {report['setup']}: statuses {report['statuses']}")
        if report["writes"]["writes_unanswered"]:
            say(f"    {report['writes']['writes_unanswered']} writes got no answer")
        if report["server_log_tracebacks"]:
            say(f"    {report['server_log_tracebacks']} tracebacks in the server's log")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(reports, indent=2) + "\n")
    say(f"  report written to {RESULTS.relative_to(ROOT)}")

    correct = all(r["writes"]["lost"] == r["writes"]["doubled"] == 0 for r in reports)
    production = [r for r in reports if r["setup"].startswith("gunicorn")]
    targets_met = bool(production) and all(
        r["server_errors"] == 0
        and r["latency_ms_pages"]["p95"] < TARGET_P95_MS
        and r["latency_ms_api"]["p95"] < TARGET_P95_MS
        for r in production
    )
    say(
        f"  targets on gunicorn + PostgreSQL (no server error, p95 < {TARGET_P95_MS:g} ms):"
        f" {'not run' if not production else 'PASS' if targets_met else 'MISS'};"
        f" no write lost or doubled: {'yes' if correct else 'NO'}"
    )
    if not correct:
        return 1
    return 1 if args.strict and not targets_met else 0


if __name__ == "__main__":
    sys.exit(main())
