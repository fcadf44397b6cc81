"""Ranges on a budget: every sample's budget is the budget arithmetic on that sample's inputs,
and its percentiles match closed forms within the sampling error the sample count predicts."""

import math
from collections import defaultdict
from dataclasses import replace
from datetime import date
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    EstimateInput,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
)
from apps.estimates.budget import (
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    budget,
    compute_lines,
)
from apps.estimates.budget.uncertainty import budget_uncertainty, figure_paths
from apps.estimates.inputs import with_value
from apps.estimates.uncertainty import sample
from apps.estimates.uncertainty_draws import Range, draw_inputs
from tests.unit.estimates.test_budget_compute import (
    ENERGY,
    OCTOBER,
    OWN,
    SERVING,
    TRAINING,
)
from tests.unit.estimates.test_uncertainty_closed_forms import (
    SAFETY,
    K,
    log_moments,
    lognormal_percentiles,
    within_sampling_error,
)

EIGHT_MONTHS = FiscalCalendar(1, "end_year", date(2026, 3, 1), date(2026, 10, 31))
RULES = BudgetRules(
    contingency_capex=0.05, contingency_opex=0.1, indirect_rate=0.07, discount_rate=0.035
)
STAFF = CostLineInput(
    name="Staff",
    kind="staff",
    quantity=2,
    unit="FTE-month",
    unit_price=8000,
    recurrence="monthly",
    start=date(2026, 2, 1),
    annual_escalation=0.03,
)
RANGES = {
    "training.tokens": Range(1e12, 4e12),
    "training.pricing.price_per_accelerator_hour": Range(1.5, 4.0),  # and inference's: one
    "inference.requests_per_month": Range(5e4, 5e5),
}
OWN_RANGES = {
    "training.tokens": Range(1e12, 4e12),
    "training.pricing.purchase_price": Range(2e4, 4e4),
    "inference.requests_per_month": Range(5e4, 5e5),
    "energy.electricity_price_per_kwh": Range(0.08, 0.3),
}
API_RANGES = {
    "training.tokens": Range(5e7, 4e8),
    "inference.requests_per_month": Range(5e4, 5e5),
    "inference.output_tokens": Range(200, 800),
}
RENTED = EstimateInput(training=TRAINING, inference=SERVING, energy=ENERGY)
OWNED = EstimateInput(
    training=replace(TRAINING, pricing=OWN),
    inference=replace(SERVING, pricing=OWN),
    energy=ENERGY,
)
THROUGH_APIS = EstimateInput(
    training=TrainingInput(
        method="api_fine_tune", tokens=1e8, epochs=2, price_per_million_training_tokens=8.0
    ),
    inference=InferenceInput(
        method="external_api",
        input_tokens=600,
        output_tokens=400,
        requests_per_month=150_000,
        monthly_growth=0.02,
        months=24,
        price_per_million_input_tokens=0.5,
        price_per_million_output_tokens=2.0,
    ),
    energy=ENERGY,
)


def _at(inputs: EstimateInput, path: str):
    node = inputs
    for part in path.split("."):
        node = getattr(node, part)
    return node


def budgets_sample_by_sample(inp, ranges, calendar, lines, samples, seed, **timing) -> dict:
    """Each sample's budget drawn up on its own by the scalar arithmetic (estimate,
    compute_lines, budget), its figures by the paths of `figure_paths`."""
    drawn = draw_inputs(inp, ranges, samples, seed)
    ranged = [path for paths in drawn.shared for path in paths] + list(ranges)
    values = defaultdict(list)
    for index in range(samples):
        one = inp
        for path in ranged:
            value = _at(drawn.inputs, path)
            one = with_value(one, tuple(path.split(".")), float(np.asarray(value)[index]))
        drawn_up = budget(
            calendar, RULES, lines, compute_lines(one, estimate(one), calendar, **timing)
        )
        summary, totals = drawn_up.summary, drawn_up.totals
        for name in ("total", "upfront", "annual_run_rate", "npv"):
            values[f"summary.{name}"].append(float(getattr(summary, name)))
        for name in ("capex", "opex", "contingency", "indirect"):
            values[f"totals.{name}"].append(float(sum(getattr(totals, name))))
        for name in ("capex", "opex", "total"):
            for year, amount in enumerate(getattr(totals, name)):
                values[f"totals.{name}.{year}"].append(float(amount))
    return values


