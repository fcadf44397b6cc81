"""The options' ranges as pages show them, from what is kept of a comparison (made now, or kept
with a version): for each option its net present value's central estimate with its 9 in 10
range, how often it is the cheapest, and the percentiles of its figures for a data table. A
comparison without ranges (none given, or kept before they were) shows none."""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from apps.estimates.kept import KeptOptions
from apps.estimates.options import OptionsUncertainty
from apps.estimates.uncertainty import FigureRange
from apps.options.forms import option_label
from apps.projects.range_inputs import range_sentence
from apps.words import formatting
from apps.words.templatetags.figures import figure_html

# (figure of the record, its name on the page, the factor the page shows it at): the cost per
# request is shown per 1,000 requests, as in the options table.
FIGURES = (
    ("npv", gettext_lazy("Net present value"), 1),
    ("total", gettext_lazy("Total"), 1),
    ("cost_per_request", gettext_lazy("Cost per 1,000 requests"), 1000),
)


@dataclass(frozen=True)
class RangeRow:
    figure: str
    p5: Decimal
    p50: Decimal
    p95: Decimal
    mean: Decimal


@dataclass(frozen=True)
class OptionRanges:
    key: str
    label: str
    cheapest_share: float
    sentence: SafeString  # "net present value: central estimate X (9 in 10 chance …); …"
    rows: list[RangeRow]


def _scaled(figure: FigureRange, factor: int) -> FigureRange:
    p5, p50, p95, mean = (
        value * factor for value in (figure.p5, figure.p50, figure.p95, figure.mean)
    )
    return FigureRange(p5, p50, p95, mean)


def _option(key: str, uncertainty: OptionsUncertainty, currency: str) -> OptionRanges:
    rows, npv = [], None
    for name, label, factor in FIGURES:
        kept = uncertainty.figures.get(f"options.{key}.{name}")
        if kept is None:  # no requests to share a cost over, or kept before it was given
            continue
        figure = _scaled(kept, factor)
        npv = figure if name == "npv" else npv
        rows.append(RangeRow(str(label), figure.p5, figure.p50, figure.p95, figure.mean))
    share = uncertainty.cheapest_share.get(key, 0.0)
    cheapest = format_html(
        gettext("cheapest in {share} of samples"),
        share=figure_html(formatting.percent(share)),
    )
    sentence = (
        format_html(
            gettext("net present value: {range}; {cheapest}"),
            range=range_sentence("money", npv, currency),
            cheapest=cheapest,
        )
        if npv is not None
        else cheapest
    )
    return OptionRanges(key, option_label(key), share, sentence, rows)


def option_ranges_context(kept: KeptOptions | None) -> dict:
    """`option_ranges` for templates/options/includes/option_ranges.html: the samples, the seed
    and each option's ranges, in the comparison's order; None without ranges."""
    uncertainty = None if kept is None else kept.ranges
    if uncertainty is None:
        return {"option_ranges": None}
    return {
        "option_ranges": {
            "samples": uncertainty.samples,
            "seed": uncertainty.seed,
            "currency": kept.currency,
            "options": [
                _option(option.key, uncertainty, kept.currency)
                for option in kept.comparison.options
            ],
        }
    }
