"""The cumulative chart for print: the one-off training step against the rising inference line."""

from dataclasses import dataclass

from django.utils.translation import gettext
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors

from apps.estimates import EstimateResult
from apps.exports.cells import pdf_plain
from apps.exports.pdf_fonts import SANS
from apps.projects.comparison import ChartRow, chart_rows
from apps.words import formatting

TRAINING_COLOUR = colors.HexColor("#1f5fa8")
INFERENCE_COLOUR = colors.HexColor("#b35900")
BREAK_EVEN_COLOUR = colors.HexColor("#555555")
FONT = SANS
_LEFT, _BOTTOM, _TOP, _RIGHT = 64, 44, 30, 12


def _axis_label(value: float) -> str:
    return pdf_plain(formatting.count(value, "").text.strip())


def _month_step(horizon: int) -> int:
    return next(step for step in (1, 2, 3, 6, 12, 24, 60) if horizon / step <= 12)


@dataclass(frozen=True)
class Series:
    label: str
    points: list[tuple[float, float]]
    colour: colors.Color
    width: float
    dashes: list[int] | None = None


def _legend(drawing: Drawing, series: list[Series]) -> None:
    """Swatches above the plot; the line styles differ too, so the chart reads in grey print."""
    x, y = _LEFT, drawing.height - 14
    for line in series:
        drawing.add(
            Line(
                x,
                y + 3,
                x + 22,
                y + 3,
                strokeColor=line.colour,
                strokeWidth=line.width,
                strokeDashArray=line.dashes,
            )
        )
        label = String(x + 27, y, line.label, fontName=FONT, fontSize=8)
        drawing.add(label)
        x = label.getEast() + 16


def _series(result: EstimateResult, rows: list[ChartRow]) -> list[Series]:
    horizon = rows[-1].month
    series = []
    if result.training is not None:
        # The training happens once, before the first month: a step up at month 0.
        points = [(0, 0.0)] + [(r.month, r.training_accelerator_hours) for r in rows]
        series.append(Series(gettext("Training (one-off)"), points, TRAINING_COLOUR, 2))
    if result.inference is not None:
        points = [(r.month, r.inference_accelerator_hours) for r in rows]
        label = gettext("Inference (cumulative)")
        series.append(Series(label, points, INFERENCE_COLOUR, 2, [5, 3]))
    break_even = result.comparison.break_even_months if result.comparison else None
    if break_even is not None and 0 < break_even <= horizon:
        highest = max(y for line in series for _, y in line.points)
        when = pdf_plain(formatting.months(break_even).text)
        points = [(break_even, 0.0), (break_even, highest)]
        label = gettext("Break-even after %(months)s") % {"months": when}
        series.append(Series(label, points, BREAK_EVEN_COLOUR, 1, [1, 2]))
    return series


def cumulative_chart(result: EstimateResult, width: float, height: float) -> Drawing | None:
    """Cumulative accelerator-hours by month, with the break-even month marked when it falls
    within the horizon; None when there is nothing to draw over time."""
    rows = chart_rows(result)
    if len(rows) < 2:
        return None
    drawing = Drawing(width, height, initialFontName=FONT)
    plot = LinePlot()
    plot.x, plot.y = _LEFT, _BOTTOM
    plot.width, plot.height = width - _LEFT - _RIGHT, height - _BOTTOM - _TOP
    series = _series(result, rows)
    plot.data = [line.points for line in series]
    for index, line in enumerate(series):
        plot.lines[index].strokeColor = line.colour
        plot.lines[index].strokeWidth = line.width
        plot.lines[index].strokeDashArray = line.dashes
    x_axis, y_axis = plot.xValueAxis, plot.yValueAxis
    x_axis.valueMin, x_axis.valueMax = 0, rows[-1].month
    x_axis.valueStep = _month_step(rows[-1].month)
    y_axis.valueMin = 0
    y_axis.labelTextFormat = _axis_label
    for axis in (x_axis, y_axis):
        axis.labels.fontName = FONT
        axis.labels.fontSize = 8
    drawing.add(plot)
    middle = plot.x + plot.width / 2
    months = gettext("Months")
    drawing.add(String(middle, 8, months, fontName=FONT, fontSize=8, textAnchor="middle"))
    top = plot.y + plot.height + 4
    hours = gettext("Cumulative accelerator-hours")
    drawing.add(String(_LEFT, top, hours, fontName=FONT, fontSize=8))
    _legend(drawing, series)
    return drawing
