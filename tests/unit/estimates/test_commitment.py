"""Rented capacity bought on commitment: the terms, the discount, the busy hours beyond the
committed capacity paid on demand, and the committed capacity left idle (issue 23)."""

from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    EstimateInput,
    EstimateInputError,
    InferenceInput,
    Pricing,
    estimate,
    evaluate,
)
from apps.estimates.commitment import excess_accelerator_hours
from apps.estimates.units import HOURS_PER_MONTH

# 2 accelerator-seconds a request at 3.00 an accelerator-hour: 300,000 requests a month keep
# 166.67 accelerator-hours busy, so the peak needs ceil(300,000 / 2,629,800 s × 2 s / 0.7) = 1.
STEADY = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2.0,
    "requests_per_month": 300_000.0,
    "months": 12,
    "pricing": Pricing(price_per_accelerator_hour=3.0),
}


def committed(**fields) -> EstimateInput:
    given = {
        **STEADY,
        "provisioning": "committed",
        "commitment_years": 1,
        "upfront_share": 0.0,
        "commitment_discount": 0.4,
        **fields,
    }
    return EstimateInput(inference=InferenceInput(**given))


def test_a_commitment_costs_the_peak_capacity_at_the_discounted_price_for_every_hour():
    result = estimate(committed()).inference
    # 1 accelerator × 730.5 h a month × 12 months × 3.00 × (1 − 0.4) = 8,766 h × 1.80 = 15,778.80
    assert result.peak_accelerators == 1
    assert result.total.cost == Decimal("15778.80")
    assert result.commitment.commitment_cost == Decimal("15778.80")
    assert result.commitment.monthly_payment == Decimal("1314.90")  # 730.5 × 1.80
    assert result.commitment.upfront_per_term == Decimal("0.00")
    assert result.monthly[0].cost == Decimal("1314.90")
    assert result.monthly[-1].cumulative_cost == Decimal("15778.80")


@pytest.mark.parametrize(
    ("share", "upfront", "monthly"),
    [
        # upfront = share × 1,314.90 × 12; monthly = (1 − share) × 1,314.90
        (0.0, Decimal("0.00"), Decimal("1314.90")),
        (0.5, Decimal("7889.40"), Decimal("657.45")),
        (1.0, Decimal("15778.80"), Decimal("0.00")),
    ],
)
def test_the_upfront_share_splits_each_term_between_its_start_and_its_months(
    share, upfront, monthly
):
    commitment = estimate(committed(upfront_share=share)).inference.commitment
    assert commitment.upfront_per_term == upfront
    assert commitment.monthly_payment == monthly
    assert upfront + 12 * monthly == commitment.commitment_cost


def test_committed_capacity_left_idle_is_the_committed_hours_less_the_busy_ones():
    commitment = estimate(committed()).inference.commitment
    # Committed: 1 × 730.5 × 12 = 8,766 h; busy: 300,000 × 12 × 2 s / 3,600 = 2,000 h.
    assert commitment.idle_accelerator_hours == pytest.approx(6766.0)
    assert commitment.idle_share == pytest.approx(6766 / 8766)
    assert commitment.idle_cost == Decimal("12178.80")  # 6,766 h × 1.80
    assert commitment.on_demand_cost == Decimal("0.00")  # sized for the peak: nothing exceeds


def test_a_three_year_term_for_a_twelve_month_service_is_paid_for_thirty_six_months():
    result = estimate(committed(commitment_years=3, commitment_discount=0.6)).inference
    commitment = result.commitment
    # 730.5 × 36 × 3.00 × 0.4 = 31,557.60; the 24 months after the horizon are idle.
    assert commitment.terms == 1
    assert commitment.term_months == 36
    assert commitment.commitment_cost == Decimal("31557.60")
    assert result.total.cost == Decimal("31557.60")
    assert commitment.months_after_horizon == 24
    assert commitment.after_horizon_cost == Decimal("21038.40")  # 730.5 × 24 × 1.20
    assert commitment.idle_accelerator_hours == pytest.approx(730.5 * 36 - 2000)
    # The monthly series holds the horizon's twelve months only.
    assert result.monthly[-1].cumulative_cost == Decimal("10519.20")


