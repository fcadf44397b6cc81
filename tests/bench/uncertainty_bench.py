"""The ranges benchmark: an estimate with 90 % intervals on five inputs, sampled through `evaluate`
at 10^5 samples (a page or API answer: target under 100 ms) and 10^6 (an export: under 1 s), with
the peak memory each takes (tracemalloc, which sees NumPy's arrays). Run from engine_bench.py.
"""

import os
import time
import tracemalloc

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
)
from apps.estimates.uncertainty import Range, sample
from tests.bench.common import fmt_seconds, say

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


def _run(samples: int) -> dict:
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
        # CPU time of this process: what a shared, busy machine adds to the wall-clock time.
        "cpu_seconds_best": min(cpu_times),
        "target_seconds": TARGETS_SECONDS[samples],
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


def _report(r: dict) -> None:
    ok = r["seconds_best"] < r["target_seconds"]
    all_runs = ", ".join(fmt_seconds(t) for t in r["seconds_all"])
    say(
        f"  {r['samples']:>9,} samples, ranges on {r['inputs_with_ranges']} inputs:"
        f" {fmt_seconds(r['seconds_best'])} best of {REPEATS} ({all_runs};"
        f" CPU {fmt_seconds(r['cpu_seconds_best'])}),"
        f" peak memory {r['peak_memory_bytes'] / 2**20:,.0f} MiB"
        f"   [target < {fmt_seconds(r['target_seconds'])}: {'PASS' if ok else 'MISS'}]"
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


def bench_uncertainty() -> dict:
    say("== Ranges: Monte Carlo through evaluate(), percentiles of every figure ==")
    # Wall-clock time on a shared machine is CPU time times its contention: say how loaded.
    load = os.getloadavg()
    say(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    results = [_run(samples) for samples in TARGETS_SECONDS]
    for result in results:
        _report(result)
    return {
        "load_average": load,
        "runs": results,
        "targets_met": all(r["seconds_best"] < r["target_seconds"] for r in results),
    }
