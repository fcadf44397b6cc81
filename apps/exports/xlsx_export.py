"""A project as an Excel workbook: a summary sheet, then one sheet per scenario.

Numbers are stored as numbers, with their unit in the column header, and money carries a
two-decimal number format (more below a cent, as the pages show it: 0.0017); text that looks like
a formula is stored as text (apps.exports.cells).
"""

import io
import re
from decimal import Decimal

from django.utils.translation import gettext
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from apps.core.spreadsheet_text import looks_like_formula, printable
from apps.exports.budget_table import budget_ranges_table, budget_table
from apps.exports.figures import Table, Value, headline, headline_headings, tables
from apps.exports.input_words import input_rows
from apps.exports.options_ranges import (
    options_range_table,
    options_samples_sentence,
    options_share_table,
)
from apps.exports.options_table import options_sentences, options_table
from apps.exports.report import Report, ScenarioReport
from apps.words.formatting import money_decimal_places
from apps.words.messages import message_text

MONEY_FORMAT = "#,##0.00"
MAX_SHEET_TITLE = 31
# Characters Excel forbids in a sheet's name; "History" is a name Excel keeps for itself.
_FORBIDDEN_IN_TITLE = re.compile(r"[\[\]:*?/\\]")
_RESERVED_TITLES = {"history"}
_BOLD = Font(bold=True)


def sheet_titles(names: list[str], taken: set[str]) -> list[str]:
    """Sheet names for `names`: allowed characters, at most 31 of them, unique in any case."""
    taken = {title.casefold() for title in taken} | _RESERVED_TITLES
    titles = []
    for name in names:
        base = _FORBIDDEN_IN_TITLE.sub(" ", printable(name)).strip().strip("'")
        base = base[:MAX_SHEET_TITLE].strip().strip("'") or gettext("Scenario")
        title, number = base, 2
        while title.casefold() in taken:
            suffix = f" ({number})"
            title = base[: MAX_SHEET_TITLE - len(suffix)].rstrip().rstrip("'") + suffix
            number += 1
        taken.add(title.casefold())
        titles.append(title)
    return titles


def money_format(amount: Decimal) -> str:
    """The number format of an amount: "#,##0.00", below a cent as many decimals as pages show."""
    places = money_decimal_places(amount)
    return MONEY_FORMAT if places == 2 else f"0.{'0' * places}"


def put(sheet: Worksheet, row: int, column: int, value: Value, *, bold: bool = False) -> None:
    """One cell: a number as a number (money with its decimals), text as text, never a formula."""
    cell = sheet.cell(row=row, column=column)
    if isinstance(value, str):
        text = printable(value)
        cell.value = text
        if looks_like_formula(text):
            # openpyxl takes a leading "=" for a formula; the quote prefix keeps the cell text
            # even when someone edits it in Excel.
            cell.data_type = "s"
            cell.quotePrefix = True
    else:
        cell.value = value
        if isinstance(value, Decimal):
            cell.number_format = money_format(value)
    if bold:
        cell.font = _BOLD


def _put_row(sheet: Worksheet, row: int, values, *, bold: bool = False) -> None:
    for column, value in enumerate(values, start=1):
        put(sheet, row, column, value, bold=bold)


def _widths(sheet: Worksheet, widths: tuple[int, ...]) -> None:
    for column, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = width


def _currency(report: Report) -> str:
    """The currency of the figures: the estimate responses', which is the catalogue's."""
    return next((s.response["currency"] for s in report.scenarios if s.response), "USD")


def _summary(sheet: Worksheet, report: Report, titles: list[str]) -> None:
    put(sheet, 1, 1, report.project.title, bold=True)
    sheet["A1"].font = Font(bold=True, size=14)
    row = 3
    for _, label, text in report.facts():
        put(sheet, row, 1, label, bold=True)
        put(sheet, row, 2, text)
        sheet.cell(row=row, column=2).alignment = Alignment(wrap_text=True, vertical="top")
        row += 1
    row += 1
    put(sheet, row, 1, gettext("Scenarios"), bold=True)
    row += 1
    headings = headline_headings(_currency(report))
    _put_row(
        sheet,
        row,
        [gettext("Scenario"), gettext("Sheet"), gettext("Baseline"), *headings, gettext("Note")],
        bold=True,
    )
    for scenario, title in zip(report.scenarios, titles, strict=True):
        row += 1
        figures = headline(scenario.figures)
        note = (
            gettext("Figures not available: %(why)s") % {"why": scenario.error}
            if scenario.response is None
            else None
        )
        baseline = gettext("yes") if scenario.scenario.is_baseline else gettext("no")
        _put_row(sheet, row, [scenario.scenario.name, title, baseline, *figures, note])
    _widths(sheet, (34, 60, 10, *([18] * len(headings)), 40))


