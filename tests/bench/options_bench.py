"""`make bench` (options with ranges): GET /api/v1/scenarios/{id}/options/ for a scenario with
90 % ranges on five inputs at 10^5 samples, the five default options (external API, rented per
use, rented always on, owned, pre-training then hosting) compared on common random numbers.

Server time is the request through the whole middleware, in process (Django's test client, no
network), in a throwaway SQLite database with the real catalogue and API prices: wall-clock and
CPU time (best and median of the runs after one warm-up), the peak memory of one request
(tracemalloc, which sees NumPy's arrays), and how many times the request runs the estimate
engine (scalar: an estimate or an unrounded evaluation; sampled: 10^5 samples at once); the same
scenario without ranges beside it. No target is set; the estimate with ranges alone
(uncertainty_bench.py) is the yardstick. Not a pytest file; a wrong answer is exit status 1.
`--currency EUR` runs it with the project in that currency (the ECB's rates loaded from the
installed package, the rate of 2 June 2025), so that conversion is in the path.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.common import PYTHON, RANGED_ESTIMATE, fmt_seconds, say  # noqa: E402
from tests.bench.http_bench import _manage, _server_env  # noqa: E402

RUNS = 7
SAMPLES = 100_000
# The ranges benchmark's estimate (tests/bench/common.py), with its price range on inference's
# price: the options replace how inference is bought, and price it from there.
INPUTS = {
    **RANGED_ESTIMATE,
    "ranges": {
        path.replace("training.price", "inference.price"): interval
        for path, interval in RANGED_ESTIMATE["ranges"].items()
    },
    "uncertainty": {"samples": SAMPLES, "seed": 0},
}

# Run in the bench database: a manager's scenario with INPUTS, then its options API, timed.
OPTIONS = """
import json, statistics, time, tracemalloc
from datetime import date
from django.test import Client
from apps.estimates import engine
from tests.factories import make_manager, make_project, make_scenario
owner = make_manager("bench-options")
project = make_project(owner, "Bench options", period_start=date(2027, 1, 1),
                       period_end=date(2029, 12, 31), currency=CURRENCY,
                       rate_date=date(2025, 6, 2))
client = Client()
client.force_login(owner)

def timed(inputs):
    scenario = make_scenario(project, "Bench", inputs=inputs)
    path = f"/api/v1/scenarios/{scenario.pk}/options/"
    response = client.get(path)  # warm-up
    assert response.status_code == 200, response.content[:500]
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    runs, compute = [], engine.compute
    engine.compute = lambda inp, **kw: runs.append(engine._input_shape(inp)) or compute(inp, **kw)
    tracemalloc.start()
    client.get(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    engine.compute = compute
    return response.json(), {
        "wall_best": min(walls), "wall_median": statistics.median(walls), "walls": walls,
        "cpu_best": min(cpus), "cpu_median": statistics.median(cpus),
        "peak_memory_bytes": peak, "runs": RUNS,
        "engine_runs": {"scalar": runs.count(()), "sampled": len(runs) - runs.count(())},
    }

body, ranged = timed(INPUTS)
assert body["currency"] == CURRENCY and (CURRENCY == "USD") != bool(body["exchange_rates"]), body
assert body["uncertainty"]["samples"] == SAMPLES, body
plain_body, plain = timed({key: INPUTS[key] for key in ("training", "inference")})
assert "uncertainty" not in plain_body
print(json.dumps({
    "options": [o["key"] for o in body["options"]],
    "cheapest_share": body["uncertainty"]["cheapest_share"],
    "figures": len(body["uncertainty"]["figures"]),
    "with_ranges": ranged, "without_ranges": plain,
}))
"""


def bench_options(currency: str = "USD") -> dict:
    say(
        f"== Options with ranges: GET /api/v1/scenarios/{{id}}/options/, ranges on"
        f" {len(INPUTS['ranges'])} inputs, {SAMPLES:,} samples, in process, in {currency} =="
    )
    load = os.getloadavg()
    say(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="compute-planner-options-bench-") as data_dir:
        env = _server_env(data_dir)
        os.mkdir(env["STATIC_ROOT"])
        _manage(env, "migrate", "--noinput")
        _manage(env, "load_catalogue")
        _manage(env, "load_api_prices")
        if currency != "USD":
            _manage(env, "load_ecb_rates")
        code = f"CURRENCY = {currency!r}\nINPUTS = {INPUTS!r}\nRUNS = {RUNS}\nSAMPLES = {SAMPLES}\n{OPTIONS}"
        completed = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    if completed.returncode != 0:
        raise RuntimeError(f"the options bench failed:\n{completed.stderr[-3000:]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result["load_average"] = load
    say(
        f"  {len(result['options'])} options ({', '.join(result['options'])}),"
        f" {result['figures']} percentile figures"
    )
    for name in ("with_ranges", "without_ranges"):
        r = result[name]
        say(
            f"  {name.replace('_', ' ')}: server time wall {fmt_seconds(r['wall_best'])} best,"
            f" {fmt_seconds(r['wall_median'])} median of {r['runs']}; CPU"
            f" {fmt_seconds(r['cpu_best'])} best, {fmt_seconds(r['cpu_median'])} median; peak"
            f" memory {r['peak_memory_bytes'] / 2**20:,.1f} MiB; engine runs"
            f" {r['engine_runs']['scalar']} scalar, {r['engine_runs']['sampled']} sampled"
        )
    shares = ", ".join(f"{key} {share:.1%}" for key, share in result["cheapest_share"].items())
    say(f"  cheapest in: {shares}")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--currency", default="USD", help="the project's currency (ISO 4217)")
    result = bench_options(parser.parse_args().currency)
    return 0 if abs(sum(result["cheapest_share"].values()) - 1) < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
