"""Hand-worked cases for every formula of the estimate engine, on floats and on arrays."""

import math

import numpy as np
import pytest

from apps.estimates import formulas as f
from apps.estimates.units import FLOP_PER_PETAFLOP_S_DAY, HOURS_PER_MONTH, SECONDS_PER_MONTH

H100_BF16_FLOPS = 989.4e12  # H100 SXM, dense bf16
H100_BANDWIDTH = 3.35e12  # bytes/s


def test_month_and_petaflop_day_constants_follow_the_calendar():
    # 365.25 days · 24 h / 12 months = 730.5 h; 730.5 · 3600 s = 2,629,800 s.
    assert HOURS_PER_MONTH == 730.5
    assert SECONDS_PER_MONTH == 2_629_800
    # One petaFLOP/s for a day: 1e15 · 86,400 s.
    assert FLOP_PER_PETAFLOP_S_DAY == 8.64e19


def test_training_flop_is_six_times_parameters_times_tokens():
    # 6 · 7e9 parameters · 2e12 tokens · 1 run = 8.4e22 FLOP.
    assert f.training_flop(7e9, 2e12, 6.0, 1.0) == pytest.approx(8.4e22, rel=1e-15)


def test_training_flop_counts_every_run():
    # Three runs of the same model cost three times one run.
    assert f.training_flop(7e9, 2e12, 6.0, 3.0) == pytest.approx(2.52e23, rel=1e-15)


def test_accelerator_hours_of_a_7b_model_on_h100():
    # 8.4e22 / (989.4e12 FLOP/s · MFU 0.4 · goodput 1) = 212,249,848 s; / 3600 = 58,958.29 h.
    hours = f.accelerator_hours_from_flop(8.4e22, H100_BF16_FLOPS, 0.4, 1.0)
    assert hours == pytest.approx(58_958.29122, rel=1e-9)


def test_goodput_below_one_adds_accelerator_hours():
    # Losing 10% of the time (goodput 0.9) needs 1/0.9 of the hours: 58,958.29 / 0.9 = 65,509.21.
    hours = f.accelerator_hours_from_flop(8.4e22, H100_BF16_FLOPS, 0.4, 0.9)
    assert hours == pytest.approx(65_509.21247, rel=1e-9)


def test_flop_from_accelerator_hours_inverts_accelerator_hours_from_flop():
    # 200 h · 3600 s · 989.4e12 · 0.4 · 1 = 2.849472e20 FLOP.
    flop = f.flop_from_accelerator_hours(200.0, H100_BF16_FLOPS, 0.4, 1.0)
    assert flop == pytest.approx(2.849472e20, rel=1e-12)
    assert f.accelerator_hours_from_flop(flop, H100_BF16_FLOPS, 0.4, 1.0) == pytest.approx(200.0)


def test_wall_clock_hours_divide_accelerator_hours_by_accelerators_in_parallel():
    # 8 accelerators for 1 hour are 8 accelerator-hours: 1024 a-h / 8 = 128 h of waiting.
    assert f.wall_clock_hours(1024.0, 8.0) == 128.0


def test_petaflop_s_days_of_gpt3():
    # GPT-3: 3.14e23 FLOP / 8.64e19 = 3,634.26 petaflop/s-days (the paper rounds to ≈3,640).
    days = f.petaflop_s_days(3.14e23)
    assert days == pytest.approx(3_634.259259, rel=1e-9)
    assert days == pytest.approx(3_640, rel=0.005)


def test_eu_threshold_is_exceeded_only_when_strictly_greater():
    # EU AI Act Art. 51(2): "greater than 10^25".
    assert not f.exceeds(1e25, 1e25)
    assert f.exceeds(np.nextafter(1e25, np.inf), 1e25)
    assert not f.exceeds(8.4e22, 1e25)
    assert f.exceeds(np.array([1e24, 1e25, 2e25]), 1e25).tolist() == [False, False, True]


def test_owned_cost_per_hour_writes_off_the_purchase_over_busy_hours_and_adds_power():
    # 30,000 / (5 years · 8766 h · 0.7 busy) = 0.977804 per busy hour;
    # power 0.7 kW · PUE 1.2 · 0.15 per kWh = 0.126; together 1.103804.
    price = f.owned_cost_per_accelerator_hour(30_000.0, 5.0, 0.7, 700.0, 1.2, 0.15)
    assert price == pytest.approx(1.1038038525, rel=1e-10)


def test_owned_cost_per_hour_without_power_is_the_write_off_alone():
    price = f.owned_cost_per_accelerator_hour(30_000.0, 5.0, 0.7, None, 1.2, 0.15)
    assert price == pytest.approx(0.9778038525, rel=1e-10)


