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

from apps.estimates.uncertainty import BREAK_EVEN, MONEY_FIGURES
from apps.exports.figures import SECTIONS, FigureRow
from apps.projects.range_inputs import range_lines
from apps.projects.range_results import uncertainty_from_response
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


def uncertainty_rows(response: dict | None) -> list[FigureRow]:
    """The percentiles of the response's ranges as figure rows; none without ranges."""
    stored = (response or {}).get("uncertainty")
    if not stored:
        return []
    # xgettext:no-python-format
    section = gettext("Ranges (90 % intervals)")
    currency = response["currency"]
    labels = _labels(currency)
    rows = [
        FigureRow(section, gettext("Samples"), stored["samples"], "", "uncertainty.samples"),
        FigureRow(section, gettext("Seed"), stored["seed"], "", "uncertainty.seed"),
    ]
    for path, figure in stored["figures"].items():
        name, unit = labels.get(path, (path, ""))
        for key, statistic in STATISTICS:
            raw = figure.get(key)
            value = None if raw is None else Decimal(raw) if path in MONEY_FIGURES else raw
            rows.append(
                FigureRow(
                    section,
                    f"{name}, {statistic}",
                    value,
                    unit,
                    f"uncertainty.figures.{path}.{key}",
                )
            )
        if path == BREAK_EVEN and "probability_never" in figure:
            never = gettext("share of samples that never break even")
            rows.append(
                FigureRow(
                    section,
                    f"{name}, {never}",
                    figure["probability_never"],
                    gettext("share"),
                    f"uncertainty.figures.{path}.probability_never",
                )
            )
    return rows


def range_sentences(response: dict | None) -> list[str]:
    """The scenario page's lines for print: "Training cost: central estimate $590 (9 in 10
    chance between $300 and $1,200)", plain text."""
    result = uncertainty_from_response(response)
    if result is None:
        return []
    lines = range_lines(result, response.get("currency", "USD"))
    return [f"{line.label}: {plain_text(line.sentence)}" for line in lines]


def plain_text(html: str) -> str:
    """A sentence of the pages as plain text, for print."""
    # A figure shown one way and read another keeps the shown text only.
    return strip_tags(re.sub(r'<span class="visually-hidden">.*?</span>', "", html))


def range_story(response: dict | None, *, heading, paragraph) -> list:
    """The PDF's "How sure" block: a heading and one paragraph per line; empty without ranges."""
    sentences = range_sentences(response)
    if not sentences:
        return []
    stored = response["uncertainty"]
    note = gettext(
        "From %(samples)s Monte Carlo samples (seed %(seed)s) of the ranges given, each read as a "
        "90 %% interval."
    ) % {
        "samples": decimal_text(Decimal(stored["samples"])),
        "seed": stored["seed"],
    }
    # xgettext:no-python-format
    title = gettext("How sure: 90 % ranges")
    return [heading(title), *map(paragraph, sentences), paragraph(note)]
