"""Money leaves the engine as Decimal rounded half-up to the cent, in one place."""

import math
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import PerRequest
from apps.estimates.money import cost_of_one_request, to_money, to_money_figure


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (0.125, "0.13"),  # exactly half a cent in binary too: rounds up
        (2.675, "2.68"),  # its binary value is 2.67499…; the decimal a reader sees rounds up
        (0.005, "0.01"),
        (0.004999, "0.00"),
        (1234.5, "1234.50"),
        (7, "7.00"),
        (np.float64(147_395.7280506704), "147395.73"),
        (Decimal("0.015"), "0.02"),
    ],
)
def test_money_rounds_half_up_to_the_cent(amount, expected):
    assert to_money(amount) == Decimal(expected)
    assert str(to_money(amount)) == expected


def test_zero_has_no_sign():
    assert str(to_money(-0.0)) == "0.00"


def test_the_largest_float_still_becomes_money():
    assert to_money(1.7e308) == Decimal("1.7e308")


@pytest.mark.parametrize("amount", [math.nan, math.inf, -math.inf])
def test_non_finite_amounts_are_not_money(amount):
    with pytest.raises(ValueError):
        to_money(amount)


@pytest.mark.parametrize(
    ("cost", "cost_per_1000", "expected"),
    [
        ("0.00", "1.66", "0.00166"),  # 2 s at $2.99 an hour: the cent says 0.00
        ("0.01", "7.20", "0.00720"),  # the cent says 0.01
        ("0.00", "0.01", "0.00001"),
        ("0.01", "10.00", "0.01"),  # a cent and more: the request's own cost
        ("2.35", "2345.60", "2.35"),
        ("0.00", "0.00", "0.00"),
    ],
)
def test_a_requests_cost_below_a_cent_keeps_the_digits_of_the_cost_of_1000(
    cost, cost_per_1000, expected
):
    precise = cost_of_one_request(Decimal(cost), Decimal(cost_per_1000))
    assert str(precise) == expected
    per_request = PerRequest(
        flop=None,
        accelerator_seconds=2.0,
        latency_seconds=2.0,
        latency_method="accelerator_seconds",
        cost=Decimal(cost),
        cost_per_1000=Decimal(cost_per_1000),
        energy_kwh=None,
    )
    assert per_request.precise_cost == precise


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (2 * 2.995 / 3600, "0.001664"),  # 2 accelerator-seconds at $2.995 an hour
        (0.07075 / 3600 * 2.5, "0.00004913"),
        (-0.00123456, "-0.001235"),
        (0.0099996, "0.01"),  # four figures round it up to a cent: a cent it is
        (0.0, "0.00"),
        (0.01, "0.01"),
        (1.666, "1.67"),
        (12345.675, "12345.68"),
    ],
)
def test_money_below_a_cent_keeps_four_significant_figures(amount, expected):
    assert f"{to_money_figure(amount):f}" == expected


def test_a_requests_cost_that_keeps_its_figures_below_a_cent_is_its_own_precise_cost():
    assert cost_of_one_request(Decimal("0.001664"), Decimal("1.66")) == Decimal("0.001664")


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (0.01, "0.01"),
        (math.nextafter(0.01, 1.0), "0.01"),
        (math.nextafter(0.01, 0.0), "0.01"),  # 0.009999999999999998: four figures, a cent
        (-0.01, "-0.01"),
        (math.nextafter(-0.01, 0.0), "-0.01"),
        (0.015, "0.02"),
        (-2.675, "-2.68"),
        (1234.565, "1234.57"),
    ],
)
def test_a_float_of_a_cent_or_more_rounds_as_its_decimal_does(amount, expected):
    # A float from a cent up takes a short way to the cent; its shortest decimal form (a
    # Decimal, the long way) gives the same figure, digit for digit.
    figure = to_money_figure(amount)
    assert str(figure) == expected
    assert figure.as_tuple() == to_money_figure(Decimal(repr(amount))).as_tuple()