def test_cost_is_accelerator_hours_times_price():
    # 200 a-h · 2.50 = 500.
    assert f.cost(200.0, 2.5) == 500.0


def test_energy_is_hours_times_power_times_pue_and_emissions_follow_the_grid():
    # 200 h · 0.7 kW · PUE 1.2 = 168 kWh; · 0.4 kg CO2e/kWh = 67.2 kg.
    energy = f.energy_kwh(200.0, 700.0, 1.2)
    assert energy == pytest.approx(168.0, rel=1e-15)
    assert f.emissions_kg_co2e(energy, 0.4) == pytest.approx(67.2, rel=1e-15)


def test_inference_flop_per_request_is_two_times_parameters_times_tokens():
    # 2 · 7e9 · (1000 + 500) = 2.1e13 FLOP.
    assert f.inference_flop_per_request(7e9, 1000.0, 500.0) == 2.1e13


def test_accelerator_seconds_from_flop_use_the_share_of_peak_achieved():
    # 2.1e13 / (989.4e12 · 0.3) = 0.0707499 s.
    seconds = f.accelerator_seconds_from_flop(2.1e13, H100_BF16_FLOPS, 0.3)
    assert seconds == pytest.approx(0.0707499495, rel=1e-9)


def test_roofline_latency_is_compute_bound_prefill_plus_memory_bound_decode():
    # prefill 2 · 7e9 · 1000 / (989.4e12 · 0.3) = 0.0471666 s;
    # decode 500 tokens · 7e9 · 2 bytes / 3.35e12 B/s = 500 · 0.00417910 = 2.0895522 s;
    # total 2.1367189 s.
    latency = f.roofline_latency_seconds(
        7e9, 1000.0, 500.0, H100_BF16_FLOPS, 0.3, 2.0, H100_BANDWIDTH
    )
    assert latency == pytest.approx(2.1367188718, rel=1e-9)


def test_cost_per_request_is_accelerator_seconds_in_hours_times_price():
    # 2 s / 3600 · 3.60 per hour = 0.002.
    assert f.cost_per_request(2.0, 3.6) == pytest.approx(0.002, rel=1e-15)


def test_gross_margin_is_the_share_of_revenue_left_after_compute():
    # (0.01 − 0.002) / 0.01 = 0.8; no revenue, no margin.
    assert f.gross_margin(0.01, 0.002) == pytest.approx(0.8)
    assert math.isnan(f.gross_margin(0.0, 0.002))
    margins = f.gross_margin(np.array([0.0, 0.004]), 0.002)
    assert math.isnan(margins[0]) and margins[1] == pytest.approx(0.5)


def test_requests_compound_month_by_month():
    # 1000 · 1.1^(3−1) = 1210 in the third month.
    assert f.requests_in_month(1000.0, 0.1, 3.0) == pytest.approx(1210.0, rel=1e-14)
    assert f.requests_in_month(1000.0, 0.0, 7.0) == 1000.0


def test_compound_growth_total_equals_the_sum_of_the_monthly_list():
    # 1000 + 1100 + 1210 = 3310 = 1000 · (1.1^3 − 1) / 0.1.
    assert f.total_requests(1000.0, 0.1, 3.0) == pytest.approx(3310.0, rel=1e-14)
    months = np.arange(1.0, 61.0)
    for growth in (-0.3, -0.01, 0.0, 1e-9, 0.05, 2.0):
        monthly = f.requests_in_month(500.0, growth, months)
        total = f.total_requests(500.0, growth, 60.0)
        assert total == pytest.approx(monthly.sum(), rel=1e-12)


def test_total_requests_without_growth_is_requests_times_months():
    assert f.total_requests(15_000.0, 0.0, 12.0) == 180_000.0
    totals = f.total_requests(15_000.0, np.array([0.0, 0.1]), 12.0)
    assert totals[0] == 180_000.0


def test_growth_sum_factor_is_continuous_between_whole_months():
    # At t = 2.5 with g = 0.1: (1.1^2.5 − 1) / 0.1 = 2.6906.
    assert f.growth_sum_factor(0.1, 2.5) == pytest.approx((1.1**2.5 - 1) / 0.1, rel=1e-13)
    assert f.growth_sum_factor(0.1, 0.0) == 0.0


def test_monthly_accelerator_hours_are_requests_times_seconds_over_3600():
    # 15,000 · 2 s = 30,000 s = 8.33 h.
    assert f.monthly_accelerator_hours(15_000.0, 2.0) == pytest.approx(8.333333333, rel=1e-9)


def test_peak_month_is_the_last_when_demand_grows_and_the_first_when_it_shrinks():
    assert f.peak_month(0.05, 12.0) == 12.0
    assert f.peak_month(0.0, 12.0) == 12.0
    assert f.peak_month(-0.05, 12.0) == 1.0
    assert f.peak_month(np.array([0.1, -0.1]), 24.0).tolist() == [24.0, 1.0]