@pytest.mark.parametrize(
    ("inp", "ranges", "calendar", "timing"),
    [
        pytest.param(RENTED, RANGES, OCTOBER, {}, id="rented, service after each training"),
        pytest.param(
            RENTED, RANGES, OCTOBER, {"training_start": date(2026, 11, 17)}, id="late start"
        ),
        pytest.param(
            RENTED, RANGES, OCTOBER, {"service_start": date(2026, 9, 1)}, id="service fixed"
        ),
        pytest.param(
            replace(RENTED, inference=replace(SERVING, provisioning="always_on")),
            {**RANGES, "inference.monthly_growth": Range(-0.02, 0.1)},
            OCTOBER,
            {},
            id="always on, ranged growth",
        ),
        pytest.param(
            replace(
                RENTED,
                inference=replace(
                    SERVING,
                    provisioning="committed",
                    upfront_share=0.5,
                    commitment_discount=0.4,
                ),
            ),
            RANGES,
            OCTOBER,
            {},
            id="committed, half upfront",
        ),
        pytest.param(
            replace(
                RENTED,
                inference=replace(
                    SERVING,
                    provisioning="committed",
                    commitment_years=3,
                    upfront_share=1.0,
                    commitment_discount=0.6,
                    committed_accelerators=1,
                ),
            ),
            {**RANGES, "inference.monthly_growth": Range(-0.02, 0.1)},
            OCTOBER,
            {"service_start": date(2026, 9, 1)},
            id="committed for 3 years all upfront, fewer accelerators than the peak",
        ),
        pytest.param(OWNED, OWN_RANGES, OCTOBER, {}, id="owned: purchases and power"),
        pytest.param(THROUGH_APIS, API_RANGES, OCTOBER, {}, id="vendor APIs"),
        pytest.param(RENTED, RANGES, EIGHT_MONTHS, {}, id="a period under a year"),
    ],
)
def test_each_samples_budget_is_the_budget_arithmetic_on_that_samples_inputs(
    inp, ranges, calendar, timing
):
    samples, seed = 300, 3
    result = budget_uncertainty(
        inp, ranges, calendar, RULES, [STAFF], samples=samples, seed=seed, **timing
    )
    expected = budgets_sample_by_sample(inp, ranges, calendar, [STAFF], samples, seed, **timing)
    assert set(result.figures) == set(expected)
    for path, values in expected.items():
        figure = result.figures[path]
        low, middle, high = np.quantile(values, [0.05, 0.5, 0.95])
        # The scalar budget rounds each month to the cent; the samples are not rounded.
        assert float(figure.p5) == pytest.approx(low, abs=0.5), path
        assert float(figure.p50) == pytest.approx(middle, abs=0.5), path
        assert float(figure.p95) == pytest.approx(high, abs=0.5), path
        assert float(figure.mean) == pytest.approx(np.mean(values), abs=0.5), path
    # The figures vary from sample to sample: the check is not of constants.
    assert len(set(expected["summary.total"])) > samples // 2


def test_a_budget_affine_in_one_lognormal_driver_has_its_percentiles_exactly_known():
    """Rented training of H accelerator-hours at 3.00 an hour on 64 accelerators (at most half
    a day, inside its start month and first fiscal year), and a staff line: every total is
    (1 + contingency on opex) · (1 + indirect rate) · 3 · H plus the staff line's, so its
    percentiles are those of the lognormal H, mapped through that line."""
    hours = Range(200, 800)
    inp = EstimateInput(
        training=TrainingInput(
            method="accelerator_hours",
            accelerator_hours=500,
            accelerator_count=64,
            pricing=Pricing(mode="rent", price_per_accelerator_hour=3.0),
        )
    )
    samples = 100_000
    result = budget_uncertainty(
        inp,
        {"training.accelerator_hours": hours},
        OCTOBER,
        RULES,
        [STAFF],
        samples=samples,
        seed=11,
        training_start=date(2026, 1, 5),
    )
    staff_only = budget(OCTOBER, RULES, [STAFF])
    slope = 3.0 * 1.1 * 1.07
    mu, sigma = log_moments(hours)
    hours_percentiles = lognormal_percentiles(mu, sigma)
    for path, offset in (
        ("summary.total", staff_only.summary.total),
        ("totals.total.0", staff_only.totals.total[0]),
        ("summary.npv", staff_only.summary.npv),
    ):
        figure = result.figures[path]
        for name, k in K.items():
            expected = slope * hours_percentiles[name] + float(offset)
            allowed = SAFETY * k * sigma / math.sqrt(samples) * slope * hours_percentiles[name]
            assert abs(float(getattr(figure, name)) - expected) <= allowed, (path, name)
    # The second year holds the staff line only: the same in every sample.
    later = result.figures["totals.total.1"]
    assert later.p5 == later.p95 == pytest.approx(staff_only.totals.total[1], abs=Decimal("0.01"))


