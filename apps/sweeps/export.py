"""The CSV of a sweep's results, written chunk by chunk so that a million rows stream in bounded
memory. Numbers are written as Python writes floats (shortest text that reads back exactly),
never localised; an empty cell is a figure that cannot be computed.

The header is in the reader's language (the language the CSV was asked in, kept while it streams):
words with units, "Inference: Requests in the first month", "Total cost (training + inference)
[EUR]" (amounts in the sweep's currency: its project's when it was made). A varied input is
written as the scenario form and the sweep page show it, so a percentage
(its header says "%") is in percent; each figure in the unit its header gives. Accelerators and
models are their catalogue slugs. UTF-8 with a byte-order mark, as the scenario's CSV
(apps.exports.csv_export), so that Excel reads the accents of a French header.
"""

from collections.abc import Iterator
from decimal import Decimal

import numpy as np
from django.utils import translation
from django.utils.translation import gettext

from apps.sweeps.metrics import METRICS, metrics_in
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


def _axis_texts(values: np.ndarray, scale: float) -> np.ndarray:
    """Each value of a varied input as the form shows it: the stored value's shortest text,
    its decimal point moved for a percentage (0.7 → "70"), so nothing is lost to rounding."""
    if scale == 1:
        return np.array([repr(value) for value in values.tolist()], dtype=object)
    factor = Decimal(repr(scale))
    return np.array(
        [format((Decimal(repr(value)) * factor).normalize(), "f") for value in values.tolist()],
        dtype=object,
    )


def _with_unit(label: object, unit: str) -> str:
    return gettext("%(label)s [%(unit)s]") % {"label": label, "unit": unit}


def header(sweep: Sweep) -> list[str]:
    """The header row, in the active language."""
    definition = sweep_definition(sweep)
    names = [gettext("Point")]
    if definition.accelerators:
        names.append(gettext("Accelerator"))
    if definition.models:
        names.append(gettext("Language model"))
    names += [str(item.spec.label) for item in definition.inputs]
    by_name = metrics_in(sweep.currency)
    names += [_with_unit(metric.label, by_name[metric.name].unit_words) for metric in METRICS]
    return [text_cell(name) for name in names]


def csv_pieces(sweep: Sweep, language: str | None = None) -> Iterator[str]:
    """The CSV in pieces of a few thousand rows: a header in `language` (by default the active
    one when this is called, not when the pieces are read), then every point in index order."""
    with translation.override(language or translation.get_language()):
        head = "\ufeff" + ",".join(header(sweep)) + "\r\n"
    return _pieces(sweep, head)


def _pieces(sweep: Sweep, head: str) -> Iterator[str]:
    definition = sweep_definition(sweep)
    slugs = [text_cell(slug) for slug in definition.accelerators]
    model_slugs = [text_cell(slug) for slug in definition.models]
    axes = [_axis_texts(item.values, item.spec.scale) for item in definition.inputs]
    yield head
    for indices, columns in sweep_columns(sweep):
        cells = [list(map(str, indices.tolist()))]
        accelerator, model, digits = definition.positions(indices)
        if accelerator is not None:
            cells.append([slugs[position] for position in accelerator.tolist()])
        if model is not None:
            cells.append([model_slugs[position] for position in model.tolist()])
        cells += [texts[positions].tolist() for texts, positions in zip(axes, digits, strict=True)]
        cells += [_numbers(columns[metric.name]) for metric in METRICS]
        rows = [",".join(row) for row in zip(*cells, strict=True)]
        for start in range(0, len(rows), ROWS_PER_PIECE):
            yield "\r\n".join(rows[start : start + ROWS_PER_PIECE]) + "\r\n"
