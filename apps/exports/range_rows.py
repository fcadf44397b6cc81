"""The ranges of a scenario's figures in its exports: the seed and sample count, and for every
figure of the estimate response's `uncertainty` its 5th, 50th and 95th percentiles and mean (and,
for break-even, the share of samples that never break even), as figure rows that CSV, XLSX and
PDF list with the other figures; and, for print, the scenario page's sentences.

The input ranges themselves are in the inputs (apps.exports.input_words.input_rows), and JSON holds
the response as it is (`results.uncertainty`)."""

import re
from decimal import Decimal

from django.utils.html import strip_tags
from django.utils.translation import gettext, gettext_lazy

from apps.estimates.uncertainty import BREAK_EVEN, UncertaintyResult
from apps.exports.figures import SECTIONS, FigureRow
from apps.projects.range_inputs import range_lines
from apps.words.numbers import decimal_text


def _labels(currency: str) -> dict[str, tuple[str, str]]:
    """Each figure's name and unit by response path, as the export's figure rows give them."""
    labels = {
        f"{section.path}.{spec.key}": (
            f"{section.title}: {spec.label}",
            spec.unit.format(currency=currency),
        )
        for section in SECTIONS
        for spec in section.specs
    }
    labels["comparison.total_cost"] = (gettext("Training plus inference cost"), currency)
    return labels


# The statistics of a figure's samples, by their key in an `uncertainty` answer.
STATISTICS = (
    ("p5", gettext_lazy("5th percentile")),
    ("p50", gettext_lazy("median (central estimate)")),
    ("p95", gettext_lazy("95th percentile")),
    ("mean", gettext_lazy("mean")),
)


def uncertainty_rows(ranges: UncertaintyResult | None, currency: str) -> list[FigureRow]:
    """The percentiles of an estimate's ranges as figure rows; none without ranges."""
    if ranges is None:
        return []
    # xgettext:no-python-format
    section = gettext("Ranges (90 % intervals)")
    labels = _labels(currency)
    rows = [
        FigureRow(section, gettext("Samples"), ranges.samples, "", "uncertainty.samples"),
        FigureRow(section, gettext("Seed"), ranges.seed, "", "uncertainty.seed"),
    ]
    for path, figure in ranges.figures.items():
        name, unit = labels.get(path, (path, ""))
        for key, statistic in STATISTICS:
            value = getattr(figure, key)
            rows.append(
                FigureRow(
                    section,
                    f"{name}, {statistic}",
                    value,
                    unit,
                    f"uncertainty.figures.{path}.{key}",
                )
            )
        if path == BREAK_EVEN and figure.probability_never is not None:
            never = gettext("share of samples that never break even")
            rows.append(
                FigureRow(
                    section,
                    f"{name}, {never}",
                    figure.probability_never,
                    gettext("share"),
                    f"uncertainty.figures.{path}.probability_never",
                )
            )
    return rows


def range_sentences(ranges: UncertaintyResult | None, currency: str) -> list[str]:
    """The scenario page's lines for print: "Training cost: central estimate $590 (9 in 10
    chance between $300 and $1,200)", plain text."""
    if ranges is None:
        return []
    lines = range_lines(ranges, currency)
    return [f"{line.label}: {plain_text(line.sentence)}" for line in lines]


def plain_text(html: str) -> str:
    """A sentence of the pages as plain text, for print."""
    # A figure shown one way and read another keeps the shown text only.
    return strip_tags(re.sub(r'<span class="visually-hidden">.*?</span>', "", html))


def range_story(ranges: UncertaintyResult | None, currency: str, *, heading, paragraph) -> list:
    """The PDF's "How sure" block: a heading and one paragraph per line; empty without ranges."""
    sentences = range_sentences(ranges, currency)
    if not sentences:
        return []
    note = gettext(
        "From %(samples)s Monte Carlo samples (seed %(seed)s) of the ranges given, each read as a "
        "90 %% interval."
    ) % {
        "samples": decimal_text(Decimal(ranges.samples)),
        "seed": ranges.seed,
    }
    # xgettext:no-python-format
    title = gettext("How sure: 90 % ranges")
    return [heading(title), *map(paragraph, sentences), paragraph(note)]
