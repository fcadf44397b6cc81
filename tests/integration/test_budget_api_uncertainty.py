"""GET /api/v1/scenarios/{id}/budget/ when the scenario's inputs carry ranges: the `uncertainty`
block (the estimate's shape, keyed by the budget's own paths), its seed, and its schema."""

import pytest

from apps.budget.services import cost_line_create
from apps.estimates.budget.uncertainty import figure_paths
from apps.projects.services import scenario_update
from tests.factories import SEED_000_TRAINING, seed_000_inference
from tests.integration import test_budget_api as base
from tests.integration.test_budget_models import STAFF

pytestmark = pytest.mark.django_db

scenario, api, budget_url = base.scenario, base.api, base.budget_url  # owner: the conftest's
PLAIN = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
RANGES = {
    "training.accelerator_hours": {"low": 100, "high": 400},
    "inference.requests_per_month": {"low": 5_000, "high": 50_000},
}


def save_inputs(scenario, inputs: dict) -> None:
    scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=inputs,
        user=scenario.project.owner,
        expected_version=scenario.version,
    )
    scenario.refresh_from_db()


def ranged(seed: int | None = 4, samples: int = 5_000, **ranges) -> dict:
    settings = {"samples": samples, **({"seed": seed} if seed is not None else {})}
    return {**PLAIN, "ranges": ranges or RANGES, "uncertainty": settings}


def test_without_ranges_there_is_no_uncertainty_and_the_answer_is_unchanged(api, scenario):
    save_inputs(scenario, PLAIN)
    plain = api.get(budget_url(scenario))
    assert plain.status_code == 200
    assert "uncertainty" not in plain.json()
    # Sampling settings alone are no ranges: the same answer, byte for byte.
    save_inputs(scenario, {**PLAIN, "uncertainty": {"samples": 5_000, "seed": 1}})
    assert api.get(budget_url(scenario)).content == plain.content


def test_ranges_add_percentiles_of_the_totals_and_of_every_fiscal_year(api, scenario):
    cost_line_create(scenario=scenario, fields=dict(STAFF))
    save_inputs(scenario, PLAIN)
    without = api.get(budget_url(scenario)).json()
    save_inputs(scenario, ranged())
    body = api.get(budget_url(scenario)).json()
    # The central budget is the same: the ranges only add their block.
    assert {key: value for key, value in body.items() if key != "uncertainty"} == without
    block = body["uncertainty"]
    assert (block["samples"], block["seed"]) == (5_000, 4)
    figures = block["figures"]
    years = len(body["fiscal_years"])
    assert years == 2
    expected = {
        "summary.total", "summary.upfront", "summary.annual_run_rate", "summary.npv",
        "totals.capex", "totals.opex", "totals.contingency", "totals.indirect",
        *(f"totals.{row}.{year}" for year in range(years) for row in ("capex", "opex", "total")),
    }  # fmt: skip
    assert set(figures) == expected == set(figure_paths(years))
    for path, figure in figures.items():
        assert set(figure) == {"p5", "p50", "p95", "mean"}, path
        assert all(isinstance(value, str) for value in figure.values()), path  # money strings
        assert float(figure["p5"]) <= float(figure["p50"]) <= float(figure["p95"]), path
    total = figures["summary.total"]
    assert float(total["p5"]) < float(body["summary"]["total"]) < float(total["p95"])
    # The staff line carries no range: it is in every sample, so the totals are above it.
    staff = 2 * 1.5 * 90_000  # yearly, in 2026 and 2027
    assert float(total["p5"]) > staff
    # A year's total is the percentile of per-sample totals: no more than the sum of its
    # parts' 95th percentiles (equal only if they moved together, which training and
    # inference here do not).
    year = figures["totals.total.0"]
    parts = float(figures["totals.capex.0"]["p95"]) + float(figures["totals.opex.0"]["p95"])
    assert float(year["p95"]) <= parts
    assert block["clipped"] == {}
    assert block["shared"] == []


def test_a_scenario_saved_with_ranges_keeps_its_seed_and_repeats_its_figures(api, scenario):
    save_inputs(scenario, ranged(seed=None))
    seed = scenario.inputs["uncertainty"]["seed"]
    first = api.get(budget_url(scenario)).json()["uncertainty"]
    assert first["seed"] == seed
    save_inputs(scenario, ranged(seed=None))  # saved again: the seed stays
    assert api.get(budget_url(scenario)).json()["uncertainty"] == first


def test_another_seed_draws_other_samples_with_figures_within_the_sampling_error(api, scenario):
    save_inputs(scenario, ranged(seed=1))
    first = api.get(budget_url(scenario)).json()["uncertainty"]["figures"]
    save_inputs(scenario, ranged(seed=2))
    second = api.get(budget_url(scenario)).json()["uncertainty"]["figures"]
    a, b = float(first["summary.total"]["p50"]), float(second["summary.total"]["p50"])
    assert a != b
    assert b == pytest.approx(a, rel=0.05)


def test_the_project_budget_is_its_baselines_with_its_ranges(api, scenario):
    save_inputs(scenario, ranged())
    project = api.get(f"/api/v1/projects/{scenario.project_id}/budget/").json()
    assert project == api.get(budget_url(scenario)).json()


def test_a_price_sampled_once_for_training_and_inference_is_reported(api, scenario):
    inputs = {
        "training": {**SEED_000_TRAINING, "price_per_accelerator_hour": 3.0},
        "inference": seed_000_inference(15_000, price_per_accelerator_hour=3.0),
        "ranges": {"training.price_per_accelerator_hour": {"low": 2, "high": 5}},
        "uncertainty": {"samples": 2_000},
    }
    save_inputs(scenario, inputs)
    block = api.get(budget_url(scenario)).json()["uncertainty"]
    assert block["shared"] == [
        ["training.price_per_accelerator_hour", "inference.price_per_accelerator_hour"]
    ]


def test_the_schema_documents_the_budgets_uncertainty(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    budget = components["Budget"]
    assert "uncertainty" in budget["properties"]
    assert "uncertainty" not in budget.get("required", [])
    block = components["BudgetUncertainty"]["properties"]
    assert {"samples", "seed", "figures", "clipped", "shared"} <= set(block)
    figure = block["figures"]["additionalProperties"]["$ref"].rpartition("/")[2]
    assert set(components[figure]["properties"]) == {"p5", "p50", "p95", "mean"}
    assert "totals.total.<i>" in block["figures"]["description"]
