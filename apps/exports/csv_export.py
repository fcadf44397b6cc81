"""A project as CSV: one row per figure, in a tidy table that any spreadsheet or script reads.

UTF-8 with a byte-order mark, because Excel otherwise reads the file in the machine's legacy
encoding and garbles names such as "Zürich" or units such as "CO2e"; Python's "utf-8-sig" and
other CSV readers skip the mark. No cell can run as a formula (apps.exports.cells).
"""

import csv
import io
from decimal import Decimal
from typing import NamedTuple

from django.utils.translation import gettext, pgettext, pgettext_lazy

from apps.core.spreadsheet_text import formula_safe
from apps.exports.budget_table import (
    budget_fields,
    budget_ranges_fields,
    budget_ranges_table,
    budget_table,
)
from apps.exports.figures import Value, tables
from apps.exports.input_words import input_rows
from apps.exports.options_ranges import options_range_cells, options_range_table
from apps.exports.options_table import options_cells, options_table
from apps.exports.report import Report, ScenarioReport


class Row(NamedTuple):
    scenario: str
    section: str
    figure: str
    value: Value
    unit: str = ""
    month: int | None = None
    field: str = ""  # the figure's path in the estimate response or the scenario's inputs


def cell(value: Value) -> str:
    """Numbers exactly as the estimate response has them; text that cannot run as a formula.

    A negative number starts with "-" yet stays a number: it is written from a number, so it
    cannot carry a formula, and quoting it would turn it into text.
    """
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return formula_safe(value)


def _scenario_rows(report: ScenarioReport) -> list[Row]:
    name = report.scenario.name
    baseline = gettext("yes") if report.scenario.is_baseline else gettext("no")
    rows = [Row(name, gettext("Scenario"), gettext("Baseline"), baseline, field="is_baseline")]
    rows += [
        Row(
            name,
            gettext("Inputs"),
            gettext("%(section)s: %(input)s") % {"section": i.section, "input": i.label},
            i.value,
            field=i.field,
        )
        for i in input_rows(report.scenario.inputs)
    ]
    if report.response is None:
        return [*rows, Row(name, gettext("Error"), gettext("Figures not available"), report.error)]
    rows += [Row(name, f.section, f.figure, f.value, f.unit, field=f.field) for f in report.figures]
    for table in tables(report.response):
        columns = table.columns[1:]  # after the month
        for month, *values in table.rows:
            rows += [
                Row(name, table.title, c.label, v, c.unit, month, f"{table.field}.{c.key}")
                for c, v in zip(columns, values, strict=True)
            ]
    return rows + _budget_rows(report) + _options_rows(report)


def _budget_rows(report: ScenarioReport) -> list[Row]:
    """The budget table, one row per cell: a line's class, category and basis, and its amount
    in each fiscal year (the figure names the line and the year)."""
    name, answer = report.scenario.name, report.budget
    if answer is None:
        return [Row(name, gettext("Error"), gettext("Budget not available"), report.budget_error)]
    rows = _cells(name, budget_table(answer), budget_fields(answer))
    ranges = budget_ranges_table(answer)
    if ranges is not None:
        stored = answer["uncertainty"]
        for key, label in (("samples", gettext("Samples")), ("seed", gettext("Seed"))):
            field = f"budget.uncertainty.{key}"
            rows.append(Row(name, ranges.title, label, stored[key], "", field=field))
        rows += _cells(name, ranges, budget_ranges_fields(answer))
    return rows


def _cells(name: str, table, fields: list[list[str]]) -> list[Row]:
    """A table, one row per cell (the figure names the row and the column); empty cells out."""
    rows = []
    for values, paths in zip(table.rows, fields, strict=True):
        label = values[0]
        for column, value, field in zip(table.columns[1:], values[1:], paths[1:], strict=True):
            if value in ("", None):
                continue
            rows.append(
                Row(name, table.title, f"{label}: {column.label}", value, column.unit, field=field)
            )
    return rows


def _options_rows(report: ScenarioReport) -> list[Row]:
    """The decision view, one row per cell (the figure names the option and the column), then
    its ranges when the options were compared with them."""
    if report.options is None:
        return []
    name, section = report.scenario.name, options_table(report.options).title
    rows = [
        Row(name, section, figure, value, unit, field=field)
        for figure, _label, value, unit, field in options_cells(report.options)
    ]
    ranges = options_range_table(report.options)
    if ranges is not None:
        rows += [
            Row(name, ranges.title, figure, value, unit, field=field)
            for figure, value, unit, field in options_range_cells(report.options)
        ]
    return rows


# The column names, for makemessages (headers() translates them).
_COLUMNS = [
    pgettext_lazy("CSV column", "scenario"),
    pgettext_lazy("CSV column", "section"),
    pgettext_lazy("CSV column", "figure"),
    pgettext_lazy("CSV column", "value"),
    pgettext_lazy("CSV column", "unit"),
    pgettext_lazy("CSV column", "month"),
    pgettext_lazy("CSV column", "field"),
]


def headers() -> list[str]:
    """The header row in the reader's language; the columns keep their order (Row._fields)."""
    return [pgettext("CSV column", name) for name in Row._fields]


def _variance_rows(report: Report) -> list[Row]:
    """The plan against actual, one row per cell (the figure names the period, the kind of
    line where there is one, and the column); empty cells out."""
    rows = []
    for table in report.variance:
        words = 2 if table.columns[1].key == "kind" else 1
        for number, values in enumerate(table.rows):
            label = " — ".join(str(value) for value in values[:words])
            for column, value in zip(table.columns[words:], values[words:], strict=True):
                if value is None:
                    continue
                figure = f"{label}: {column.label}"
                field = f"{table.field}.{number}.{column.key}"
                rows.append(Row("", table.title, figure, value, column.unit, field=field))
    return rows


def project_csv(report: Report) -> bytes:
    rows = [
        Row("", gettext("Project"), label, text, field=f"project.{key}")
        for key, label, text in report.facts()
    ]
    rows += _variance_rows(report)
    for scenario in report.scenarios:
        rows += _scenario_rows(scenario)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(headers())
    writer.writerows(map(cell, row) for row in rows)
    return buffer.getvalue().encode("utf-8-sig")