def _table(sheet: Worksheet, row: int, table: Table) -> int:
    """Write a table with a title and unit-bearing headers at `row`; return the next free row."""
    put(sheet, row, 1, table.title, bold=True)
    _put_row(sheet, row + 1, [column.heading for column in table.columns], bold=True)
    for offset, values in enumerate(table.rows, start=row + 2):
        _put_row(sheet, offset, values)
    return row + 2 + len(table.rows) + 1


def _scenario(sheet: Worksheet, report: ScenarioReport, project_title: str) -> None:
    scenario = report.scenario
    put(sheet, 1, 1, scenario.name)
    sheet["A1"].font = Font(bold=True, size=14)
    put(sheet, 2, 1, gettext("Project: %(title)s") % {"title": project_title})
    put(sheet, 3, 1, gettext("Baseline") if scenario.is_baseline else gettext("Not the baseline"))
    row = 5
    if report.response is None:
        put(sheet, row, 1, gettext("Figures not available: %(why)s") % {"why": report.error})
        row += 2
    else:
        put(sheet, row, 1, gettext("Figures"), bold=True)
        headers = [gettext("Section"), gettext("Figure"), gettext("Value"), gettext("Unit")]
        _put_row(sheet, row + 1, [*headers, gettext("Field")], bold=True)
        row += 2
        for figure in report.figures:
            _put_row(
                sheet,
                row,
                [figure.section, figure.figure, figure.value, figure.unit, figure.field],
            )
            row += 1
        row += 1
        for table in tables(report.response):
            row = _table(sheet, row, table)
    if report.budget is not None:
        row = _table(sheet, row, budget_table(report.budget))
        ranges = budget_ranges_table(report.budget)
        if ranges is not None:
            row = _table(sheet, row, ranges)
    else:
        put(sheet, row, 1, gettext("Budget not available: %(why)s") % {"why": report.budget_error})
        row += 2
    row = _options(sheet, row, report)
    put(sheet, row, 1, gettext("Inputs"), bold=True)
    headers = [gettext("Section"), gettext("Input"), gettext("Value"), gettext("Meaning")]
    _put_row(sheet, row + 1, headers, bold=True)
    row += 2
    for item in input_rows(scenario.inputs):
        _put_row(sheet, row, [item.section, item.label, item.value, item.meaning])
        row += 1
    if report.response is not None:
        row += 1
        put(sheet, row, 1, gettext("How the figures are worked out"), bold=True)
        for section in ("training", "inference"):
            for note in (report.response.get(section) or {}).get("assumptions", []):
                row += 1
                put(
                    sheet,
                    row,
                    1,
                    gettext("Training") if section == "training" else gettext("Inference"),
                )
                put(sheet, row, 2, message_text(note))
    _widths(sheet, (30, 44, 22, 22, 22, 22, 22))


def _options(sheet: Worksheet, row: int, report: ScenarioReport) -> int:
    """The decision view: the options table, then the headline in words, then its ranges (the
    percentiles, how often each option is the cheapest, the samples and seed) if it has them."""
    if report.options is None:
        return row
    row = _table(sheet, row, options_table(report.options))
    for sentence in options_sentences(report.options):
        put(sheet, row, 1, sentence)
        row += 1
    row += 1
    ranges = options_range_table(report.options)
    if ranges is not None:
        row = _table(sheet, row, ranges)
        row = _table(sheet, row, options_share_table(report.options))
        put(sheet, row, 1, options_samples_sentence(report.options))
        row += 2
    return row


def _variance_title(titles: list[str], summary: str) -> str:
    return sheet_titles([gettext("Plan against actual")], {summary, *titles})[0]


def _variance(sheet: Worksheet, report: Report) -> None:
    """The plan against actual: money by fiscal year and by month, per kind of line, then
    accelerator-hours and tokens."""
    put(sheet, 1, 1, gettext("Plan against actual"))
    sheet["A1"].font = Font(bold=True, size=14)
    row = 3
    for table in report.variance:
        row = _table(sheet, row, table)
    _widths(sheet, (16, 40, *([18] * 9)))


def project_xlsx(report: Report) -> bytes:
    workbook = Workbook()
    summary = workbook.active
    summary.title = gettext("Summary")
    titles = sheet_titles([s.scenario.name for s in report.scenarios], {summary.title})
    _summary(summary, report, titles)
    for scenario, title in zip(report.scenarios, titles, strict=True):
        _scenario(workbook.create_sheet(title), scenario, report.project.title)
    if report.variance:
        _variance(workbook.create_sheet(_variance_title(titles, summary.title)), report)
    workbook.properties.title = printable(report.project.title)
    workbook.properties.creator = "Compute Planner"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
