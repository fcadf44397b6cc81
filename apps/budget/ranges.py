"""The budget's ranges on its pages: the headline totals as "central estimate X (9 in 10 chance
between A and B)", each fiscal year's total as percentiles in a table, and the whiskers on the
chart's yearly bars. All from ScenarioBudget.ranges, live or as a version kept it."""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from apps.budget.selectors import ScenarioBudget
from apps.projects.range_inputs import format_two_figures, range_lines, range_notes
from apps.words.numbers import decimal_text
from apps.words.templatetags.figures import figure_html

# The summary strip's figures, in its words.
HEADLINES = (
    ("summary.total", gettext_lazy("Total over the period"), "money"),
    ("summary.upfront", gettext_lazy("Upfront (capex)"), "money"),
    ("summary.annual_run_rate", gettext_lazy("Annual run-rate (steady-state opex)"), "money"),
    ("summary.npv", gettext_lazy("Net present value"), "money"),
)


@dataclass(frozen=True)
class YearRange:
    """A fiscal year's total: its 5th percentile, median and 95th percentile, as HTML."""

    label: str
    p5: SafeString
    p50: SafeString
    p95: SafeString


def _year_figures(drawn_up: ScenarioBudget) -> list:
    """Each fiscal year's total's percentiles (None where a sample could not be worked out)."""
    figures = drawn_up.ranges.figures
    years = drawn_up.budget.fiscal_years
    return [figures.get(f"totals.total.{index}") for index in range(len(years))]


def budget_ranges(drawn_up: ScenarioBudget) -> dict | None:
    """The ranges' words and table for the budget section; None without ranges."""
    ranges = drawn_up.ranges
    if ranges is None:
        return None
    currency = drawn_up.currency

    def money(value) -> SafeString:
        return figure_html(format_two_figures("money", value, currency))

    years = zip(drawn_up.budget.fiscal_years, _year_figures(drawn_up), strict=True)
    return {
        "lines": range_lines(ranges, currency, HEADLINES),
        "notes": range_notes(ranges),
        "years": [
            YearRange(year.label, money(figure.p5), money(figure.p50), money(figure.p95))
            for year, figure in years
            if figure is not None
        ],
        "samples": decimal_text(Decimal(ranges.samples)),
        "seed": ranges.seed,
        "currency": currency,
    }


def chart_range(drawn_up: ScenarioBudget) -> dict | None:
    """The whiskers on the chart's yearly bars (each year's total, 5th to 95th percentile, its
    median marked), as numbers for Chart.js, with their words; None without ranges."""
    if drawn_up.ranges is None:
        return None
    figures = _year_figures(drawn_up)

    def values(name: str) -> list[float | None]:
        return [None if figure is None else float(getattr(figure, name)) for figure in figures]

    return {
        "p5": values("p5"),
        "p50": values("p50"),
        "p95": values("p95"),
        "range_label": gettext("Year’s total: 9 in 10 chance between the whisker’s ends"),
        "median_label": gettext("Year’s total: central estimate (median)"),
    }


@dataclass(frozen=True)
class RangePair:
    """A headline figure's range in two versions' budgets ("" where one has no ranges)."""

    label: str
    old: SafeString
    new: SafeString


def range_pairs(old: ScenarioBudget | None, new: ScenarioBudget | None) -> list[RangePair]:
    """The summary's ranges as two versions kept them, side by side; empty when neither had
    ranges."""
    sentences = [
        {line.path: line.sentence for line in (budget_ranges(drawn_up) or {}).get("lines", [])}
        if drawn_up is not None
        else {}
        for drawn_up in (old, new)
    ]
    if not any(sentences):
        return []
    return [
        RangePair(str(label), *(found.get(path, SafeString("")) for found in sentences))
        for path, label, _ in HEADLINES
    ]
