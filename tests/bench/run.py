"""`make bench`: how fast the estimate engine, the estimate API and the scenario page are.

Two parts, one report (printed, and written to bench-results/latest.json): the engine
(tests/bench/engine_bench.py) and HTTP under gunicorn (tests/bench/http_bench.py); each states
its targets. The sweep benchmark is tests/bench/sweep_bench.py.

Not a pytest file (no test_ prefix). `--strict` turns a missed target into exit status 1; a wrong
result (vectorised ≠ scalar, a response other than the expected 200) always does.
"""

import argparse
import contextlib
import json
import os
import platform
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.common import fmt_seconds, say  # noqa: E402
from tests.bench.engine_bench import (  # noqa: E402
    TARGET_SPEEDUP,
    TARGET_VECTOR_SECONDS,
    bench_engine,
)
from tests.bench.http_bench import TARGET_API_RATIO, TARGET_PAGE_RATIO, bench_http  # noqa: E402

RESULTS = ROOT / "bench-results" / "latest.json"


def _machine() -> dict:
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    import django
    import gunicorn

    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "load_average_at_start": os.getloadavg(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "django": django.__version__,
        "gunicorn": gunicorn.__version__,
        "platform": platform.platform(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--skip-http", action="store_true", help="engine part only")
    args = parser.parse_args()
    # `make` stopped with a signal: still run the `finally` blocks that stop gunicorn.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    started = time.perf_counter()
    machine = _machine()
    say(
        f"Compute Planner benchmark — {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC,"
        f" {machine['cpus']} CPUs ({machine['cpu_model']}), load average"
        f" {machine['load_average_at_start'][0]:.2f}; Python {machine['python']},"
        f" NumPy {machine['numpy']}, Django {machine['django']}, gunicorn {machine['gunicorn']}"
    )
    say()
    engine = bench_engine()
    http, http_error = None, None
    if not args.skip_http:
        try:
            http = bench_http()
        except Exception as error:
            # The server is stopped already (bench_http's finally); report and fail the run.
            http_error = f"{type(error).__name__}: {error}"
            say(f"  HTTP part FAILED: {http_error}")
    elapsed = time.perf_counter() - started

    targets = {
        "vectorised_under_1_s": engine["vectorised_seconds_worst"] < TARGET_VECTOR_SECONDS,
        "speedup_at_least_100x": engine["speedup_min"] >= TARGET_SPEEDUP,
        "ranges_under_100_ms_and_1_s": engine["uncertainty"]["targets_met"],
    }
    if http is not None:
        targets["api_at_least_45_percent_of_empty"] = http["ratio"] >= TARGET_API_RATIO
        targets["scenario_page_at_least_25_percent_of_empty"] = (
            http["scenario_page_ratio"] >= TARGET_PAGE_RATIO
        )
    correct = engine["sanity_ok"] and http_error is None and (http is None or http["ok"])
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine,
        "engine": engine,
        "http": http,
        "http_error": http_error,
        "targets": targets,
        "correct": correct,
        "bench_seconds": elapsed,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2, default=float) + "\n")

    say()
    say("== Summary ==")
    say(
        f"  evaluate() 1,000,000 points: {fmt_seconds(engine['vectorised_seconds_worst'])}"
        f" (slowest scenario)   {'PASS' if targets['vectorised_under_1_s'] else 'MISS'}"
        f" (< {TARGET_VECTOR_SECONDS:g} s)"
    )
    say(
        f"  speed-up vs estimate() loop: {engine['speedup_min']:,.0f}x (smallest)"
        f"   {'PASS' if targets['speedup_at_least_100x'] else 'MISS'} (>= {TARGET_SPEEDUP:g}x)"
    )
    for run in engine["uncertainty"]["runs"]:
        say(
            f"  estimate API, ranges on {run['inputs_with_ranges']} inputs,"
            f" {run['samples']:,} samples: {fmt_seconds(run['wall_seconds_best'])}"
            f" (CPU {fmt_seconds(run['cpu_seconds_best'])}),"
            f" peak {run['peak_memory_bytes'] / 2**20:,.0f} MiB"
            f"   wall {'PASS' if run['wall_target_met'] else 'MISS'},"
            f" CPU {'PASS' if run['cpu_target_met'] else 'MISS'}"
            f" (< {fmt_seconds(run['target_seconds'])};"
            f" load average {run['load_average_after'][0]:.2f})"
        )
    if http is not None:
        say(
            f"  estimate API: {http['estimate']['requests_per_second']:,.0f} req/s against"
            f" {http['empty']['requests_per_second']:,.0f} for an empty view = {http['ratio']:.1%}"
            f"   {'PASS' if targets['api_at_least_45_percent_of_empty'] else 'MISS'}"
            f" (>= {TARGET_API_RATIO:.0%})"
        )
        page_pass = targets["scenario_page_at_least_25_percent_of_empty"]
        say(
            f"  scenario page: {http['scenario_page']['requests_per_second']:,.0f} req/s"
            f" = {http['scenario_page_ratio']:.1%} of the empty view"
            f"   {'PASS' if page_pass else 'MISS'} (>= {TARGET_PAGE_RATIO:.0%})"
        )
    say(
        f"  results correct: {'yes' if correct else 'NO'}; report written to"
        f" {RESULTS.relative_to(ROOT)}; bench took {elapsed:.0f} s"
    )
    if not correct:
        return 1
    return 1 if args.strict and not all(targets.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
