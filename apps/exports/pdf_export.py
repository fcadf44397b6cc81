"""A project as a PDF for print (A4): facts, then per scenario the comparison, chart and figures.

Money comes from the estimate response (apps.exports.figures); the bottom strip, the chart and
the description read the engine's result that response was written from (the report's kept
estimate), as the scenario page does. Text is set in fonts that cover every UN script,
embedded (apps.exports.pdf_fonts), with Arabic shaped; it stays searchable and copyable
(apps.exports.cells.pdf_markup). The styles and building blocks are apps.exports.pdf_layout's,
the figures side by side apps.exports.pdf_figures's, the tables apps.exports.pdf_tables's.
"""

import io
from functools import partial

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    SimpleDocTemplate,
    Spacer,
    Table,
)

from apps.exports.cells import printable
from apps.exports.figures import tables
from apps.exports.pdf_chart import cumulative_chart
from apps.exports.pdf_figures import break_even_sentence, comparison, strip
from apps.exports.pdf_fonts import SANS, pdf_fonts
from apps.exports.pdf_layout import (
    BODY,
    CELL,
    CELL_BOLD,
    FOOTER,
    H1,
    H2,
    H3,
    LIST,
    MARGIN,
    TITLE,
    WIDTH,
    grid,
    paragraph,
    value_text,
)
from apps.exports.pdf_tables import (
    budget_story,
    figure_table,
    inputs_table,
    options_story,
    series_table,
    variance_story,
)
from apps.exports.range_rows import range_story
from apps.exports.report import Report, ScenarioReport
from apps.projects.describe import describe
from apps.words.dates import date_text, datetime_text
from apps.words.messages import message_text


def _moment(moment) -> str:
    """A time for people, with its zone: "2 Dec 2026, 03:15 UTC"."""
    moment = timezone.localtime(moment)
    return f"{datetime_text(moment)} {moment.tzname()}"


def _facts(report: Report) -> Table:
    facts = report.facts(day=date_text, moment=_moment)
    rows = [[paragraph(label, CELL_BOLD), paragraph(text or "—", CELL)] for _, label, text in facts]
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
        rows.append([name, *(value_text(values.get(field)) for field, __ in SUMMARY)])
    widths = [WIDTH - len(SUMMARY) * 30 * mm, *([30 * mm] * len(SUMMARY))]
    return grid(rows, widths, numeric=set(range(1, len(SUMMARY) + 1)))


def _name(scenario) -> str:
    return (
        _("%(name)s (baseline)") % {"name": scenario.name}
        if scenario.is_baseline
        else scenario.name
    )


def _scenario(report: ScenarioReport, project_title: str) -> list:
    scenario = report.scenario
    story = [
        paragraph(_name(scenario), H1),
        paragraph(_("Scenario of “%(title)s”") % {"title": project_title}, BODY),
    ]
    result = report.kept.result if report.kept is not None else None
    if result is None:
        story += [
            paragraph(
                _("The saved figures no longer fit the catalogue: %(why)s") % {"why": report.error},
                BODY,
            ),
            paragraph(_("Inputs"), H2),
            inputs_table(report),
        ]
        return story
    currency = report.response["currency"]
    story += [paragraph(_("Training against inference"), H2), comparison(report), Spacer(0, 8)]
    story += [KeepTogether([paragraph(_("Decision view"), H3), strip(result, currency)])]
    if sentence := break_even_sentence(report.response):
        story += [Spacer(0, 6), paragraph(sentence)]
    story += range_story(
        report.kept.ranges,
        currency,
        heading=lambda text: paragraph(text, H3),
        paragraph=paragraph,
    )
    chart = cumulative_chart(result, WIDTH, 75 * mm)
    if chart is not None:
        caption = _(
            "Cumulative accelerator-hours, month by month: the one-off training step against "
            "the rising inference line, with the break-even point marked when it falls within "
            "the horizon. The tables below give the figures."
        )
        story += [KeepTogether([Spacer(0, 6), chart, paragraph(caption, CELL)])]
    story += [CondPageBreak(40 * mm), paragraph(_("Describe this without the diagram"), H2)]
    story += [paragraph(text) for text in describe(result, currency=currency)]
    story += [paragraph(_("Figures, exactly as the API gives them"), H2), figure_table(report)]
    for table in tables(report.response):
        story += [paragraph(table.title, H2), series_table(table)]
    story += budget_story(report)
    story += options_story(report)
    story += [paragraph(_("How the figures are worked out"), H2)]
    for section, label in (("training", _("Training")), ("inference", _("Inference"))):
        notes = (report.response[section] or {}).get("assumptions", [])
        story += [paragraph(f"{label}: {message_text(note)}", CELL) for note in notes]
    story += [paragraph(_("Inputs"), H2), inputs_table(report)]
    return story


def _footer(canvas, document, *, text: str) -> None:
    canvas.saveState()
    line = paragraph(text, FOOTER)
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
        paragraph(project.title, TITLE),
        paragraph(_("Compute workplan, exported %(when)s") % {"when": exported}, BODY),
        paragraph(_("Project"), H2),
        _facts(report),
        paragraph(_("Scenarios"), H2),
        _summary(report, currency),
    ]
    if report.variance:
        story += [PageBreak(), *variance_story(report.variance)]
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
