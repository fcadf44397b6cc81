"""Two to four scenarios side by side: the figures that matter, differences against the first."""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.estimates import EstimateResult
from apps.projects.field_terms import FIGURE_TERMS
from apps.words import formatting
from apps.words.formatting import Figure


@dataclass(frozen=True)
class Metric:
    label: str | Promise
    path: str  # in the estimate result, as in its response ("training.flop")
    format: Callable[[object], Figure]

    def value(self, result: EstimateResult) -> object:
        node: object = result
        for part in self.path.split("."):
            node = None if node is None else getattr(node, part)
        return node

    @property
    def term(self) -> str:
        """The glossary term that explains the figure (its row links to it)."""
        return FIGURE_TERMS[self.path]


METRICS = (
    Metric(_("Training compute"), "training.flop", formatting.flop),
    Metric(_("Training accelerator-hours"), "training.accelerator_hours", formatting.hours),
    Metric(
        _("Training wall-clock"),
        "training.wall_clock_hours",
        lambda v: formatting.hours(v, "hours"),
    ),
    Metric(_("Build cost (training)"), "training.cost", formatting.money),
    Metric(
        _("Accelerator time per request"),
        "inference.per_request.accelerator_seconds",
        formatting.seconds,
    ),
    Metric(_("User speed (latency)"), "inference.per_request.latency_seconds", formatting.seconds),
    Metric(_("Cost per request"), "inference.per_request.precise_cost", formatting.money),
    Metric(
        _("Inference accelerator-hours over the horizon"),
        "inference.total.accelerator_hours",
        formatting.hours,
    ),
    Metric(_("Run cost over the horizon"), "inference.total.cost", formatting.money),
    Metric(
        _("Accelerators needed at peak"),
        "inference.peak_accelerators",
        lambda v: formatting.count(v, "accelerators"),
    ),
    Metric(
        _("Break-even (inference overtakes training)"),
        "comparison.break_even_months",
        formatting.months,
    ),
    Metric(
        _("Training share of accelerator-hours"),
        "comparison.training_share",
        formatting.percent,
    ),
    Metric(_("Energy, training"), "training.energy_kwh", formatting.energy_kwh),
    Metric(
        _("Energy, inference over the horizon"),
        "inference.total.energy_kwh",
        formatting.energy_kwh,
    ),
)


@dataclass(frozen=True)
class Cell:
    figure: Figure
    differs: bool  # from the first scenario's figure


@dataclass(frozen=True)
class Row:
    label: str
    cells: list[Cell]
    term: str  # the glossary term of the figure


def compare_rows(estimates: list[tuple[object, EstimateResult | None]]) -> list[Row]:
    """One row per metric; a cell differs when its shown text differs from the first column's."""
    if not estimates:
        return []
    rows = []
    for metric in METRICS:
        figures = [
            metric.format(None if result is None else metric.value(result))
            for _, result in estimates
        ]
        first = figures[0].text
        rows.append(Row(metric.label, [Cell(f, f.text != first) for f in figures], metric.term))
    return rows
