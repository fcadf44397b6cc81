"""The decision view's chart: monthly cost against monthly requests, both on log axes, as SVG.

Drawn on the server so it shows without JavaScript and never moves; the table beside it gives
the same figures. Each line is a run of the engine over the volumes (`monthly_cost_at`).
"""

import math
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from apps.estimates.options import OptionInput, OptionsComparison, monthly_cost_at
from apps.options.forms import OPTION_LABELS
from apps.words.numbers import compact_text

WIDTH, HEIGHT = 640, 380
LEFT, RIGHT, TOP, BOTTOM = 72, 16, 16, 48
LOWEST, HIGHEST = 2, 8  # 10^2 to 10^8 requests a month
POINTS_PER_DECADE = 8
# Dark enough against white (3:1 or more for lines), told apart by dashes as well as colour.
STYLES = {
    "external_api": ("#0b5394", ""),
    "rent_pay_per_use": ("#38761d", "6 4"),
    "rent_always_on": ("#990000", "2 3"),
    "rent_committed": ("#a61c5c", "8 3 2 3 2 3"),
    "own": ("#5b3a8c", "10 4 2 4"),
    "fine_tune": ("#7f6000", "12 5"),
    "build": ("#333333", "3 6"),
}


@dataclass(frozen=True)
class Line:
    key: str
    label: str
    points: str  # SVG polyline points
    colour: str
    dashes: str


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    options: tuple[str, str]
    requests_per_month: float
    monthly_cost: float


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    plot: tuple[int, int, int, int]  # left, top, right, bottom of the plot area
    lines: tuple[Line, ...]
    markers: tuple[Marker, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    rows: tuple[tuple[float, tuple[float, ...]], ...]  # (requests a month, cost per option)
    keys: tuple[str, ...]


def _power_label(exponent: int) -> str:
    """A power of ten as an axis label in the active language: "0.1", "100k", "1bn"; "1 Md"."""
    return compact_text(Decimal(10) ** exponent)


def options_chart(inputs: list[OptionInput], comparison: OptionsComparison) -> Chart:
    """The chart's geometry and its table (decades only), for the options compared."""
    volumes = np.logspace(LOWEST, HIGHEST, (HIGHEST - LOWEST) * POINTS_PER_DECADE + 1)
    costs = {option.key: monthly_cost_at(option, volumes) for option in inputs}
    positive = np.concatenate([c[c > 0] for c in costs.values()] or [np.array([1.0])])
    low = math.floor(math.log10(positive.min())) if positive.size else 0
    high = math.ceil(math.log10(positive.max())) if positive.size else 1
    high = max(high, low + 1)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x_of(requests: float) -> float:
        share = (math.log10(requests) - LOWEST) / (HIGHEST - LOWEST)
        return round(LEFT + share * (right - LEFT), 1)

    def y_of(cost: float) -> float:
        share = (math.log10(cost) - low) / (high - low)
        return round(bottom - share * (bottom - TOP), 1)

    labels = {result.key: str(OPTION_LABELS[result.key]) for result in comparison.options}
    lines = tuple(
        Line(
            key,
            labels[key],
            " ".join(f"{x_of(v)},{y_of(c)}" for v, c in zip(volumes, cost, strict=True) if c > 0),
            *STYLES[key],
        )
        for key, cost in costs.items()
    )
    fixed = {result.key: result.monthly_fixed_cost for result in comparison.options}
    markers = tuple(
        Marker(
            x_of(c.requests_per_month),
            y_of(fixed[c.options[0]]),
            c.options,
            c.requests_per_month,
            fixed[c.options[0]],
        )
        for c in comparison.crossovers
        if c.requests_per_month
        and 10**LOWEST <= c.requests_per_month <= 10**HIGHEST
        and fixed[c.options[0]] > 0
        and low <= math.log10(fixed[c.options[0]]) <= high
    )
    decades = [index * POINTS_PER_DECADE for index in range(HIGHEST - LOWEST + 1)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        plot=(LEFT, TOP, right, bottom),
        lines=lines,
        markers=markers,
        x_ticks=tuple(Tick(x_of(10.0**e), _power_label(e)) for e in range(LOWEST, HIGHEST + 1)),
        y_ticks=tuple(Tick(y_of(10.0**e), _power_label(e)) for e in range(low, high + 1)),
        rows=tuple(
            (float(volumes[i]), tuple(float(costs[key][i]) for key in costs)) for i in decades
        ),
        keys=tuple(costs),
    )
