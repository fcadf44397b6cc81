"""The CSV of a sweep's results, written chunk by chunk so that a million rows stream in bounded
memory. Numbers are written as Python writes floats (shortest text that reads back exactly); an
empty cell is a figure that cannot be computed."""

from collections.abc import Iterator

import numpy as np

from apps.sweeps.metrics import METRICS
from apps.sweeps.models import Sweep
from apps.sweeps.selectors import sweep_columns, sweep_definition

ROWS_PER_PIECE = 5_000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """A text cell that no spreadsheet runs as a formula, quoted for CSV when it needs to be.

    Only text is guarded: numbers are written by the program, and "-0.05" must stay a number.
    """
    if text.startswith(FORMULA_STARTS):
        text = "'" + text
    if any(character in text for character in ',"\n\r'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def _numbers(values: np.ndarray) -> list[str]:
    if not len(values):
        return []
    missing = np.isnan(values)
    if missing.all():
        return [""] * len(values)
    if (values == values[0]).all():
        return [repr(float(values[0]))] * len(values)
    texts = list(map(repr, values.tolist()))
    for position in np.flatnonzero(missing).tolist():
        texts[position] = ""
    return texts


def header(sweep: Sweep) -> list[str]:
    definition = sweep_definition(sweep)
    names = ["point"]
    if definition.accelerators:
        names.append("accelerator")
    if definition.models:
        names.append("model")
    names += [item.spec.path for item in definition.inputs]
    names += [f"{metric.name} ({metric.unit})" for metric in METRICS]
    return [text_cell(name) for name in names]


def csv_pieces(sweep: Sweep) -> Iterator[str]:
    """The CSV in pieces of a few thousand rows: a header, then every point in index order."""
    definition = sweep_definition(sweep)
    slugs = [text_cell(slug) for slug in definition.accelerators]
    model_slugs = [text_cell(slug) for slug in definition.models]
    yield ",".join(header(sweep)) + "\r\n"
    for indices, columns in sweep_columns(sweep):
        cells = [list(map(str, indices.tolist()))]
        accelerator, model, _ = definition.positions(indices)
        if accelerator is not None:
            cells.append([slugs[position] for position in accelerator.tolist()])
        if model is not None:
            cells.append([model_slugs[position] for position in model.tolist()])
        cells += [_numbers(values) for values in definition.input_columns(indices).values()]
        cells += [_numbers(columns[metric.name]) for metric in METRICS]
        rows = [",".join(row) for row in zip(*cells, strict=True)]
        for start in range(0, len(rows), ROWS_PER_PIECE):
            yield "\r\n".join(rows[start : start + ROWS_PER_PIECE]) + "\r\n"
