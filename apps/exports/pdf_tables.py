"""The PDF's tables of a scenario: its figures exactly as the API gives them, the monthly series,
the budget, the decision view and the inputs in the scenario form's words."""

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Spacer, Table

from apps.exports.budget_table import budget_ranges_table, budget_table
from apps.exports.figures import Table as FigureTable
from apps.exports.figures import Value
from apps.exports.input_words import input_rows
from apps.exports.options_ranges import options_range_story
from apps.exports.options_table import options_sentences, options_table
from apps.exports.pdf_layout import H2, H3, WIDTH, grid, paragraph, value_text
from apps.exports.report import ScenarioReport
from apps.words import formatting


def _exact_text(value: Value) -> str:
    """A value exactly as the API gives it (the figures table is for checking, not reading)."""
    if value is None:
        return str(formatting.NOT_AVAILABLE)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def figure_table(report: ScenarioReport) -> Table:
    rows = [[_("Section"), _("Figure"), _("Value"), _("Unit")]]
    rows += [[f.section, f.figure, _exact_text(f.value), f.unit] for f in report.figures]
    return grid(rows, [38 * mm, 62 * mm, 40 * mm, WIDTH - 140 * mm], numeric={2})


def series_table(table: FigureTable) -> Table:
    rows = [[column.heading for column in table.columns]]
    rows += [[value_text(value) for value in values] for values in table.rows]
    count = len(table.columns)
    widths = [12 * mm, *([(WIDTH - 12 * mm) / (count - 1)] * (count - 1))]
    return grid(rows, widths, numeric=set(range(count)))


def columns_grid(
    table: FigureTable,
    indexes: list[int],
    fixed: list[float],
    *,
    words: int = 1,
    rows: tuple[tuple[Value, ...], ...] | None = None,
) -> Table:
    """The table's columns numbered in `indexes` (its rows, or `rows`): the first at the widths
    `fixed`, the others sharing what is left of the page; from the column `words` on, numbers
    aligned right."""
    rows = table.rows if rows is None else rows
    cells = [[table.columns[i].heading for i in indexes]]
    cells += [[value_text(values[i]) for i in indexes] for values in rows]
    rest = (WIDTH - sum(fixed)) / max(1, len(indexes) - len(fixed))
    widths = [*fixed, *([rest] * (len(indexes) - len(fixed)))]
    return grid(cells, widths, numeric=set(range(words, len(indexes))))


def budget_story(report: ScenarioReport) -> list:
    """The budget: what each line is (kind, class, category, basis), then the amounts of every
    line and total per fiscal year (two tables, so that the words and every year fit the page's
    width); then the percentiles of its figures, with the samples and seed, if it has ranges."""
    if report.budget is None:
        why = _("Budget not available: %(why)s") % {"why": report.budget_error}
        return [paragraph(_("Budget by fiscal year"), H2), paragraph(why)]
    table = budget_table(report.budget)
    lines = tuple(values for values in table.rows if any(values[1:5]))
    story = [
        paragraph(table.title, H2),
        columns_grid(
            table, [0, 1, 2, 3, 4], [36 * mm, 32 * mm, 20 * mm, 22 * mm], words=5, rows=lines
        ),
        Spacer(0, 6),
        columns_grid(table, [0, *range(5, len(table.columns))], [50 * mm]),
    ]
    ranges = budget_ranges_table(report.budget)
    if ranges is not None:
        indexes = list(range(len(ranges.columns)))
        story += [paragraph(ranges.title, H2), columns_grid(ranges, indexes, [50 * mm])]
    return story


def variance_story(tables: tuple[FigureTable, ...]) -> list:
    """The plan against actual: each table under its title, money per period and kind of line,
    then accelerator-hours and tokens per period."""
    story: list = [paragraph(_("Plan against actual"), H2)]
    for table in tables:
        indexes = list(range(len(table.columns)))
        words = 2 if table.columns[1].key == "kind" else 1
        fixed = [22 * mm, 44 * mm] if words == 2 else [22 * mm]
        story += [paragraph(table.title, H3), columns_grid(table, indexes, fixed, words=words)]
    return story


def options_story(report: ScenarioReport) -> list:
    """The decision view: the options' totals, what each assumes, their opex per fiscal year
    (three tables, so that each fits the page's width), then the headline in words and the
    options' ranges when they have them."""
    if report.options is None:
        return []
    table = options_table(report.options)
    years = len(report.options.comparison.fiscal_years)
    after = 3 + years  # the columns after the fiscal years: total, npv, per request, …
    groups = (
        [0, 1, 2, after, after + 1, after + 2, after + 3],
        [0, *range(after + 4, len(table.columns))],
        [0, *range(3, after)],
    )
    story = [CondPageBreak(40 * mm), paragraph(table.title, H2)]
    for indexes in groups:
        story += [columns_grid(table, indexes, [42 * mm]), Spacer(0, 6)]
    story += [paragraph(sentence) for sentence in options_sentences(report.options)]
    return story + options_range_story(
        report.options,
        heading=lambda text: paragraph(text, H3),
        paragraph=paragraph,
        table=lambda ranges: columns_grid(
            ranges, list(range(len(ranges.columns))), [42 * mm], words=2
        ),
    )


def inputs_table(report: ScenarioReport) -> Table:
    rows = [[_("Section"), _("Input"), _("Value"), _("Meaning")]]
    rows += [
        [item.section, item.label, item.text, item.meaning]
        for item in input_rows(report.scenario.inputs)
    ]
    return grid(rows, [28 * mm, 46 * mm, 42 * mm, WIDTH - 116 * mm])