def test_consecutive_terms_cover_a_horizon_longer_than_one_term():
    commitment = estimate(committed(months=30)).inference.commitment
    assert commitment.terms == 3  # ceil(30 / 12)
    assert commitment.months_after_horizon == 6
    assert commitment.commitment_cost == Decimal("47336.40")  # 730.5 × 36 × 1.80


def test_busy_hours_beyond_fewer_committed_accelerators_are_paid_on_demand():
    # 4,000,000 requests a month growing 10 %: 2,222.2 busy hours in month 1, the peak (month
    # 12) needs ceil(4e6 × 1.1^11 / 2,629,800 s × 2 s / 0.7) = ceil(12.4) = 13. Three committed
    # accelerators serve 3 × 730.5 × 0.7 = 1,534.05 h a month: every month exceeds it.
    inp = committed(requests_per_month=4_000_000.0, monthly_growth=0.1, committed_accelerators=3)
    result = estimate(inp).inference
    first = 4_000_000 * 2 / 3600
    monthly_hours = [first * 1.1**m for m in range(12)]
    excess = sum(max(0.0, h - 3 * HOURS_PER_MONTH * 0.7) for h in monthly_hours)
    assert result.peak_accelerators == 13
    assert result.commitment.committed_accelerators == 3
    assert result.commitment.on_demand_accelerator_hours == pytest.approx(excess)
    assert result.commitment.on_demand_cost == Decimal(f"{excess * 3.0:.2f}")
    # Commitment: 3 × 730.5 × 12 × 1.80 = 47,336.40, plus the excess at 3.00.
    assert result.total.cost == Decimal("47336.40") + result.commitment.on_demand_cost
    month_1 = monthly_hours[0] - 3 * HOURS_PER_MONTH * 0.7
    assert result.monthly[0].cost == Decimal(f"{3 * 730.5 * 1.8 + month_1 * 3.0:.2f}")


@pytest.mark.parametrize("growth", [0.0, 0.07, -0.05, 0.3])
@pytest.mark.parametrize("capacity", [0.0, 150.0, 400.0, 5000.0])
def test_the_excess_in_closed_form_is_the_month_by_month_sum(growth, capacity):
    first, months = 250.0, 24
    by_month = sum(max(0.0, first * (1 + growth) ** m - capacity) for m in range(months))
    assert excess_accelerator_hours(first, growth, float(months), capacity) == pytest.approx(
        by_month, abs=1e-9
    )


def test_the_excess_of_arrays_is_the_excess_of_each_point():
    growth = np.array([0.0, 0.07, -0.05, 0.3])
    capacity = np.array([150.0, 400.0, 0.0, 5000.0])
    arrays = excess_accelerator_hours(250.0, growth, 24.0, capacity)
    points = [
        excess_accelerator_hours(250.0, g, 24.0, c) for g, c in zip(growth, capacity, strict=True)
    ]
    np.testing.assert_array_equal(arrays, points)


def test_evaluate_with_arrays_agrees_with_each_scenario():
    shares = np.array([0.0, 0.5, 1.0])
    discounts = np.array([0.2, 0.4, 0.6])
    figures = evaluate(committed(upfront_share=shares, commitment_discount=discounts))
    for index in range(3):
        one = evaluate(committed(upfront_share=shares[index], commitment_discount=discounts[index]))
        assert figures.inference_cost[index] == one.inference_cost
    # 8,766 committed hours × 3.00 × (1 − discount)
    np.testing.assert_allclose(figures.inference_cost, 8766 * 3.0 * (1 - discounts))


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        ({"commitment_years": 2}, "inference.commitment_years"),
        ({"commitment_discount": None}, "inference.commitment_discount"),
        ({"commitment_discount": 1.0}, "inference.commitment_discount"),
        ({"upfront_share": 1.5}, "inference.upfront_share"),
        (
            {"pricing": Pricing(mode="own", purchase_price=30_000.0)},
            "inference.provisioning",
        ),
    ],
)
def test_a_commitment_that_cannot_be_bought_is_refused_at_its_field(fields, key):
    with pytest.raises(EstimateInputError) as error:
        estimate(committed(**fields))
    assert key in error.value.errors
