"""The decision view's option committed for a term (`rent_committed`): its crossovers with
paying per use and with keeping the same accelerators always on, and its month in the chart
(issue 23)."""

from datetime import date

import pytest

from apps.estimates import EstimateInput, InferenceInput, Pricing
from apps.estimates.budget import BudgetRules, FiscalCalendar
from apps.estimates.options import (
    OptionInput,
    compare_options,
    monthly_cost_at,
    months_of_payments,
)
from apps.estimates.units import HOURS_PER_MONTH

CALENDAR = FiscalCalendar(1, "end_year", date(2027, 1, 1), date(2029, 12, 31))
# One accelerator-second a request at 3.00 an accelerator-hour; requests are steady.
SELF_HOST = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 1.0,
    "pricing": Pricing(price_per_accelerator_hour=3.0),
}


def rented(key: str, requests: float, months: int = 12, **inference) -> OptionInput:
    provisioning = {
        "rent_pay_per_use": "pay_per_use",
        "rent_always_on": "always_on",
        "rent_committed": "committed",
    }[key]
    return OptionInput(
        key,
        EstimateInput(
            inference=InferenceInput(
                **SELF_HOST,
                requests_per_month=requests,
                months=months,
                provisioning=provisioning,
                commitment_years=inference.pop("commitment_years", 1),
                commitment_discount=inference.pop("commitment_discount", 0.4),
                **inference,
            )
        ),
    )


def requests_for_busy_share(share: float) -> float:
    """Steady requests a month that keep one accelerator busy `share` of every hour."""
    return share * HOURS_PER_MONTH * 3600


@pytest.mark.parametrize(
    ("share", "cheapest"), [(0.59, "rent_pay_per_use"), (0.61, "rent_committed")]
)
def test_a_commitment_beats_paying_per_use_above_one_minus_its_discount_busy(share, cheapest):
    # One accelerator committed at 40 % off costs 730.5 h × 3.00 × 0.6 a month whatever its
    # use; paying per use costs busy hours × 3.00: the same at a busy share of 1 − 0.4 = 0.6.
    requests = requests_for_busy_share(share)
    options = [rented("rent_pay_per_use", requests), rented("rent_committed", requests)]
    comparison = compare_options(options, CALENDAR, BudgetRules())
    assert all(result.accelerators == 1 for result in comparison.options)
    assert comparison.cheapest == cheapest
    assert comparison.commitment.busy_share_over_pay_per_use == pytest.approx(0.6)
    (crossover,) = comparison.crossovers
    assert crossover.options == ("rent_committed", "rent_pay_per_use")
    assert crossover.requests_per_month == pytest.approx(requests_for_busy_share(0.6))


@pytest.mark.parametrize(("months", "cheapest"), [(14, "rent_always_on"), (15, "rent_committed")])
def test_a_three_year_commitment_beats_always_on_when_the_service_outlasts_its_share(
    months, cheapest
):
    # 36 months at 60 % off cost 36 × 0.4 = 14.4 months of always-on: the same accelerators
    # kept on for 14 months cost less, for 15 months more.
    requests = requests_for_busy_share(0.5)
    options = [
        rented("rent_always_on", requests, months),
        rented("rent_committed", requests, months, commitment_years=3, commitment_discount=0.6),
    ]
    comparison = compare_options(options, CALENDAR, BudgetRules(discount_rate=0.0))
    assert comparison.cheapest == cheapest
    assert comparison.commitment.service_months_over_always_on == pytest.approx(14.4)
    assert comparison.commitment.term_months == 36
    # Paying per use instead would need a busy share of 0.4 × 36 / months.
    assert comparison.commitment.busy_share_over_pay_per_use == pytest.approx(0.4 * 36 / months)


def test_a_comparison_without_a_commitment_has_no_commitment_crossover():
    options = [rented("rent_pay_per_use", 1e5), rented("rent_always_on", 1e5)]
    assert compare_options(options, CALENDAR, BudgetRules()).commitment is None


def test_a_committed_month_in_the_chart_is_the_commitment_over_its_horizon():
    # Steady volumes that one accelerator serves: 730.5 × 3.00 × 0.6 = 1,314.90 a month. A
    # 3-year term for a 12-month horizon costs three years over twelve months.
    volumes = [1e3, 1e5]
    one_year = monthly_cost_at(rented("rent_committed", 1e3), volumes)
    assert one_year == pytest.approx([HOURS_PER_MONTH * 1.8] * 2)
    three_years = monthly_cost_at(
        rented("rent_committed", 1e3, commitment_years=3, commitment_discount=0.6), volumes
    )
    assert three_years == pytest.approx([HOURS_PER_MONTH * 1.2 * 3] * 2)


def test_a_committed_option_is_paid_for_the_whole_terms_that_cover_its_horizon():
    assert months_of_payments(rented("rent_committed", 1e3, 12).estimate) == 12
    assert months_of_payments(rented("rent_committed", 1e3, 13).estimate) == 24
    three = rented("rent_committed", 1e3, 12, commitment_years=3, commitment_discount=0.6)
    assert months_of_payments(three.estimate) == 36
    assert months_of_payments(rented("rent_always_on", 1e3, 13).estimate) == 13
