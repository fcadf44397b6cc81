"""The fan of the cumulative inference cost: its percentiles month by month, over the samples.

Each month's percentiles are those of the samples' own cumulative cost curves, never a curve
drawn through corners (apps.estimates.uncertainty.sample with `fan`).
"""

import math
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from apps.estimates import formulas as f
from apps.estimates.money import to_money
from apps.estimates.quantiles import PERCENTILES, _quantiles


@dataclass(frozen=True)
class FanMonth:
    """Percentiles of the cumulative inference cost after `month` months, over the samples."""

    month: int
    p5: Decimal
    p50: Decimal
    p95: Decimal


MAX_FAN_POINTS = 61  # months shown on the fan: every month up to 60, else evenly spaced


def fan_months(horizon: int) -> list[int]:
    """The months of the fan: 0 … horizon, every month when there are few, else evenly spaced
    whole months with the horizon itself."""
    if horizon + 1 <= MAX_FAN_POINTS:
        return list(range(horizon + 1))
    step = math.ceil(horizon / (MAX_FAN_POINTS - 1))
    return [*range(0, horizon, step), horizon]


def cost_fan(inference, final: np.ndarray) -> tuple[FanMonth, ...]:
    """Percentiles, month by month, of each sample's own cumulative inference cost curve.

    `final` holds each sample's cost over the whole horizon. Every sample's curve is its final
    cost times a factor of the month: requests to date over those of the whole horizon (or
    provisioned hours to date over the horizon's, always on). When that factor is the same for
    every sample (demand growth carries no range, or the accelerators are always on), the
    month's percentiles are the final cost's times the factor, exactly (a quantile of c · x is
    c times x's, for c ≥ 0): one pass. Otherwise each sample's requests to date,
    1 + (1+g) + … + (1+g)^(m−1), are summed month after month (two array operations a month,
    no logarithm), and each shown month's own percentiles taken.
    """
    if inference is None or np.isnan(final).any():
        return ()
    horizon = int(inference.months)
    months = fan_months(horizon)
    growth = inference.monthly_growth
    if inference.always_on or np.ndim(growth) == 0:
        final_quantiles = np.asarray(_quantiles(final))
        if inference.always_on:
            factors = [month / horizon for month in months]
        else:
            whole = float(f.growth_sum_factor(float(growth), float(horizon)))
            factors = [float(f.growth_sum_factor(float(growth), float(m))) / whole for m in months]
        rows = [
            (month, final_quantiles * factor) for month, factor in zip(months, factors, strict=True)
        ]
    else:
        rows = list(_ranged_growth_fan(final, growth, months))
    return tuple(
        FanMonth(month, *(to_money(float(value)) for value in quantiles))
        for month, quantiles in rows
    )


def _ranged_growth_fan(final: np.ndarray, growth: np.ndarray, months: list[int]):
    """(month, percentiles) of final · S(g, m) / S(g, horizon) for each shown month, S(g, m)
    being the sum of (1+g)^k for k < m; the horizon's are the final cost's own."""
    horizon = months[-1]
    shown = set(months)
    scale = final / f.growth_sum_factor(growth, float(horizon))
    factor = 1.0 + growth
    power = np.ones_like(scale)  # (1+g)^m
    to_date = np.zeros_like(scale)  # S(g, m)
    values = np.empty_like(scale)
    yield 0, np.zeros(len(PERCENTILES))
    for month in range(1, horizon):
        to_date += power
        power *= factor
        if month in shown:
            np.multiply(to_date, scale, out=values)
            yield month, np.asarray(_quantiles(values))
    yield horizon, np.asarray(_quantiles(np.array(final)))
