"""The ranges benchmark: an estimate with 90 % intervals on five inputs at 10^5 samples (a page or
API answer: target under 100 ms of server time) and 10^6 (an export: under 1 s), with the peak
memory each takes (tracemalloc, which sees NumPy's arrays).

Two parts. The server's: POST /api/v1/estimate/ through the WSGI application gunicorn runs, in a
process of its own on a throwaway SQLite database with the catalogue (uncertainty_server.py):
wall-clock and CPU time per request; the targets are judged on it. The engine's: `sample()`
alone in this process, to show how much of the request the sampling is. On a shared machine
the wall-clock time includes waiting for a core; the CPU time (process time) is the steadier
figure, and the load average is printed beside both. Run from engine_bench.py, or alone:
`.venv/bin/python tests/bench/uncertainty_bench.py`.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.estimates import (  # noqa: E402
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
)
from apps.estimates.uncertainty import sample  # noqa: E402
from apps.estimates.uncertainty_draws import Range  # noqa: E402
from config.allocator import keep_freed_memory  # noqa: E402
from tests.bench.common import PYTHON, fmt_seconds, say  # noqa: E402
from tests.bench.http_bench import throwaway_database  # noqa: E402

REPEATS = 3
TARGETS_SECONDS = {100_000: 0.1, 1_000_000: 1.0}
H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
RENT = Pricing(mode="rent", price_per_accelerator_hour=2.5)
# A 7B model trained on 2T tokens and served on the same rented H100s: one price for both.
INPUTS = EstimateInput(
    training=TrainingInput(
        method="parameters_tokens",
        hardware=H100,
        parameters=7e9,
        tokens=2e12,
        accelerator_count=1024,
        pricing=RENT,
    ),
    inference=InferenceInput(
        method="tokens",
        hardware=H100,
        parameters=7e9,
        input_tokens=500,
        output_tokens=300,
        requests_per_month=3e7,
        monthly_growth=0.05,
        months=24,
        pricing=RENT,
    ),
    energy=EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15),
)
RANGES = {
    "training.tokens": Range(1e12, 4e12),
    "training.mfu": Range(0.25, 0.55),
    "training.pricing.price_per_accelerator_hour": Range(1.8, 4.0),  # and inference's: one driver
    "inference.requests_per_month": Range(5e6, 1e8),
    "inference.monthly_growth": Range(-0.02, 0.12),
}
SHOWN = (
    "training.accelerator_hours",
    "training.cost",
    "inference.total.cost",
    "inference.peak_accelerators",
    "comparison.total_cost",
    "comparison.break_even_months",
)


def _engine_run(samples: int) -> dict:
    sample(INPUTS, RANGES, samples, seed=0)  # warm-up
    times, cpu_times = [], []
    for _ in range(REPEATS):
        started, cpu_started = time.perf_counter(), time.process_time()
        result = sample(INPUTS, RANGES, samples, seed=0)
        times.append(time.perf_counter() - started)
        cpu_times.append(time.process_time() - cpu_started)
    tracemalloc.start()
    sample(INPUTS, RANGES, samples, seed=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "samples": samples,
        "inputs_with_ranges": len(RANGES),
        "seconds_best": min(times),
        "seconds_all": times,
        "cpu_seconds_best": min(cpu_times),
        "peak_memory_bytes": peak,
        "figures": {
            path: {
                name: None if value is None else float(value)
                for name, value in vars(result.figures[path]).items()
            }
            for path in SHOWN
        },
        "clipped": result.clipped,
    }


def _server_runs() -> dict:
    """The server part, in a process of its own (Django set up there, never here)."""
    with tempfile.TemporaryDirectory(prefix="compute-planner-ranges-bench-") as data_dir:
        env = throwaway_database(data_dir)
        completed = subprocess.run(
            [PYTHON, str(ROOT / "tests" / "bench" / "uncertainty_server.py")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    if completed.returncode != 0:
        raise RuntimeError(f"the server part failed:\n{completed.stderr[-3000:]}")
    server = json.loads(completed.stdout.strip().splitlines()[-1])
    for run in server["runs"]:
        run["target_seconds"] = TARGETS_SECONDS[run["samples"]]
        run["wall_seconds_best"] = min(run["wall_seconds"])
        run["wall_seconds_median"] = statistics.median(run["wall_seconds"])
        run["cpu_seconds_best"] = min(run["cpu_seconds"])
        run["cpu_seconds_median"] = statistics.median(run["cpu_seconds"])
        run["wall_target_met"] = run["wall_seconds_best"] < run["target_seconds"]
        run["cpu_target_met"] = run["cpu_seconds_best"] < run["target_seconds"]
    return server


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _report_server(r: dict) -> None:
    say(
        f"  {r['samples']:>9,} samples: wall {fmt_seconds(r['wall_seconds_best'])} best,"
        f" {fmt_seconds(r['wall_seconds_median'])} median of {len(r['wall_seconds'])};"
        f" CPU {fmt_seconds(r['cpu_seconds_best'])} best,"
        f" {fmt_seconds(r['cpu_seconds_median'])} median;"
        f" peak memory {r['peak_memory_bytes'] / 2**20:,.0f} MiB;"
        f" {r['figures']} figures, {r['response_bytes']:,} bytes"
        f"   [target < {fmt_seconds(r['target_seconds'])}:"
        f" wall {_verdict(r['wall_target_met'])}, CPU {_verdict(r['cpu_target_met'])}]"
    )


def _report_engine(r: dict) -> None:
    all_runs = ", ".join(fmt_seconds(t) for t in r["seconds_all"])
    say(
        f"  {r['samples']:>9,} samples: {fmt_seconds(r['seconds_best'])} best of {REPEATS}"
        f" ({all_runs}; CPU {fmt_seconds(r['cpu_seconds_best'])}),"
        f" peak memory {r['peak_memory_bytes'] / 2**20:,.0f} MiB"
    )
    for path, figure in r["figures"].items():
        text = ", ".join(
            f"{name} {'never' if value is None else f'{value:,.4g}'}"
            for name, value in figure.items()
            if name != "probability_never" or value is not None
        )
        say(f"      {path}: {text}")
    clipped = ", ".join(f"{path} {share:.3%}" for path, share in r["clipped"].items())
    say(f"      clipped: {clipped or 'none'}")


def _load() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs"


def bench_uncertainty() -> dict:
    say("== Ranges: an estimate with ranges on five inputs, Monte Carlo through evaluate() ==")
    load_before = os.getloadavg()
    say(f"  {_load()}")
    say(
        "  The server's whole path: POST /api/v1/estimate/ through config.wsgi as gunicorn"
        " calls it, one request at a time"
    )
    server = _server_runs()
    for run in server["runs"]:
        _report_server(run)
    say(f"  ({_load()} after the server part)")
    # As in the server process: freed arrays kept for the next call.
    keep_freed_memory()
    say("  The engine alone: sample() in this process, same inputs")
    engine = [_engine_run(samples) for samples in TARGETS_SECONDS]
    for run in engine:
        _report_engine(run)
    return {
        "load_average": load_before,
        "load_average_after": os.getloadavg(),
        "runs": server["runs"],
        "server_max_resident_bytes": server["max_resident_bytes"],
        "engine_runs": engine,
        "targets_met": all(r["wall_target_met"] for r in server["runs"]),
        "cpu_targets_met": all(r["cpu_target_met"] for r in server["runs"]),
    }


if __name__ == "__main__":
    bench_uncertainty()
