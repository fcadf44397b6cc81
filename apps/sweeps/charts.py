"""Charts of a sweep: which points they show (sampled as chunks are computed) and their data."""

import math

import numpy as np
from django.utils.translation import gettext

from apps.sweeps.definition import Definition
from apps.sweeps.metrics import CHART_METRICS

LINE_POINTS = 200  # at most, per line
HEATMAP_CELLS = 20  # at most, along each side


def _spread(count: int, most: int) -> np.ndarray:
    """Up to `most` evenly spread positions out of `count`, the first and last included."""
    return np.unique(np.linspace(0, count - 1, min(count, most)).round().astype(np.int64))


def chart_positions(definition: Definition) -> tuple[np.ndarray, ...] | None:
    """The positions along each varied input that the chart shows; None: no chart (0 or 3+)."""
    inputs = definition.inputs
    if len(inputs) == 1:
        return (_spread(len(inputs[0].values), LINE_POINTS),)
    if len(inputs) == 2:
        return tuple(_spread(len(item.values), HEATMAP_CELLS) for item in inputs)
    return None


def _json_number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def chunk_samples(definition: Definition, columns: dict[str, np.ndarray], start: int) -> dict:
    """The chart's points among a chunk's, with their chartable figures."""
    positions = chart_positions(definition)
    if positions is None:
        return {}
    count = len(next(iter(columns.values())))
    _, digits = definition.digits(np.arange(start, start + count, dtype=np.int64))
    shown = np.ones(count, dtype=bool)
    for digit, wanted in zip(digits, positions, strict=True):
        shown &= np.isin(digit, wanted)
    picked = np.flatnonzero(shown)
    return {
        "indices": (picked + start).tolist(),
        "figures": {
            name: [_json_number(v) for v in columns[name][picked].tolist()]
            for name in CHART_METRICS
        },
    }


def samples_merge(samples: list[dict], metric: str) -> dict[int, float | None]:
    """Point index → figure, over every chunk's samples (none from a chunk stored before the
    figure was added)."""
    merged = {}
    for sample in samples:
        if sample and metric in sample["figures"]:
            merged.update(zip(sample["indices"], sample["figures"][metric], strict=True))
    return merged


def line_chart(definition: Definition, values: dict[int, float | None], names: list[str]) -> dict:
    """One line per accelerator (one line without a list) over the varied input's sampled values.

    `names` are the accelerators' display names, in the definition's order.
    """
    item = definition.inputs[0]
    (positions,) = chart_positions(definition)
    xs = [float(item.values[p]) for p in positions]
    ys = [
        [values.get(line * len(item.values) + int(p)) for p in positions]
        for line in range(max(len(names), 1))
    ]
    return {
        "x_label": item.spec.label,
        "x_path": item.spec.path,
        "x_log": item.kind == "log",
        # The chart's points in the units the page shows (percent where the form uses it).
        "lines": [
            {
                "label": name,
                "points": [[x * item.spec.scale, y] for x, y in zip(xs, line, strict=True)],
            }
            for name, line in zip(names or [gettext("This scenario")], ys, strict=True)
        ],
        "rows": [[x, [line[i] for line in ys]] for i, x in enumerate(xs)],
    }


def heatmap(
    definition: Definition, values: dict[int, float | None], accelerator_position: int
) -> dict:
    """A grid of the figure over the two varied inputs' sampled values (rows: the first input)."""
    rows_item, columns_item = definition.inputs
    rows_at, columns_at = chart_positions(definition)
    offset = accelerator_position * len(rows_item.values) * len(columns_item.values)
    grid = [
        [values.get(offset + int(r) * len(columns_item.values) + int(c)) for c in columns_at]
        for r in rows_at
    ]
    known = [v for row in grid for v in row if v is not None]
    return {
        "row_label": rows_item.spec.label,
        "row_path": rows_item.spec.path,
        "column_label": columns_item.spec.label,
        "column_path": columns_item.spec.path,
        "column_values": [float(columns_item.values[c]) for c in columns_at],
        "rows": [
            [float(rows_item.values[r]), [_cell(v, known) for v in row]]
            for r, row in zip(rows_at, grid, strict=True)
        ],
    }


SHADES = 9  # heatmap shades, light to dark: classes shade-0 … shade-8 in static/css/sweeps.css


def _share(value: float, known: list[float]) -> float:
    low, high = min(known), max(known)
    if high == low:
        return 0.0
    if low > 0 and high / low > 100:  # orders of magnitude apart: shade on a log scale
        return math.log(value / low) / math.log(high / low)
    return (value - low) / (high - low)


def _cell(value: float | None, known: list[float]) -> dict:
    """A heatmap cell: its figure and its shade (None: no figure)."""
    if value is None:
        return {"value": None, "shade": None}
    return {"value": value, "shade": round(_share(value, known) * (SHADES - 1))}
