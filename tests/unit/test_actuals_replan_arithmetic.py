"""Demand measured from actuals, computed by hand: requests from usage ÷ a request's use, and the
growth as the geometric mean of the last three month-on-month ratios."""

import pytest

from apps.actuals.replan import TOKENS, fitted_growth, measured_demand, requests_by_month


def test_requests_are_usage_divided_by_a_requests_use():
    assert requests_by_month({10: 1_500_000.0, 11: 0.0}, 1_500.0) == {10: 1_000.0}


def test_growth_is_the_geometric_mean_of_the_last_three_ratios():
    # 1,000 → 1,100 → 1,320 → 1,452: ratios 1.1, 1.2, 1.1; (1.452)^(1/3) = 1.132371…
    requests = {5: 400.0, 6: 1_000.0, 7: 1_100.0, 8: 1_320.0, 9: 1_452.0}
    growth, ratios = fitted_growth(requests, 9)
    assert ratios == 3
    assert growth == pytest.approx((1.1 * 1.2 * 1.1) ** (1 / 3) - 1)
    assert growth == pytest.approx(0.132371, abs=1e-6)


def test_growth_uses_fewer_ratios_after_a_gap_and_none_with_one_month():
    assert fitted_growth({5: 10.0, 7: 1_000.0, 8: 1_100.0, 9: 1_210.0}, 9) == pytest.approx(
        (0.1, 2)
    )
    assert fitted_growth({5: 800.0, 7: 1_000.0}, 7) == (0.0, 0)


def test_the_month_in_progress_is_left_out():
    # Tokens: 2,000 a request. Months 20 to 23 full; 24 in progress (a few days billed).
    usage = {20: 2e6, 21: 2.2e6, 22: 2.42e6, 23: 2.662e6, 24: 0.3e6}
    demand = measured_demand(usage, 2_000.0, before=24, basis=TOKENS)
    assert demand.month == 23
    assert demand.requests_per_month == pytest.approx(1_331.0)
    assert demand.monthly_growth == pytest.approx(0.1)
    assert demand.ratios == 3
    assert measured_demand({24: 1e6}, 2_000.0, before=24, basis=TOKENS) is None
