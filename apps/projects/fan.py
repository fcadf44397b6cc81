"""The fan on the cumulative cost chart: the 90 % band of the cumulative inference cost, month by
month, its median line, the training cost's band and the break-even range, with a data table.

Every month's percentiles are those of the samples' own cumulative curves (see
apps.estimates.uncertainty.sample with `fan`), never a curve drawn through corners.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.safestring import SafeString
from django.utils.translation import gettext

from apps.estimates.uncertainty import BREAK_EVEN, UncertaintyResult
from apps.projects.range_inputs import format_two_figures, range_lines
from apps.words.numbers import decimal_text
from apps.words.templatetags.figures import figure_html


@dataclass(frozen=True)
class FanRow:
    month: int
    p5: SafeString
    p50: SafeString
    p95: SafeString


def _money(value, currency: str) -> SafeString:
    return figure_html(format_two_figures("money", value, currency))


def _number(value) -> float | None:
    return None if value is None else float(value)


def fan_context(ranges: UncertaintyResult | None, currency: str = "USD") -> dict | None:
    """The fan's rows, chart data and words; None without ranges or without a monthly cost."""
    if ranges is None or not ranges.fan:
        return None
    training = ranges.figures.get("training.cost")
    break_even = ranges.figures.get(BREAK_EVEN)
    lines = {line.path: line for line in range_lines(ranges, currency)}
    chart = {
        "months": [row.month for row in ranges.fan],
        "p5": [float(row.p5) for row in ranges.fan],
        "p50": [float(row.p50) for row in ranges.fan],
        "p95": [float(row.p95) for row in ranges.fan],
        "training": None
        if training is None
        else [_number(training.p5), _number(training.p50), _number(training.p95)],
        "break_even": None
        if break_even is None
        else [_number(break_even.p5), _number(break_even.p50), _number(break_even.p95)],
        "horizon": ranges.fan[-1].month,
        "labels": {
            "p95": gettext("Inference, 95th percentile (high)"),
            "p50": gettext("Inference, central estimate (median)"),
            "p5": gettext("Inference, 5th percentile (low)"),
            "training": gettext("Training cost, central estimate"),
            "training_band": gettext("Training cost, 5th and 95th percentiles"),
            "break_even": gettext("break-even, 9 in 10 chance in this span")
            if break_even is not None and break_even.p95 is not None
            else gettext("break-even, 19 in 20 chance not before here"),
            "high": gettext("95th"),
            "central": gettext("median"),
            "low": gettext("5th"),
            "month": gettext("Month"),
            "cost": gettext("Cumulative cost (%(currency)s)") % {"currency": currency},
        },
    }
    return {
        "rows": [
            FanRow(
                row.month,
                _money(row.p5, currency),
                _money(row.p50, currency),
                _money(row.p95, currency),
            )
            for row in ranges.fan
        ],
        "chart": chart,
        "training": lines.get("training.cost"),
        "break_even": lines.get(BREAK_EVEN),
        "currency": currency,
        "samples": decimal_text(Decimal(ranges.samples)),
        "seed": ranges.seed,
    }