def test_a_budget_that_is_a_product_of_two_lognormal_drivers_is_lognormal():
    """A year of rented serving, no growth, no training: the budget is demand × price × a
    constant, a lognormal whose μ and σ add up those of the two drivers."""
    requests, price = Range(2e5, 5e6), Range(1.5, 4.0)
    year = FiscalCalendar(1, "end_year", date(2026, 1, 1), date(2026, 12, 31))
    inp = EstimateInput(inference=replace(SERVING, monthly_growth=0.0, months=12))
    samples = 100_000
    result = budget_uncertainty(
        inp,
        {
            "inference.requests_per_month": requests,
            "inference.pricing.price_per_accelerator_hour": price,
        },
        year,
        RULES,
        samples=samples,
        seed=5,
        training_start=date(2026, 1, 1),
    )
    (r_mu, r_sigma), (p_mu, p_sigma) = log_moments(requests), log_moments(price)
    opex_mu = r_mu + p_mu + math.log(12 * 2.0 / 3600)  # twelve months of 2 accelerator-seconds
    sigma = math.hypot(r_sigma, p_sigma)
    expected = lognormal_percentiles(opex_mu + math.log(1.1 * 1.07), sigma)
    for path in ("summary.total", "totals.total.0", "summary.npv"):
        assert within_sampling_error(result.figures[path], expected, sigma, samples), path
    # The run-rate is opex alone, before contingency and indirect costs.
    opex = lognormal_percentiles(opex_mu, sigma)
    for path in ("summary.annual_run_rate", "totals.opex", "totals.opex.0"):
        assert within_sampling_error(result.figures[path], opex, sigma, samples), path


def test_the_budgets_samples_are_the_estimates_samples():
    """An inference-only scenario served wholly within the period, no contingency: each
    sample's budget total is its inference cost, so the budget's percentiles are the
    estimate's, to the cent, from the same seed (common random numbers)."""
    inp = EstimateInput(inference=SERVING, energy=ENERGY)
    ranges = {"inference.requests_per_month": Range(5e4, 5e5), "energy.pue": Range(1.1, 1.4)}
    budgeted = budget_uncertainty(
        inp, ranges, OCTOBER, BudgetRules(), samples=20_000, seed=9, training_start=date(2026, 1, 1)
    )
    estimated = sample(inp, ranges, 20_000, seed=9).figures["inference.total.cost"]
    total = budgeted.figures["summary.total"]
    for name in ("p5", "p50", "p95", "mean"):
        assert abs(getattr(total, name) - getattr(estimated, name)) <= Decimal("0.05"), name


def test_the_same_seed_gives_the_same_figures_and_another_seed_figures_within_the_error():
    def drawn_up(seed: int):
        return budget_uncertainty(
            RENTED, RANGES, OCTOBER, RULES, [STAFF], samples=20_000, seed=seed
        )

    first, again, other = drawn_up(1), drawn_up(1), drawn_up(2)
    assert first == again
    assert first.figures != other.figures
    for path in ("summary.total", "summary.npv", "totals.total.1"):
        a, b = first.figures[path], other.figures[path]
        assert a.p50 != b.p50
        assert float(b.p50) == pytest.approx(float(a.p50), rel=0.05)


def test_figures_are_money_and_the_shared_price_is_reported():
    result = budget_uncertainty(RENTED, RANGES, OCTOBER, RULES, [STAFF], samples=2_000)
    figure = result.figures["summary.total"]
    assert all(isinstance(value, Decimal) for value in vars(figure).values() if value is not None)
    assert figure.p5 < figure.p50 < figure.p95
    assert result.shared == (
        (
            "training.pricing.price_per_accelerator_hour",
            "inference.pricing.price_per_accelerator_hour",
        ),
    )
    assert set(result.figures) == set(figure_paths(4))  # FY2026 to FY2029 in October years