def test_peak_arrival_rate_spreads_the_month_and_applies_peak_to_average():
    # 2,629,800 requests in a 2,629,800-second month = 1 request/s; · 3 at the peak = 3/s.
    assert f.peak_arrival_rate_per_second(2_629_800.0, 3.0) == pytest.approx(3.0, rel=1e-15)


def test_accelerators_needed_by_littles_law_with_headroom():
    # Busy accelerators = 3 req/s · 2 s = 6; at 70% target utilisation 6 / 0.7 = 8.57 → 9.
    assert f.accelerators_needed(3.0, 2.0, 0.7) == 9.0
    assert f.accelerators_needed(0.0, 2.0, 0.7) == 0.0
    assert f.accelerators_needed(np.array([0.0, 3.0]), 2.0, 1.0).tolist() == [0.0, 6.0]


def test_peak_concurrent_requests_are_rate_times_latency():
    # L = λ · W = 3 req/s · 2.5 s = 7.5 requests in flight.
    assert f.peak_concurrent_requests(3.0, 2.5) == 7.5


def test_always_on_hours_count_every_hour_of_every_month():
    # 9 accelerators · 730.5 h · 12 months = 78,894 accelerator-hours.
    assert f.always_on_accelerator_hours(9.0, 12.0) == 78_894.0


def test_break_even_without_growth_is_training_over_monthly_inference():
    # 200 h of training / 8.333 h a month = 24 months.
    assert f.break_even_months(200.0, 15_000 * 2 / 3600, 0.0) == pytest.approx(24.0)


def test_break_even_with_growth_lands_on_the_month_where_discrete_sums_cross():
    # h = 1000 h in month 1, growing 10%: 1000 + 1100 + 1210 = 3310 after 3 months, so
    # T = 3310 is reached exactly at t = log(1 + 3310 · 0.1 / 1000) / log(1.1) = 3.
    assert f.break_even_months(3310.0, 1000.0, 0.1) == pytest.approx(3.0, rel=1e-12)
    hourly = f.monthly_accelerator_hours(
        f.requests_in_month(400.0, 0.07, np.arange(1.0, 41.0)), 9.0
    )
    sums = np.cumsum(hourly)
    for month in (1, 5, 17, 40):
        crossing = f.break_even_months(sums[month - 1], hourly[0], 0.07)
        assert crossing == pytest.approx(month, rel=1e-10)
    between = f.break_even_months((sums[9] + sums[10]) / 2, hourly[0], 0.07)
    assert 10 < between < 11


def test_break_even_with_shrinking_demand_that_still_catches_up():
    # h = 100, g = −10%: t = log(1 − 500 · 0.1 / 100) / log(0.9) = log 0.5 / log 0.9 = 6.5788;
    # the discrete sums cross between month 6 (468.56) and month 7 (521.70).
    months = f.break_even_months(500.0, 100.0, -0.1)
    assert months == pytest.approx(6.578813479, rel=1e-9)
    assert f.total_requests(100.0, -0.1, 6.0) < 500.0 < f.total_requests(100.0, -0.1, 7.0)


def test_negative_growth_that_never_breaks_even_gives_nan():
    # Shrinking 10% a month, 100 h/month adds up to at most 100 / 0.1 = 1000 h < 1500 h.
    assert math.isnan(f.break_even_months(1500.0, 100.0, -0.1))
    # Exactly reaching the limit also takes forever.
    assert math.isnan(f.break_even_months(1000.0, 100.0, -0.1))


def test_no_inference_never_breaks_even_and_no_training_breaks_even_at_once():
    assert math.isnan(f.break_even_months(200.0, 0.0, 0.0))
    assert math.isnan(f.break_even_months(0.0, 0.0, 0.1))
    assert f.break_even_months(0.0, 5.0, 0.1) == 0.0


def test_break_even_on_arrays_mixes_all_cases_without_warnings():
    training = np.array([200.0, 3310.0, 1500.0, 200.0, 0.0])
    first_month = np.array([8.3333333, 1000.0, 100.0, 0.0, 0.0])
    growth = np.array([0.0, 0.1, -0.1, 0.0, 0.1])
    months = f.break_even_months(training, first_month, growth)
    assert months[:2] == pytest.approx([24.0, 3.0], rel=1e-6)
    assert np.isnan(months[2:]).all()


def test_training_share_is_training_over_the_total():
    # 200 / (200 + 100) = 2/3.
    assert f.training_share(200.0, 100.0) == pytest.approx(2 / 3)
    assert math.isnan(f.training_share(0.0, 0.0))
    assert f.training_share(np.array([0.0, 1.0]), np.array([0.0, 3.0]))[1] == 0.25
