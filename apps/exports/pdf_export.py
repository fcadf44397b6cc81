"""A project as a PDF for print (A4): facts, then per scenario the comparison, chart and figures.

Money comes from the estimate response (apps.exports.figures); the bottom strip, the chart and
the description need the engine's result, so they come from `estimate_from_request` on the
same stored inputs, as on the scenario page. Text is set in fonts that cover every UN script,
embedded (apps.exports.pdf_fonts), with Arabic shaped; it stays searchable and copyable
(apps.exports.cells.pdf_markup).
"""

import io
from collections.abc import Collection
from decimal import Decimal
from functools import cache, partial

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from apps.catalogue.names import catalogue_name
from apps.catalogue.resolve import estimate_from_request
from apps.estimates import EstimateInputError, EstimateResult
from apps.exports.budget_table import budget_ranges_table, budget_table
from apps.exports.cells import has_arabic, pdf_markup, printable
from apps.exports.figures import Table as FigureTable
from apps.exports.figures import Value, tables
from apps.exports.input_words import input_rows
from apps.exports.options_ranges import options_range_story
from apps.exports.options_table import options_sentences, options_table
from apps.exports.pdf_chart import cumulative_chart
from apps.exports.pdf_fonts import SANS, SANS_BOLD, pdf_fonts
from apps.exports.range_rows import range_story
from apps.exports.report import Report, ScenarioReport
from apps.projects import formatting
from apps.projects.describe import bottom_strip, describe
from apps.projects.engine_text import engine_text
from apps.projects.locale_numbers import date_text, datetime_text, decimal_text

