"""Training on an accelerator without a price (V100, TPU v4, TPU v5p have no catalogue rental
price): FLOP, accelerator-hours, wall-clock, energy and emissions are given; the cost is None with
a note saying which price is missing, in the figures, the comparison, the sweeps and the budget."""

from dataclasses import replace
from datetime import date

import numpy as np

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
    evaluate,
)
from apps.estimates.budget import BudgetRules, FiscalCalendar, budget, compute_lines
from apps.estimates.budget.uncertainty import budget_uncertainty
from apps.estimates.uncertainty_draws import Range

# V100 SXM2: dense 125 TFLOP/s FP16, 300 W; no rental price in the catalogue.
V100 = Hardware(peak_flops_per_second=125e12, power_watts=300.0)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4)
# GPT-3: 6 × 175e9 × 300e9 = 3.15e23 FLOP.
GPT3 = TrainingInput(
    method="parameters_tokens",
    parameters=175e9,
    tokens=300e9,
    hardware=V100,
    accelerator_count=1024,
    pricing=Pricing(),
)
SERVING = InferenceInput(
    method="accelerator_seconds",
    accelerator_seconds_per_request=2.0,
    requests_per_month=15_000,
    pricing=Pricing(price_per_accelerator_hour=2.0),
)


def test_training_without_a_rental_price_gives_every_figure_but_the_cost():
    training = estimate(EstimateInput(training=GPT3, energy=ENERGY)).training
    assert training.flop == 3.15e23
    hours = 3.15e23 / (125e12 * 0.25) / 3600  # 2,800,000 accelerator-hours at the default MFU
    assert training.accelerator_hours == hours
    assert training.wall_clock_hours == hours / 1024
    assert training.energy_kwh == hours * 0.3 * 1.2
    assert training.emissions_kg_co2e == training.energy_kwh * 0.4
    assert training.cost is None
    assert training.price_per_accelerator_hour is None
    assert training.cost_note.startswith("Not priced: no price per accelerator-hour was given")
    assert training.cost_note.msgid  # an engine Message, translated at the edge
    assert training.cost_note in training.assumptions
    assert not any("Rented at" in note for note in training.assumptions)


def test_owned_training_without_a_purchase_price_names_the_purchase_price():
    owned = replace(GPT3, pricing=Pricing(mode="own"))
    training = estimate(EstimateInput(training=owned, energy=ENERGY)).training
    assert training.cost is None
    assert training.cost_note.startswith("Not priced: no purchase price was given")


def test_a_priced_training_has_no_cost_note():
    priced = replace(GPT3, pricing=Pricing(price_per_accelerator_hour=1.0))
    training = estimate(EstimateInput(training=priced)).training
    assert training.cost is not None
    assert training.cost_note is None


def test_unpriced_training_beside_serving_compares_hours_but_not_cost():
    result = estimate(EstimateInput(training=GPT3, inference=SERVING, energy=ENERGY))
    comparison = result.comparison
    assert comparison.break_even_months is not None or comparison.training_share is not None
    assert comparison.training_share is not None
    assert comparison.training_share_cost is None
    assert comparison.break_even_months_cost is None
    assert all(month.training_cost is None for month in comparison.cumulative)
    assert result.inference.total.cost is not None


def test_unpriced_training_is_nan_in_the_vectorised_figures_and_agrees_with_the_scalar():
    tokens = np.array([1e11, 3e11])
    figures = evaluate(EstimateInput(training=replace(GPT3, tokens=tokens), energy=ENERGY))
    assert np.isnan(figures.training_cost).all()
    for index, count in enumerate(tokens.tolist()):
        scalar = estimate(EstimateInput(training=replace(GPT3, tokens=count), energy=ENERGY))
        assert figures.training_accelerator_hours[index] == scalar.training.accelerator_hours
        assert figures.training_energy_kwh[index] == scalar.training.energy_kwh


def test_the_budget_leaves_unpriced_training_out_with_a_note_and_keeps_serving():
    inp = EstimateInput(training=replace(GPT3, accelerator_count=100_000), inference=SERVING)
    result = estimate(inp)
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2027, 12, 31))
    computed = compute_lines(inp, result, calendar, training_start=date(2026, 1, 1))
    table = budget(calendar, BudgetRules(), computed=computed)
    kinds = {line.kind for line in table.lines}
    assert "training_compute" not in kinds
    assert "inference_compute" in kinds
    assert any(note.startswith("Training compute is not in the budget") for note in table.notes)


def test_the_budgets_ranges_leave_unpriced_owned_training_out_and_keep_serving():
    owned = replace(GPT3, pricing=Pricing(mode="own"), accelerator_count=100_000)
    inp = EstimateInput(training=owned, inference=SERVING)
    calendar = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2027, 12, 31))
    ranges = {"inference.requests_per_month": Range(10_000, 20_000)}
    result = budget_uncertainty(
        inp, ranges, calendar, BudgetRules(), samples=1000, training_start=date(2026, 1, 1)
    )
    central = budget(
        calendar,
        BudgetRules(),
        computed=compute_lines(inp, estimate(inp), calendar, training_start=date(2026, 1, 1)),
    )
    capex = result.figures["totals.capex"]
    assert capex.p5 == capex.p95 == central.summary.upfront == 0
    assert result.figures["totals.opex"].p95 > 0
