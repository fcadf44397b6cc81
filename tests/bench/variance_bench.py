"""`make bench` (variance): GET /api/v1/projects/{id}/variance/ for a project with a realistic
year of actuals, requests per second against the empty view under gunicorn (target: at least
30 % of the empty view's rate, issue 24).

The project is the demo manager's first, its first scenario the baseline, its planning period
2026–2027, with the twelve months of 2026 billed as a FOCUS import sums them: per month, storage,
training on H100 instances (accelerator-hours), an external model API by model and token type
(input, cached, output) on two models, inference on L4 instances, and a credit; a second
billing source for a few months. Not a pytest file. Reuses tests/bench/http_bench.py's server,
load generator and interleaved rounds; a throwaway SQLite database with the demo data and the
real catalogue. `--strict` turns a missed target into exit status 1; a wrong answer (not 200,
or not the year of actuals) always does.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.budget_bench import _in_shell, measure_against_empty  # noqa: E402
from tests.bench.common import say  # noqa: E402
from tests.bench.http_bench import (  # noqa: E402
    Server,
    _free_port,
    _manage,
    _server_env,
    _signed_in_scenario,
)

TARGET_VARIANCE_RATIO = 0.30

# Run in the bench database: the scenario's project gets its year of actuals.
A_YEAR_OF_ACTUALS = """
import json
from datetime import date
from decimal import Decimal
from apps.actuals.models import ActualAmount
from apps.projects.models import Project, Scenario
scenario = Scenario.objects.get(pk=SCENARIO_ID)
project = scenario.project
Project.objects.filter(pk=project.pk).update(
    period_start=date(2026, 1, 1), period_end=date(2027, 12, 31))
Scenario.objects.filter(project=project).update(is_baseline=False)
Scenario.objects.filter(pk=scenario.pk).update(is_baseline=True)
rows = []
def bill(month, kind, amount, source="aws", **usage):
    day = date(2026, month, 1)
    rows.append(ActualAmount(project=project, source=source, billing_period=day, month=day,
                             kind=kind, amount=Decimal(amount), rows=40, **usage))
for month in range(1, 13):
    growth = 1.04 ** month
    bill(month, "storage", "1250.00")
    bill(month, "training_compute", f"{24000 * growth:.6f}", accelerator="nvidia-h100-sxm",
         accelerator_hours=8000 * growth)
    bill(month, "inference_compute", f"{3100 * growth:.6f}", accelerator="nvidia-l4",
         accelerator_hours=4100 * growth)
    for model in ("gpt-4o", "claude-sonnet-4"):
        for token_type, tokens in (("input", 6e8), ("cached", 2e8), ("output", 1.5e8)):
            bill(month, "inference_compute", f"{tokens * growth / 1e6 * 2.5:.6f}",
                 source="gateway", model=model, token_type=token_type,
                 tokens=int(tokens * growth))
    bill(month, "training_compute", "-500.00")  # a credit
    if month % 4 == 0:
        bill(month, "staff", "8000.00", source="manual")
bill(3, "", "75.20")  # an unmatched row
ActualAmount.objects.bulk_create(rows)
print(json.dumps({"project_id": project.pk, "rows": len(rows)}))
"""


def bench_variance() -> dict:
    say("== Variance: the plan-against-actual API against the empty view ==")
    with tempfile.TemporaryDirectory(prefix="compute-planner-variance-bench-") as data_dir:
        env = _server_env(data_dir)
        os.mkdir(env["STATIC_ROOT"])
        _manage(env, "migrate", "--noinput")
        _manage(env, "load_catalogue")
        scenario_id, cookie = _signed_in_scenario(env)
        seeded = _in_shell(
            env, f"SCENARIO_ID = {scenario_id}\n{A_YEAR_OF_ACTUALS}", "the year of actuals"
        )
        port = _free_port()
        server = Server(env, port, os.path.join(data_dir, "gunicorn.log"))
        try:
            server.wait_ready()
            empty, api, body = measure_against_empty(
                server,
                f"/api/v1/projects/{seeded['project_id']}/variance/",
                cookie,
                "GET variance API",
                b'"through":"2026-12"',
            )
        finally:
            server.stop()
    ratio = api["requests_per_second"] / empty["requests_per_second"]
    say(
        f"  variance API ({seeded['rows']} rows of actuals, {len(body):,} bytes) / empty"
        f"   {ratio:.1%} of the empty view's rate"
        f"   [target >= {TARGET_VARIANCE_RATIO:.0%}:"
        f" {'PASS' if ratio >= TARGET_VARIANCE_RATIO else 'MISS'}]"
    )
    return {
        "empty": empty,
        "variance_api": api,
        "ratio": ratio,
        "ok": empty["errors"] == 0 and api["errors"] == 0,
        "targets_met": ratio >= TARGET_VARIANCE_RATIO,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="a missed target fails")
    args = parser.parse_args()
    result = bench_variance()
    if not result["ok"]:
        return 1
    return 1 if args.strict and not result["targets_met"] else 0


if __name__ == "__main__":
    sys.exit(main())