MARGIN = 18 * mm
WIDTH = A4[0] - 2 * MARGIN
_SAMPLE = getSampleStyleSheet()
TITLE = ParagraphStyle("title", parent=_SAMPLE["Title"], fontName=SANS_BOLD)
H1 = ParagraphStyle("h1", parent=_SAMPLE["Heading1"], fontName=SANS_BOLD, fontSize=16, leading=20)
H2 = ParagraphStyle("h2", parent=_SAMPLE["Heading2"], fontName=SANS_BOLD, fontSize=12.5, leading=16)
H3 = ParagraphStyle("h3", parent=_SAMPLE["Heading3"], fontName=SANS_BOLD, fontSize=10.5, leading=13)
BODY = ParagraphStyle("body", parent=_SAMPLE["BodyText"], fontName=SANS, fontSize=9.5, leading=13)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8.5, leading=10.5, spaceBefore=0)
CELL_BOLD = ParagraphStyle("cell-bold", parent=CELL, fontName=SANS_BOLD)
NUMBER = ParagraphStyle("number", parent=CELL, alignment=TA_RIGHT)
STRIP_TEXT = ParagraphStyle("strip", parent=CELL, fontName=SANS_BOLD, fontSize=11, leading=14)
FOOTER = ParagraphStyle("footer", parent=BODY, fontSize=8, leading=10, textColor="#444444")
GREY = colors.HexColor("#999999")
SHADE = colors.HexColor("#eeeeee")
# Cells hold paragraphs in the styles above; a table still sets its own font, which must be one
# of the embedded ones too.
CELL_FONT = ("FONTNAME", (0, 0), (-1, -1), SANS)
GRID = TableStyle(
    [
        CELL_FONT,
        ("GRID", (0, 0), (-1, -1), 0.25, GREY),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)
STRIP = TableStyle(
    [CELL_FONT, ("GRID", (0, 0), (-1, -1), 0.25, GREY), ("VALIGN", (0, 0), (-1, -1), "TOP")]
)
LIST = TableStyle(
    [
        CELL_FONT,
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ]
)


@cache
def _shaping(style: ParagraphStyle) -> ParagraphStyle:
    """The style with HarfBuzz shaping, which joins Arabic letters; only text that needs it pays
    for it."""
    return ParagraphStyle(f"{style.name}-shaped", parent=style, shaping=1)


def _p(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    markup = pdf_markup(text, bold=style.fontName == SANS_BOLD)
    return Paragraph(markup, _shaping(style) if has_arabic(text) else style)


def _value_text(value: Value) -> str:
    """A table value for print: money to the cent with separators (below a cent as many decimals
    as the pages show), other numbers readable."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return decimal_text(value, formatting.money_decimal_places(value))
    if isinstance(value, int | float):
        return formatting.count(value, "").text.strip()
    return value


def _exact_text(value: Value) -> str:
    """A value exactly as the API gives it (the figures table is for checking, not reading)."""
    if value is None:
        return str(formatting.NOT_AVAILABLE)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _grid(rows: list[list], widths: list[float], numeric: Collection[int] = ()) -> Table:
    """A table with a shaded header row that repeats on every page it runs over; the columns
    numbered in `numeric` are aligned right."""
    cells = [[_p(text, CELL_BOLD) for text in rows[0]]]
    cells += [
        [_p(text, NUMBER if i in numeric else CELL) for i, text in enumerate(row)]
        for row in rows[1:]
    ]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(GRID)
    return table


def _moment(moment) -> str:
    """A time for people, with its zone: "2 Dec 2026, 03:15 UTC"."""
    moment = timezone.localtime(moment)
    return f"{datetime_text(moment)} {moment.tzname()}"


def _facts(report: Report) -> Table:
    facts = report.facts(day=date_text, moment=_moment)
    rows = [[_p(label, CELL_BOLD), _p(text or "—", CELL)] for _, label, text in facts]
    table = Table(rows, colWidths=[45 * mm, WIDTH - 45 * mm])
    table.setStyle(LIST)
    return table


# The figures of each scenario on the first page, with their column headers.
SUMMARY = (
    ("training.cost", gettext_lazy("Training cost ({currency})")),
    ("inference.total.cost", gettext_lazy("Inference cost over the horizon ({currency})")),
    ("inference.per_request.cost_per_1000", gettext_lazy("Cost per 1,000 requests ({currency})")),
    ("comparison.break_even_months", gettext_lazy("Break-even (months)")),
)


def _summary(report: Report, currency: str) -> Table:
    rows = [[_("Scenario"), *(str(heading).format(currency=currency) for __, heading in SUMMARY)]]
    for scenario in report.scenarios:
        name = _name(scenario.scenario)
        if scenario.response is None:
            rows.append([name, _("figures not available"), *([""] * (len(SUMMARY) - 1))])
            continue
        values = {figure.field: figure.value for figure in scenario.figures}
        rows.append([name, *(_value_text(values.get(field)) for field, __ in SUMMARY)])
    widths = [WIDTH - len(SUMMARY) * 30 * mm, *([30 * mm] * len(SUMMARY))]
    return _grid(rows, widths, numeric=set(range(1, len(SUMMARY) + 1)))


def _name(scenario) -> str:
    return (
        _("%(name)s (baseline)") % {"name": scenario.name}
        if scenario.is_baseline
        else scenario.name
    )


def _definition_list(items: list[tuple[str, str]], width: float) -> Table:
    rows = [[_p(label, CELL), _p(text, CELL_BOLD)] for label, text in items]
    table = Table(rows, colWidths=[width * 0.48, width * 0.52])
    table.setStyle(LIST)
    return table


def _training_figures(response: dict, values: dict, currency: str) -> list[tuple[str, str]]:
    training = response["training"]
    compute = formatting.flop(training["flop"]).text
    if training["petaflop_s_days"]:
        days = formatting.count(training["petaflop_s_days"], "petaflop/s-days").text
        compute += f" ({days})"
    items = [
        (_("Training compute"), compute),
        (_("Accelerator-hours"), formatting.hours(training["accelerator_hours"]).text),
        (_("Wall-clock time"), formatting.hours(training["wall_clock_hours"], "hours").text),
        (_("Cost"), formatting.money(values["training.cost"], currency).text),
        (_("Energy"), formatting.energy_kwh(training["energy_kwh"]).text),
        (_("Emissions"), formatting.emissions_kg(training["emissions_kg_co2e"]).text),
    ]
    items += [
        (
            _("Exceeded") if threshold["exceeded"] else _("Below"),
            f"{catalogue_name(threshold['name'])} ({formatting.flop(threshold['flop']).text})",
        )
        for threshold in training["thresholds"]
    ]
    return items


def _inference_figures(response: dict, values: dict, currency: str) -> list[tuple[str, str]]:
    inference = response["inference"]
    per_request, total = inference["per_request"], inference["total"]
    first = inference["monthly"][0]
    items = [
        (_("Compute per request"), formatting.flop(per_request["flop"]).text),
        (
            _("Accelerator time per request"),
            formatting.seconds(per_request["accelerator_seconds"]).text,
        ),
        (_("User speed (latency)"), formatting.seconds(per_request["latency_seconds"]).text),
        (
            _("Cost per request"),
            formatting.money(values["inference.per_request.cost"], currency).text,
        ),
        (
            _("Cost per 1,000 requests"),
            formatting.money(values["inference.per_request.cost_per_1000"], currency).text,
        ),
        (
            _("First month"),
            f"{formatting.count(first['requests'], 'requests').text}, "
            f"{formatting.hours(first['accelerator_hours']).text}",
        ),
        (
            _("Over %(months)s") % {"months": formatting.months(len(inference["monthly"])).text},
            f"{formatting.count(total['requests'], 'requests').text}, "
            f"{formatting.hours(total['accelerator_hours']).text}",
        ),
        (
            _("Cost over the horizon"),
            formatting.money(values["inference.total.cost"], currency).text,
        ),
        (
            _("Accelerators needed at peak"),
            formatting.count(inference["peak_accelerators"], "accelerators").text,
        ),
        (_("Energy over the horizon"), formatting.energy_kwh(total["energy_kwh"]).text),
        (_("Emissions over the horizon"), formatting.emissions_kg(total["emissions_kg_co2e"]).text),
    ]
    if inference["gross_margin"] is not None:
        items.append((_("Gross margin"), formatting.percent(inference["gross_margin"]).text))
    return items


def _comparison(report: ScenarioReport) -> Table:
    """Training on the left, inference on the right, as on the scenario page."""
    response, currency = report.response, report.response["currency"]
    values = {figure.field: figure.value for figure in report.figures}
    column = WIDTH / 2 - 6
    left = [_p(_("Training: build once"), H3)]
    if response["training"]:
        left.append(_definition_list(_training_figures(response, values, currency), column))
    else:
        left.append(_p(_("This scenario has no training: it uses a model as it is.")))
    right = [_p(_("Inference: every request"), H3)]
    if response["inference"]:
        right.append(_definition_list(_inference_figures(response, values, currency), column))
    else:
        right.append(_p(_("This scenario has no inference: only the training is planned.")))
    table = Table([[left, right]], colWidths=[WIDTH / 2, WIDTH / 2])
    table.setStyle(
        TableStyle(
            [
                CELL_FONT,
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEAFTER", (0, 0), (0, 0), 0.5, GREY),
                ("RIGHTPADDING", (0, 0), (0, 0), 8),
                ("LEFTPADDING", (1, 0), (1, 0), 8),
            ]
        )
    )
    return table


def _strip(result: EstimateResult, currency: str) -> Table:
    """The bottom strip for many requests and for a single one: the page's two views."""
    rows = []
    for view, title in (("many", _("Many requests")), ("single", _("A single request"))):
        strip = bottom_strip(result, currency, view=view)
        rows.append(
            [
                _p(title, CELL_BOLD),
                *(
                    [_p(m["label"], CELL), _p(m["text"], STRIP_TEXT), _p(m["detail"], CELL)]
                    for m in strip.values()
                ),
            ]
        )
    table = Table(rows, colWidths=[28 * mm, *([(WIDTH - 28 * mm) / 3] * 3)])
    table.setStyle(STRIP)
    return table


def _break_even(response: dict) -> str:
    comparison = response["comparison"]
    if not comparison:
        return ""
    months = comparison["break_even_months"]
    share = formatting.percent(comparison["training_share"]).text
    if months is None:
        overtakes = _("At this demand, inference never overtakes the one-off training.")
    elif comparison["within_horizon"]:
        overtakes = _(
            "Cumulative inference overtakes the one-off training after %(months)s, within the "
            "horizon."
        ) % {"months": formatting.months(months).text}
    else:
        overtakes = _(
            "Cumulative inference overtakes the one-off training after %(months)s, beyond the "
            "horizon."
        ) % {"months": formatting.months(months).text}
    training = _("Training is %(share)s of all accelerator-hours over the horizon.") % {
        "share": share
    }
    return f"{overtakes} {training}"


def _figure_table(report: ScenarioReport) -> Table:
    rows = [[_("Section"), _("Figure"), _("Value"), _("Unit")]]
    rows += [[f.section, f.figure, _exact_text(f.value), f.unit] for f in report.figures]
    return _grid(rows, [38 * mm, 62 * mm, 40 * mm, WIDTH - 140 * mm], numeric={2})


def _series_table(table: FigureTable) -> Table:
    rows = [[column.heading for column in table.columns]]
    rows += [[_value_text(value) for value in values] for values in table.rows]
    count = len(table.columns)
    widths = [12 * mm, *([(WIDTH - 12 * mm) / (count - 1)] * (count - 1))]
    return _grid(rows, widths, numeric=set(range(count)))


def _budget(report: ScenarioReport) -> list:
    """The budget table: each line with its class, category and basis, per fiscal year."""
    if report.budget is None:
        why = _("Budget not available: %(why)s") % {"why": report.budget_error}
        return [_p(_("Budget by fiscal year"), H2), _p(why)]
    story = _table_grid(budget_table(report.budget), [30 * mm, 18 * mm, 11 * mm, 9 * mm, 34 * mm])
    ranges = budget_ranges_table(report.budget)
    if ranges is not None:  # the percentiles of its figures, with the samples and seed
        story += _table_grid(ranges, [50 * mm])
    return story


def _table_grid(table: FigureTable, fixed: list[float]) -> list:
    """A table's title and grid: the first columns at the widths given, the rest (numbers)
    sharing what is left of the page."""
    rows = [[column.heading for column in table.columns]]
    rows += [[_value_text(value) for value in values] for values in table.rows]
    count = len(table.columns)
    rest = (WIDTH - sum(fixed)) / (count - len(fixed))
    numeric = set(range(len(fixed), count))
    return [_p(table.title, H2), _grid(rows, [*fixed, *([rest] * (count - len(fixed)))], numeric)]


def _options(report: ScenarioReport) -> list:
    """The decision view: the options' totals, what each assumes, their opex per fiscal year
    (three tables, so that each fits the page's width), then the headline in words and the
    options' ranges when they have them."""
    if report.options is None:
        return []
    table = options_table(report.options)
    years = len(report.options["fiscal_years"])
    after = 3 + years  # the columns after the fiscal years: total, npv, per request, …
    groups = (
        [0, 1, 2, after, after + 1, after + 2, after + 3],
        [0, *range(after + 4, len(table.columns))],
        [0, *range(3, after)],
    )

    def grid(indexes: list[int], table: FigureTable = table, words: int = 1) -> Table:
        rows = [[table.columns[i].heading for i in indexes]]
        rows += [[_value_text(values[i]) for i in indexes] for values in table.rows]
        first = 42 * mm
        rest = (WIDTH - first) / (len(indexes) - 1)
        numbers = set(range(words, len(indexes)))
        return _grid(rows, [first, *([rest] * (len(indexes) - 1))], numbers)

    story = [CondPageBreak(40 * mm), _p(table.title, H2)]
    for indexes in groups:
        story += [grid(indexes), Spacer(0, 6)]
    story += [_p(sentence) for sentence in options_sentences(report.options)]
    return story + options_range_story(
        report.options,
        heading=lambda text: _p(text, H3),
        paragraph=_p,
        table=lambda ranges: grid(list(range(len(ranges.columns))), ranges, words=2),
    )


def _inputs(report: ScenarioReport) -> Table:
    rows = [[_("Section"), _("Input"), _("Value"), _("Meaning")]]
    rows += [
        [item.section, item.label, item.text, item.meaning]
        for item in input_rows(report.scenario.inputs)
    ]
    return _grid(rows, [22 * mm, 48 * mm, 32 * mm, WIDTH - 102 * mm])


def _result(report: ScenarioReport) -> EstimateResult | None:
    try:
        return estimate_from_request(report.scenario.inputs)[0]
    except EstimateInputError:
        return None


def _scenario(report: ScenarioReport, project_title: str) -> list:
    scenario = report.scenario
    story = [
        _p(_name(scenario), H1),
        _p(_("Scenario of “%(title)s”") % {"title": project_title}, BODY),
    ]
    result = _result(report) if report.response is not None else None
    if result is None:
        story += [
            _p(
                _("The saved figures no longer fit the catalogue: %(why)s") % {"why": report.error},
                BODY,
            ),
            _p(_("Inputs"), H2),
            _inputs(report),
        ]
        return story
    currency = report.response["currency"]
    story += [_p(_("Training against inference"), H2), _comparison(report), Spacer(0, 8)]
    story += [KeepTogether([_p(_("Decision view"), H3), _strip(result, currency)])]
    if sentence := _break_even(report.response):
        story += [Spacer(0, 6), _p(sentence)]
    story += range_story(report.response, heading=lambda text: _p(text, H3), paragraph=_p)
    chart = cumulative_chart(result, WIDTH, 75 * mm)
    if chart is not None:
        caption = _(
            "Cumulative accelerator-hours, month by month: the one-off training step against "
            "the rising inference line, with the break-even point marked when it falls within "
            "the horizon. The tables below give the figures."
        )
        story += [KeepTogether([Spacer(0, 6), chart, _p(caption, CELL)])]
    story += [CondPageBreak(40 * mm), _p(_("Describe this without the diagram"), H2)]
    story += [_p(paragraph) for paragraph in describe(result, currency=currency)]
    story += [_p(_("Figures, exactly as the API gives them"), H2), _figure_table(report)]
    for table in tables(report.response):
        story += [_p(table.title, H2), _series_table(table)]
    story += _budget(report)
    story += _options(report)
    story += [_p(_("How the figures are worked out"), H2)]
    for section, label in (("training", _("Training")), ("inference", _("Inference"))):
        notes = (report.response[section] or {}).get("assumptions", [])
        story += [_p(f"{label}: {engine_text(note)}", CELL) for note in notes]
    story += [_p(_("Inputs"), H2), _inputs(report)]
    return story


def _footer(canvas, document, *, text: str) -> None:
    canvas.saveState()
    line = _p(text, FOOTER)
    line.wrapOn(canvas, WIDTH - 20 * mm, 10)
    line.drawOn(canvas, MARGIN, 10 * mm)
    canvas.setFont(SANS, 8)
    canvas.setFillColor(colors.HexColor("#444444"))
    canvas.drawRightString(
        A4[0] - MARGIN, 10 * mm, _("Page %(number)s") % {"number": document.page}
    )
    canvas.restoreState()


def project_pdf(report: Report) -> bytes:
    pdf_fonts()  # registered before any style names them
    project = report.project
    currency = next((s.response["currency"] for s in report.scenarios if s.response), "USD")
    exported_at = timezone.localtime(report.exported_at)
    exported = _("%(date)s by %(user)s") % {
        "date": date_text(exported_at.date()),
        "user": report.exported_by,
    }
    story = [
        _p(project.title, TITLE),
        _p(_("Compute workplan, exported %(when)s") % {"when": exported}, BODY),
        _p(_("Project"), H2),
        _facts(report),
        _p(_("Scenarios"), H2),
        _summary(report, currency),
    ]
    for scenario in report.scenarios:
        story += [PageBreak(), *_scenario(scenario, project.title)]
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=printable(project.title),
        author=printable(report.exported_by),
        subject=_("Compute workplan"),
        creator="Compute Planner",
        initialFontName=SANS,
    )
    footer = partial(
        _footer,
        text=_("%(title)s — exported %(when)s")
        % {"title": project.title[:80], "when": _moment(exported_at)},
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
