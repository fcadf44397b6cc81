"""The forecast of a fiscal year's outturn, by hand: actual to date plus the plan for the months
left, actual to date plus the recent run rate, and the month the budget runs out."""

import ast
from decimal import Decimal
from pathlib import Path

from apps.actuals.forecast import run_rate, variance_share, year_forecast

D = Decimal
# Fiscal year January–December 2026 as month indexes (2026 × 12 + month − 1).
JAN = 2026 * 12
YEAR = list(range(JAN, JAN + 12))
PLAN = {month: D(1000) for month in YEAR}  # 12,000 planned, 1,000 a month


def test_forecast_by_plan_adds_the_plan_of_the_months_left():
    actual = {JAN: D(1200), JAN + 1: D(900), JAN + 2: D(1500)}  # 3,600 to March
    outturn = year_forecast(YEAR, PLAN, actual, through=JAN + 2, first_actual=JAN, budget=D(12000))
    assert outturn.actual_to_date == D("3600.00")
    assert outturn.by_plan == D("12600.00")  # 3,600 + 9 × 1,000
    assert outturn.run_rate == D("1200.00")  # (1,200 + 900 + 1,500) / 3
    assert outturn.by_run_rate == D("14400.00")  # 3,600 + 9 × 1,200
    # Cumulative: 3,600 in March, then + 1,200 a month: 10,800 in September, 12,000 in
    # October (not over), 13,200 in November: the budget runs out in November.
    assert outturn.runs_out == JAN + 10


def test_run_rate_uses_the_last_three_months_or_fewer():
    actual = {JAN: D(300), JAN + 1: D(600), JAN + 2: D(900), JAN + 3: D(1200)}
    assert run_rate(actual, JAN + 3, JAN) == D(900)  # (600 + 900 + 1,200) / 3
    assert run_rate(actual, JAN + 1, JAN) == D(450)  # two months so far
    assert run_rate(actual, JAN - 1, JAN) is None


def test_without_actuals_the_forecast_is_the_plan_and_there_is_no_run_rate():
    outturn = year_forecast(YEAR, PLAN, {}, through=None, first_actual=None, budget=D(12000))
    assert outturn.by_plan == D("12000.00")
    assert outturn.actual_to_date == D("0.00")
    assert (outturn.run_rate, outturn.by_run_rate, outturn.runs_out) == (None, None, None)


def test_a_year_already_over_budget_runs_out_in_the_month_it_was_crossed():
    actual = {JAN: D(5000), JAN + 1: D(5000), JAN + 2: D(2500)}
    outturn = year_forecast(YEAR, PLAN, actual, through=JAN + 2, first_actual=JAN, budget=D(12000))
    assert outturn.runs_out == JAN + 2  # 12,500 > 12,000 in March


def test_a_later_year_takes_the_run_rate_of_the_last_months_before_it():
    next_year = [month + 12 for month in YEAR]
    actual = {JAN + 9: D(100), JAN + 10: D(200), JAN + 11: D(300)}
    plan = {month: D(1000) for month in next_year}
    outturn = year_forecast(
        next_year, plan, actual, through=JAN + 11, first_actual=JAN + 9, budget=D(12000)
    )
    assert outturn.actual_to_date == D("0.00")
    assert outturn.by_plan == D("12000.00")
    assert outturn.by_run_rate == D("2400.00")  # 12 × 200
    assert outturn.runs_out is None


def test_variance_share_is_over_plan_as_a_fraction():
    assert variance_share(D(1000), D(1100)) == 0.1
    assert variance_share(D(0), D(5)) is None


def test_the_forecast_and_reading_modules_import_no_django():
    for name in ("forecast.py", "variance.py", "reading.py", "instances.py"):
        path = Path(__file__).resolve().parents[2] / "apps" / "actuals" / name
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = [
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        ] + [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [m for m in modules if m and m.startswith("django")], name
