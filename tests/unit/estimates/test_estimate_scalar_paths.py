"""The engine's shortcuts for one scenario give exactly what its array code gives, bit for bit."""

import math

import numpy as np
import pytest

from apps.estimates import formulas as f
from apps.estimates.limits import RULES
from apps.estimates.validation import _Errors

TINY = 5e-324  # the smallest subnormal float
EDGES = [0.0, -0.0, TINY, 1e-300, 1e-12, 0.05, -0.05, -0.999, 1.0, 3.0, 10.0, 1e12, 1e300, 1.7e308]
ODD = [math.nan, math.inf, -math.inf, -1.0, -2.0]


def same_bits(scalar: object, element: np.float64) -> bool:
    return np.float64(scalar).tobytes() == np.float64(element).tobytes() or (
        math.isnan(scalar) and math.isnan(element)
    )


def element(formula, *values: float) -> np.float64:
    with np.errstate(all="ignore"):
        return formula(*(np.array([value]) for value in values))[0]


def scalar(formula, *values: float) -> object:
    with np.errstate(all="ignore"):
        return formula(*values)


CASES = {
    "break_even_months": [
        (t, h, g)
        for t in [0.0, 200.0, 3310.0, 1e300, math.nan]
        for h in [0.0, TINY, 8.333, 100.0, 1e300, -1.0, math.nan]
        for g in [*EDGES[:9], *ODD]
    ],
    "growth_sum_factor": [(g, m) for g in [*EDGES[:10], *ODD] for m in [0.0, 1.0, 2.5, 12.0]],
    "peak_month": [(g, 12.0) for g in [*EDGES, *ODD]],
    "gross_margin": [(r, c) for r in [*EDGES, *ODD] for c in [0.0, 0.002, 1e300, math.nan]],
    "training_share": [(t, i) for t in [*EDGES, *ODD] for i in [0.0, 100.0, 1e308, math.nan]],
}


@pytest.mark.parametrize("name", CASES)
def test_a_scalar_shortcut_equals_the_array_formula(name):
    formula = getattr(f, name)
    differ = [
        values
        for values in CASES[name]
        if not same_bits(scalar(formula, *values), element(formula, *values))
    ]
    assert not differ


def test_one_growth_rate_over_an_array_of_months_equals_the_array_formula():
    # A scenario's monthly series: its one growth rate over months 0 … M in one array.
    months = np.array([0.0, 1.0, 2.5, 12.0, 24.0])
    for growth in [*EDGES[:10], *ODD]:
        one_rate = scalar(f.growth_sum_factor, growth, months)
        rates = scalar(f.growth_sum_factor, np.full_like(months, growth), months)
        assert one_rate.dtype == rates.dtype == np.float64
        assert all(map(same_bits, one_rate, rates)), growth


def test_the_scalar_shortcuts_take_plain_branches_without_numpy_warnings():
    with np.errstate(all="raise"):
        assert math.isnan(f.break_even_months(200.0, TINY, 0.0))  # 200 / TINY overflows
        assert math.isnan(f.break_even_months(1000.0, 100.0, -0.1))
        assert math.isnan(f.training_share(0.0, 0.0))
        assert math.isnan(f.gross_margin(0.0, 0.002))


VALUES = [*EDGES, *ODD, 0.001, 0.0009999, 1e-6, 1e9, 240.0, 240.5, 2.5, 12.0, 1e21, 1e32, 1e40]


def test_a_rule_judges_one_float_as_it_judges_an_array():
    differ = [
        (name, value)
        for name, rule in RULES.items()
        for value in VALUES
        if rule.accepts_number(value) != rule.accepts(np.array([value]))
    ]
    assert not differ


def test_validation_says_the_same_of_a_number_as_of_an_array_of_it():
    for value in [*VALUES, 7, -3, 10**15, np.float64(0.5)]:
        for name, rule in RULES.items():
            one, array = _Errors(), _Errors()
            one.number(name, value, rule)
            array.number(name, np.array([value], dtype=np.float64), rule)
            assert one.errors == array.errors, (name, value)


@pytest.mark.parametrize("value", [10**400, True, "1", b"1", [1.0, "a"]])
def test_validation_refuses_what_is_not_a_number(value):
    errors = _Errors()
    errors.number("training.mfu", value, RULES["mfu"])
    assert errors.errors == {"training.mfu": ["MFU must be a number."]}
