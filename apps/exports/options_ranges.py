"""The decision view's ranges in a scenario's exports, from what is kept of its comparison
(ScenarioReport.options; `uncertainty` in what GET /api/v1/scenarios/{id}/options/ answers): the
samples and the seed, each option's 5th, 50th and 95th percentiles and mean of its total, net
present value and cost per request, and the share of samples in which it is the cheapest. CSV
lists them cell by cell, XLSX and PDF as tables, PDF with the pages' sentences; JSON holds the
API's answer. A comparison without ranges gives none of them.
"""

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.estimates.kept import KeptOptions
from apps.estimates.options import OptionsUncertainty
from apps.exports.figures import Column, Table, Value
from apps.exports.range_rows import STATISTICS, plain_text
from apps.options.forms import option_label
from apps.options.ranges import option_ranges_context
from apps.words.numbers import decimal_text

# (figure of the options, its name): the cost per request exactly as the options give it.
FIGURES = (
    ("total", gettext_lazy("Total")),
    ("npv", gettext_lazy("Net present value")),
    ("cost_per_request", gettext_lazy("Cost per request")),
)
# The table's columns of statistics, by their name in a figure's range (and the API's answer).
HEADINGS = (
    ("p5", gettext_lazy("5th percentile")),
    ("p50", gettext_lazy("Median (central estimate)")),
    ("p95", gettext_lazy("95th percentile")),
    ("mean", gettext_lazy("Mean")),
)


def _uncertainty(kept: KeptOptions | None) -> OptionsUncertainty | None:
    return None if kept is None else kept.ranges


def options_range_table(kept: KeptOptions | None) -> Table | None:
    """Columns: option, figure, 5th percentile, median, 95th percentile, mean (money, the cost
    per request to a millionth); one row per option and figure. None without ranges."""
    uncertainty = _uncertainty(kept)
    if uncertainty is None:
        return None
    currency = kept.currency
    columns = (
        Column("label", _("Option"), ""),
        Column("figure", _("Figure"), ""),
        *(Column(key, str(heading), currency, True) for key, heading in HEADINGS),
    )
    rows: list[tuple[Value, ...]] = []
    for option in kept.comparison.options:
        for name, label in FIGURES:
            figure = uncertainty.figures.get(f"options.{option.key}.{name}")
            if figure is not None:
                rows.append(
                    (
                        option_label(option.key),
                        str(label),
                        *(getattr(figure, key) for key, _heading in HEADINGS),
                    )
                )
    return Table(
        # xgettext:no-python-format
        title=_("Options compared: ranges (90 % intervals)"),
        field="options.uncertainty.figures",
        columns=columns,
        rows=tuple(rows),
    )


def options_share_table(kept: KeptOptions | None) -> Table | None:
    """Columns: option, the share of samples in which it is the cheapest (a fraction)."""
    uncertainty = _uncertainty(kept)
    if uncertainty is None:
        return None
    shares = uncertainty.cheapest_share
    return Table(
        title=_("How often each option is the cheapest"),
        field="options.uncertainty.cheapest_share",
        columns=(
            Column("label", _("Option"), ""),
            Column("cheapest_share", _("Share of samples in which it is the cheapest"), ""),
        ),
        rows=tuple(
            (option_label(option.key), shares.get(option.key, 0.0))
            for option in kept.comparison.options
        ),
    )


def options_samples_sentence(kept: KeptOptions | None) -> str:
    uncertainty = _uncertainty(kept)
    if uncertainty is None:
        return ""
    return _(
        "From %(samples)s Monte Carlo samples (seed %(seed)s) of the ranges given, each read as a "
        "90 %% interval; in each sample the cheapest is the option with the lowest net present "
        "value in it."
    ) % {
        "samples": decimal_text(Decimal(uncertainty.samples)),
        "seed": uncertainty.seed,
    }


def options_range_cells(kept: KeptOptions | None) -> list[tuple[str, Value, str, str]]:
    """Every figure of the ranges, one per row: (figure, value, unit, its path in the export's
    options answer); the samples and seed first."""
    uncertainty = _uncertainty(kept)
    if uncertainty is None:
        return []
    cells: list[tuple[str, Value, str, str]] = [
        (_("Samples"), uncertainty.samples, "", "options.uncertainty.samples"),
        (_("Seed"), uncertainty.seed, "", "options.uncertainty.seed"),
    ]
    currency = kept.currency
    for option in kept.comparison.options:
        key, label = option.key, option_label(option.key)
        for name, figure in FIGURES:
            kept_range = uncertainty.figures.get(f"options.{key}.{name}")
            if kept_range is None:
                continue
            for statistic, words in STATISTICS:
                cells.append(
                    (
                        f"{label}: {figure}, {words}",
                        getattr(kept_range, statistic),
                        currency,
                        f"options.uncertainty.figures.options.{key}.{name}.{statistic}",
                    )
                )
        cheapest = _("share of samples in which it is the cheapest")
        cells.append(
            (
                f"{label}: {cheapest}",
                uncertainty.cheapest_share.get(key, 0.0),
                _("share"),
                f"options.uncertainty.cheapest_share.{key}",
            )
        )
    return cells


def options_range_sentences(kept: KeptOptions | None) -> list[str]:
    """The pages' words for each option, plain text: "Own: net present value: central
    estimate $1.2 million (9 in 10 chance between …); cheapest in 12% of samples"."""
    ranges = option_ranges_context(kept)["option_ranges"]
    if ranges is None:
        return []
    return [f"{option.label}: {plain_text(option.sentence)}" for option in ranges["options"]]


def options_range_story(kept: KeptOptions | None, *, heading, paragraph, table) -> list:
    """The PDF's ranges of the options: a heading, each option's sentence, the table of
    percentiles (`table` draws a figures Table) and the samples and seed; empty without."""
    sentences = options_range_sentences(kept)
    if not sentences:
        return []
    return [
        # xgettext:no-python-format
        heading(_("How sure: each option's 90 % range")),
        *map(paragraph, sentences),
        table(options_range_table(kept)),
        paragraph(options_samples_sentence(kept)),
    ]
