"""The HTTP benchmark: gunicorn (2 sync workers, as in production but sized for a 2-core machine)
on a free loopback port with a throwaway SQLite database; a light load generator measures requests
per second for an empty Django view, POST /api/v1/estimate/ and a signed-in manager's scenario
page. Targets: the API at least 45 % (issue 22) and the scenario page at least 25 % of the empty
view's rate.
Run by tests/bench/run.py.
"""

import contextlib
import json
import math
import os
import selectors
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.bench.common import PYTHON, ROOT, say

TARGET_API_RATIO = 0.45
TARGET_PAGE_RATIO = 0.25

WORKERS = 2
CONCURRENCY = 4  # connections in flight: two per sync worker, so a worker never waits
WARMUP_SECONDS = 2.0
MEASURE_SECONDS = 10.0  # per endpoint, in ROUNDS alternating slices
ROUNDS = 5
API_ANON_RATE = "1000000/minute"  # throttling runs on every request but never refuses
SEED_000 = {
    "training": {
        "method": "accelerator_hours",
        "accelerator_hours": 200,
        "accelerator": "nvidia-h100-sxm",
    },
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 15000,
    },
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _server_env(data_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG"):
        env.pop(name, None)  # always the throwaway SQLite database and in-process cache
    env.update(
        DATA_DIR=data_dir,
        STATIC_ROOT=os.path.join(data_dir, "static"),
        COMPUTE_PLANNER_ENV="local",
        DJANGO_SETTINGS_MODULE="tests.bench.settings",
        API_ANON_RATE=API_ANON_RATE,
        API_USER_RATE=API_ANON_RATE,
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _manage(env: dict[str, str], *args: str) -> None:
    completed = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    if completed.returncode != 0:
        output = "\n".join((completed.stdout + completed.stderr).strip().splitlines()[-12:])
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{output}")


def throwaway_database(data_dir: str) -> dict[str, str]:
    """The server's environment (`_server_env`) on a SQLite database made in `data_dir`:
    migrated, with the catalogue loaded."""
    env = _server_env(data_dir)
    os.mkdir(env["STATIC_ROOT"])  # WhiteNoise warns about a missing STATIC_ROOT
    started = time.perf_counter()
    _manage(env, "migrate", "--noinput")
    _manage(env, "load_catalogue")
    say(
        f"  throwaway SQLite database in {data_dir}: migrated and catalogue loaded"
        f" in {time.perf_counter() - started:.1f} s"
    )
    return env


def _cpu_seconds(pid: int) -> float:
    # utime + stime of one process, from /proc (Linux).
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                    children.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return children


def gunicorn_command(port: int, workers: int = WORKERS) -> list[str]:
    return [
        str(Path(PYTHON).parent / "gunicorn"),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--graceful-timeout",
        "5",
        "--no-control-socket",
        "--log-level",
        "warning",
    ]


class Server:
    """A server with the bench settings (gunicorn unless another command is given, with that
    many worker processes), started and always stopped by this process."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        log_path: str,
        *,
        command: list[str] | None = None,
        workers: int = WORKERS,
    ) -> None:
        self.port = port
        self.log_path = log_path
        self.expected_workers = workers
        self.log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            command or gunicorn_command(port, workers),
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        probe = build_request("GET", "/bench/empty/", self.port)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                raise RuntimeError(f"the server exited with {code}:\n{self.tail()}")
            try:
                status, _, _ = http_request(self.port, probe)
                if status == 200 and len(self.workers()) == self.expected_workers:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer within {timeout:g} s:\n{self.tail()}")

    def workers(self) -> list[int]:
        return _children(self.process.pid)

    def cpu_seconds(self) -> tuple[float, tuple[int, ...]]:
        pids = tuple(sorted(self.workers()))
        total = 0.0
        for pid in (self.process.pid, *pids):
            with contextlib.suppress(OSError):
                total += _cpu_seconds(pid)
        return total, pids

    def tail(self, lines: int = 30) -> str:
        self.log.flush()
        with open(self.log_path, errors="replace") as log:
            return "".join(log.readlines()[-lines:])

    def stop(self) -> int | None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # graceful: workers finish, then exit
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)  # the group we started, nothing else
                self.process.wait(timeout=5)
        self.log.close()
        return self.process.returncode


def build_request(
    method: str,
    path: str,
    port: int,
    body: bytes = b"",
    cookie: str = "",
    *,
    content_type: str = "application/json",
    extra_headers: tuple[str, ...] = (),
) -> bytes:
    # One connection per request (gunicorn's sync workers close after every response), the same
    # headers for both endpoints so the only difference is the work behind the URL.
    headers = [
        f"{method} {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Accept: application/json",
        "Connection: close",
        *extra_headers,
    ]
    if body:
        headers += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
    if cookie:
        headers.append(f"Cookie: {cookie}")
    return ("\r\n".join(headers) + "\r\n\r\n").encode("ascii") + body


def _parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, separator, body = raw.partition(b"\r\n\r\n")
    if not separator:
        raise ValueError("incomplete response")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return status, headers, body


def http_request(
    port: int, request: bytes, timeout: float = 10.0, source: str = "127.0.0.1"
) -> tuple[int, dict, bytes]:
    """One request from `source` (any loopback address: a client of its own) to the server."""
    address = ("127.0.0.1", port)
    with socket.create_connection(
        address, timeout=timeout, source_address=(source, 0)
    ) as connection:
        connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return _parse(b"".join(chunks))


def load(port: int, request: bytes, expected_length: int, seconds: float) -> dict:
    """Keep CONCURRENCY connections busy for `seconds`, one request per connection.

    Single-threaded, non-blocking sockets and a selector, the request bytes built once: the
    generator shares the 2 cores with the server, so it does as little as it can. Reading until
    the server closes leaves TIME_WAIT on the server side, so the client never runs out of ports.
    """
    selector = selectors.DefaultSelector()
    address = ("127.0.0.1", port)
    statuses: Counter = Counter()
    errors: Counter = Counter()
    latencies: list[float] = []
    open_connections = 0
    perf = time.perf_counter
    started = perf()
    deadline = started + seconds

    def open_connection() -> None:
        nonlocal open_connections
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex(address)
        # [socket, started, bytes sent, chunks received]
        selector.register(sock, selectors.EVENT_WRITE, [sock, perf(), 0, []])
        open_connections += 1

    def finish(state: list, error: str | None) -> None:
        nonlocal open_connections
        sock = state[0]
        selector.unregister(sock)
        sock.close()
        open_connections -= 1
        now = perf()
        if error is None:
            raw = b"".join(state[3])
            try:
                status, _, body = _parse(raw)
            except ValueError:
                error = "incomplete response"
            else:
                statuses[status] += 1
                if status != 200:
                    error = f"status {status}"
                elif len(body) != expected_length:
                    error = "unexpected body length"
                else:
                    latencies.append(now - state[1])
        if error is not None:
            errors[error] += 1
        if now < deadline:
            open_connection()

    for _ in range(CONCURRENCY):
        open_connection()
    cpu_before = time.process_time()
    while open_connections:
        for key, events in selector.select(timeout=1.0):
            state = key.data
            sock = state[0]
            try:
                if events & selectors.EVENT_WRITE:
                    failure = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if failure:
                        finish(state, f"connect: {os.strerror(failure)}")
                        continue
                    state[2] += sock.send(request[state[2] :])
                    if state[2] == len(request):
                        selector.modify(sock, selectors.EVENT_READ, state)
                else:
                    chunk = sock.recv(65536)
                    if chunk:
                        state[3].append(chunk)
                    else:
                        finish(state, None)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as error:
                finish(state, f"socket: {error.strerror or error}")
        if perf() > deadline + 30:  # a stuck server: give up rather than hang the bench
            for key in list(selector.get_map().values()):
                finish(key.data, "timeout")
    elapsed = perf() - started
    client_cpu = time.process_time() - cpu_before
    selector.close()
    return {
        "seconds": elapsed,
        "latencies": latencies,
        "errors": errors,
        "statuses": statuses,
        "client_cpu_seconds": client_cpu,
    }


def _machine_busy_seconds() -> float:
    # CPU time every process spent, all CPUs together, from the first line of /proc/stat.
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, stat.readline().split()[1:9]
        )
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _summary(runs: list[dict], server_cpu: float, machine_busy: float) -> dict:
    seconds = sum(run["seconds"] for run in runs)
    latencies = sorted(latency for run in runs for latency in run["latencies"])
    errors: Counter = sum((run["errors"] for run in runs), Counter())
    statuses: Counter = sum((run["statuses"] for run in runs), Counter())
    client_cpu = sum(run["client_cpu_seconds"] for run in runs)
    ok = len(latencies)

    def percentile(p: float) -> float:
        return latencies[min(ok - 1, int(p * ok))] * 1e3 if ok else 0.0

    # What the rest of the machine did meanwhile: other processes compete for the same cores.
    others = max(0.0, machine_busy - server_cpu - client_cpu)
    return {
        "seconds": seconds,
        "rounds": len(runs),
        "requests": ok + sum(errors.values()),
        "ok": ok,
        "errors": sum(errors.values()),
        "error_kinds": dict(errors),
        "statuses": {str(k): v for k, v in statuses.items()},
        "requests_per_second": ok / seconds,
        "latency_ms": {"p50": percentile(0.50), "p90": percentile(0.90), "p99": percentile(0.99)},
        "server_cpu_seconds": server_cpu,
        "server_cpu_ms_per_request": server_cpu / ok * 1e3 if ok else None,
        "client_cpu_seconds": client_cpu,
        "client_cpu_share_of_a_core": client_cpu / seconds,
        "other_processes_cpu_share": others / (seconds * (os.cpu_count() or 1)),
    }


def measure(server: Server, endpoints: dict[str, tuple[bytes, int]]) -> dict[str, dict]:
    """Measure the endpoints in alternating rounds (A B, B A, ...), after a warm-up of each.

    Interleaving gives every endpoint the same share of whatever else the machine is doing, so
    the ratio stays fair on a shared machine; the totals add up to MEASURE_SECONDS each.
    """
    for request, expected_length in endpoints.values():
        load(server.port, request, expected_length, WARMUP_SECONDS)
    _, workers_before = server.cpu_seconds()
    runs: dict[str, list[dict]] = {name: [] for name in endpoints}
    server_cpu = dict.fromkeys(endpoints, 0.0)
    machine_busy = dict.fromkeys(endpoints, 0.0)
    names = list(endpoints)
    for round_number in range(ROUNDS):
        for name in names if round_number % 2 == 0 else reversed(names):
            request, expected_length = endpoints[name]
            cpu_before, _ = server.cpu_seconds()
            busy_before = _machine_busy_seconds()
            runs[name].append(load(server.port, request, expected_length, MEASURE_SECONDS / ROUNDS))
            machine_busy[name] += _machine_busy_seconds() - busy_before
            server_cpu[name] += server.cpu_seconds()[0] - cpu_before
    _, workers_after = server.cpu_seconds()
    results = {}
    for name in endpoints:
        result = _summary(runs[name], server_cpu[name], machine_busy[name])
        result["workers_restarted"] = workers_before != workers_after
        results[name] = result
        say(
            f"  {name:<24} {result['requests_per_second']:7,.0f} req/s   {result['ok']:,} OK,"
            f" {result['errors']} errors in {result['seconds']:.1f} s;"
            f" latency p50 {result['latency_ms']['p50']:.1f} ms,"
            f" p99 {result['latency_ms']['p99']:.1f} ms;"
            f" server CPU {result['server_cpu_ms_per_request'] or 0:.2f} ms/request;"
            f" load generator {result['client_cpu_share_of_a_core']:.0%} of a core;"
            f" other processes {result['other_processes_cpu_share']:.0%} of the machine"
        )
        if result["errors"]:
            say(f"    errors: {result['error_kinds']}")
    if any(r["workers_restarted"] for r in results.values()):
        say("  WARNING: a gunicorn worker was restarted during the measurement")
    if max(r["other_processes_cpu_share"] for r in results.values()) > 0.1:
        say(
            "  WARNING: other processes were busy on this machine during the measurement:"
            " requests per second are lower than on an idle machine (interleaved rounds keep"
            " the ratio fair; server CPU per request is the steadier figure)"
        )
    return results


def _queries_per_estimate(env: dict[str, str], body: bytes) -> dict:
    """SQL queries of one estimate request, in-process with Django's test client (same database)."""
    for name in set(os.environ) - set(env):
        del os.environ[name]  # the server's environment: throwaway database, bench settings
    os.environ.update(env)
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.post("/api/v1/estimate/", body, content_type="application/json")  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.post("/api/v1/estimate/", body, content_type="application/json")
    connection.close()
    return {
        "status": response.status_code,
        "queries": len(captured.captured_queries),
        "sql": [q["sql"][:160] for q in captured.captured_queries],
    }


SIGNED_IN_SCENARIO = """
from django.conf import settings
from django.test import Client
from django.utils.crypto import get_random_string
from apps.projects.demo import demo_seed
from apps.projects.models import Scenario
username, _, _ = demo_seed(credentials_file=settings.DATA_DIR / "demo-login.txt")
scenario = Scenario.objects.filter(project__owner__username=username).order_by("pk").first()
client = Client()
client.force_login(scenario.project.owner)
csrf_secret = get_random_string(32)  # as the CSRF cookie a browser has after its first page
print(scenario.pk, client.cookies[settings.SESSION_COOKIE_NAME].value, csrf_secret)
"""


def _signed_in_scenario(env: dict[str, str]) -> tuple[int, str]:
    """The demo manager's first scenario and a browser's cookies for it, in the bench database."""
    completed = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", SIGNED_IN_SCENARIO],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"could not sign in the demo manager:\n{completed.stderr[-2000:]}")
    scenario_id, session_key, csrf_secret = completed.stdout.split()[-3:]
    # The cookies a signed-in browser sends: its session, and the CSRF cookie of an earlier page.
    return int(scenario_id), f"sessionid={session_key}; csrftoken={csrf_secret}"


def bench_http() -> dict:
    say()
    say(
        f"== HTTP: gunicorn, {WORKERS} sync workers, {CONCURRENCY} connections in flight, one"
        f" request per connection; {MEASURE_SECONDS:g} s per endpoint in {ROUNDS} alternating"
        f" rounds after {WARMUP_SECONDS:g} s warm-up =="
    )
    body = json.dumps(SEED_000, separators=(",", ":")).encode()
    with tempfile.TemporaryDirectory(prefix="compute-planner-bench-") as data_dir:
        env = throwaway_database(data_dir)
        port = _free_port()
        server = Server(env, port, os.path.join(data_dir, "gunicorn.log"))
        try:
            server.wait_ready()
            say(
                f"  gunicorn on 127.0.0.1:{port} (pid {server.process.pid},"
                f" workers {', '.join(map(str, server.workers()))})"
            )
            empty_request = build_request("GET", "/bench/empty/", port)
            api_request = build_request("POST", "/api/v1/estimate/", port, body)
            scenario_id, cookie = _signed_in_scenario(env)
            page_path = f"/scenarios/{scenario_id}/"
            page_request = build_request("GET", page_path, port, cookie=cookie)
            status, _, page_body = http_request(port, page_request)
            if status != 200 or b"Training against inference" not in page_body:
                raise RuntimeError(f"GET {page_path} answered {status}: {page_body[:300]!r}")

            status, _, empty_body = http_request(port, empty_request)
            if status != 200:
                raise RuntimeError(f"GET /bench/empty/ answered {status}")
            status, headers, api_body = http_request(port, api_request)
            if status != 200:
                raise RuntimeError(f"POST /api/v1/estimate/ answered {status}: {api_body[:500]!r}")
            answer = json.loads(api_body)
            check = {
                "training_accelerator_hours": answer["training"]["accelerator_hours"],
                "inference_month_1_accelerator_hours": answer["inference"]["monthly"][0][
                    "accelerator_hours"
                ],
                "break_even_months": answer["comparison"]["break_even_months"],
            }
            if not (
                math.isclose(check["training_accelerator_hours"], 200)
                and math.isclose(check["inference_month_1_accelerator_hours"], 15000 * 2 / 3600)
                and math.isclose(check["break_even_months"], 24)
            ):
                raise RuntimeError(f"Seed 000 answered wrong figures: {check}")
            say(
                f"  seed 000 answer checked (200 a-h training, 8.33 a-h/month, break-even 24"
                f" months); response {len(api_body):,} bytes, {headers.get('content-type')}"
            )

            measured = measure(
                server,
                {
                    "GET /bench/empty/": (empty_request, len(empty_body)),
                    "POST /api/v1/estimate/": (api_request, len(api_body)),
                    "GET /scenarios/<id>/": (page_request, len(page_body)),
                },
            )
            empty, api = measured["GET /bench/empty/"], measured["POST /api/v1/estimate/"]
            page = measured["GET /scenarios/<id>/"]
        finally:
            returncode = server.stop()
        if returncode not in (0, None):
            say(f"  WARNING: gunicorn exited with {returncode}:\n{server.tail()}")
        say(f"  gunicorn stopped (exit status {returncode})")
        queries = _queries_per_estimate(env, body)

    ratio = api["requests_per_second"] / empty["requests_per_second"]
    page_ratio = page["requests_per_second"] / empty["requests_per_second"]
    say(
        f"  scenario page / empty        {page_ratio:.1%} of the empty view's rate"
        f"   [target >= {TARGET_PAGE_RATIO:.0%}:"
        f" {'PASS' if page_ratio >= TARGET_PAGE_RATIO else 'MISS'}]"
    )
    cpu_ratio = (
        empty["server_cpu_ms_per_request"] / api["server_cpu_ms_per_request"]
        if empty["server_cpu_ms_per_request"] and api["server_cpu_ms_per_request"]
        else None
    )
    say(
        f"  API / empty                  {ratio:.1%} of the empty view's rate"
        f"   [target >= {TARGET_API_RATIO:.0%}: {'PASS' if ratio >= TARGET_API_RATIO else 'MISS'}]"
    )
    if cpu_ratio is not None:
        say(
            f"  (server CPU per request: empty {empty['server_cpu_ms_per_request']:.2f} ms,"
            f" estimate {api['server_cpu_ms_per_request']:.2f} ms -> {cpu_ratio:.1%};"
            " the client's share of the cores weighs on both rates alike)"
        )
    say(
        f"  SQL queries per estimate request: {queries['queries']}"
        f" (in-process test client, status {queries['status']})"
    )
    return {
        "server": {
            "command": f"gunicorn config.wsgi:application --workers {WORKERS} --worker-class sync",
            "settings": "tests.bench.settings",
            "database": "SQLite (throwaway)",
            "api_anon_rate": API_ANON_RATE,
            "connections_in_flight": CONCURRENCY,
            "keep_alive": False,
            "warmup_seconds": WARMUP_SECONDS,
            "measure_seconds": MEASURE_SECONDS,
            "rounds": ROUNDS,
        },
        "request_body": SEED_000,
        "empty": empty,
        "estimate": api,
        "ratio": ratio,
        "scenario_page": page,
        "scenario_page_ratio": page_ratio,
        "server_cpu_ratio": cpu_ratio,
        "estimate_queries": queries,
        "ok": empty["errors"] == 0
        and api["errors"] == 0
        and page["errors"] == 0
        and queries["status"] == 200,
    }
