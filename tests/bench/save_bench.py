"""`make bench` (scenario save): a manager saves the scenario page's form and is sent back to
the page, as a browser does: POST /scenarios/{id}/ then GET of the address it redirects to.

Timed in process (Django's test client, the whole middleware, no network) in a throwaway SQLite
database with the real catalogue and API prices, for a scenario of training and serving with a
cost line, with 90 % ranges on two inputs (the default 100,000 samples) and without: the median
and best of SAVES saves (wall-clock and CPU time; the POST and the page after it, each and
together), each changing the monthly requests so that no save finds its page cached; and how
many times one save runs the estimate engine (scalar: one estimate or unrounded evaluation;
sampled: the ranges' samples at once), counted at its one entry point
(apps.estimates.engine.compute). No target is set. Not a pytest file; a save that does not
redirect, or a page that does not answer 200, is exit status 1.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.common import PYTHON, fmt_seconds, say  # noqa: E402
from tests.bench.http_bench import _manage, _server_env  # noqa: E402

SAVES = 20

# Run in the bench database: a manager's project and scenario (with a staff line), its page's
# form as a browser posts it, then SAVES saves with the redirect followed, timed.
SAVE = """
import json, statistics, time
from datetime import date
from decimal import Decimal
from django.test import Client
from apps.budget.services import cost_line_create
from apps.catalogue.snapshot import Catalogue
from apps.estimates import engine
from apps.projects.forms import ScenarioForm
from tests.factories import make_manager, make_project, make_scenario
owner = make_manager("bench-save")
project = make_project(owner, "Bench save")
client = Client()
client.force_login(owner)
STAFF = {"name": "Engineer", "kind": "staff", "quantity": Decimal("1"), "unit": "FTE",
         "unit_price": Decimal("95000"), "recurrence": "yearly", "start": date(2026, 1, 1),
         "end": date(2027, 12, 31), "category": 1, "basis": "One engineer."}

def form_data(scenario):
    initial = ScenarioForm.initial_from_request(scenario.name, scenario.inputs, scenario.version)
    form = ScenarioForm(initial=initial, catalogue=Catalogue.load())
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value not in (None, False, ""):
            data[name] = "on" if value is True else str(value)
    return data

def clock():
    return time.perf_counter(), time.process_time()

def since(start):
    return tuple(now - then for now, then in zip(clock(), start))

def timed(inputs):
    scenario = make_scenario(project, "Bench", inputs=inputs)
    cost_line_create(scenario=scenario, fields=STAFF, user=owner)
    times = {"post": [], "page": [], "both": []}  # (wall, cpu) of each save
    runs = []
    compute = engine.compute
    for save in range(SAVES + 1):
        scenario.refresh_from_db()
        data = form_data(scenario)
        data["inference_requests_per_month"] = str(15_000 + save)
        counted = []
        engine.compute = lambda inp, **kw: counted.append(engine._input_shape(inp)) or compute(
            inp, **kw)
        start = clock()
        response = client.post(f"/scenarios/{scenario.pk}/", data)
        posted = since(start)
        assert response.status_code == 302, response.content.decode()[:2000]
        middle = clock()
        page = client.get(response["Location"])
        paged, both = since(middle), since(start)
        engine.compute = compute
        assert page.status_code == 200
        if save:  # the first warms the process up
            for name, took in (("post", posted), ("page", paged), ("both", both)):
                times[name].append(took)
            runs.append(counted)
    assert len({tuple(counted) for counted in runs}) == 1, runs
    result = {"saves": SAVES, "engine_runs": {
        "scalar": runs[0].count(()), "sampled": len(runs[0]) - runs[0].count(())}}
    for name, taken in times.items():
        walls, cpus = [wall for wall, _ in taken], [cpu for _, cpu in taken]
        result[name] = {"wall_median": statistics.median(walls), "wall_best": min(walls),
                        "cpu_median": statistics.median(cpus), "cpu_best": min(cpus)}
    return result

print(json.dumps({"with_ranges": timed(INPUTS), "without_ranges": timed(
    {key: INPUTS[key] for key in ("training", "inference")})}))
"""

INPUTS = {
    "training": {
        "method": "accelerator_hours",
        "accelerator_hours": 200,
        "accelerator": "nvidia-h100-sxm",
        "accelerator_count": 8,
        "price_per_accelerator_hour": 2.5,
    },
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 15_000,
        "months": 12,
        "price_per_accelerator_hour": 2.5,
    },
    "ranges": {
        "training.accelerator_hours": {"low": 100, "high": 400},
        "inference.requests_per_month": {"low": 5_000, "high": 50_000},
    },
    "uncertainty": {"seed": 7},  # the default samples (apps.catalogue.uncertainty)
}


def bench_save() -> dict:
    say(
        f"== Scenario save: POST /scenarios/{{id}}/ and the page it redirects to, in process,"
        f" median of {SAVES} saves =="
    )
    load = os.getloadavg()
    say(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="compute-planner-save-bench-") as data_dir:
        env = _server_env(data_dir)
        os.mkdir(env["STATIC_ROOT"])
        _manage(env, "migrate", "--noinput")
        _manage(env, "load_catalogue")
        _manage(env, "load_api_prices")
        code = f"INPUTS = {INPUTS!r}\nSAVES = {SAVES}\n{SAVE}"
        completed = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    if completed.returncode != 0:
        raise RuntimeError(f"the save bench failed:\n{completed.stderr[-3000:]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result["load_average"] = load
    for name in ("with_ranges", "without_ranges"):
        r = result[name]
        say(
            f"  {name.replace('_', ' ')}: engine runs a save {r['engine_runs']['scalar']} scalar,"
            f" {r['engine_runs']['sampled']} sampled; median (best) of {r['saves']} saves:"
        )
        for part, words in (("post", "POST"), ("page", "page after"), ("both", "both")):
            t = r[part]
            say(
                f"    {words:<10} wall {fmt_seconds(t['wall_median'])}"
                f" ({fmt_seconds(t['wall_best'])}), CPU {fmt_seconds(t['cpu_median'])}"
                f" ({fmt_seconds(t['cpu_best'])})"
            )
    return result


def main() -> int:
    bench_save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
