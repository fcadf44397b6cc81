"""Two to four scenarios side by side: the figures that matter, differences against the first."""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.estimates import EstimateResult
from apps.projects import formatting
from apps.projects.formatting import Figure


@dataclass(frozen=True)
class Metric:
    label: str | Promise
    value: Callable[[EstimateResult], object]
    format: Callable[[object], Figure]


def _get(path: str) -> Callable[[EstimateResult], object]:
    def read(result: EstimateResult) -> object:
        node: object = result
        for part in path.split("."):
            node = None if node is None else getattr(node, part)
        return node

    return read


METRICS = (
    Metric(_("Training compute"), _get("training.flop"), formatting.flop),
    Metric(_("Training accelerator-hours"), _get("training.accelerator_hours"), formatting.hours),
    Metric(
        _("Training wall-clock"),
        _get("training.wall_clock_hours"),
        lambda v: formatting.hours(v, "hours"),
    ),
    Metric(_("Build cost (training)"), _get("training.cost"), formatting.money),
    Metric(
        _("Accelerator time per request"),
        _get("inference.per_request.accelerator_seconds"),
        formatting.seconds,
    ),
    Metric(
        _("User speed (latency)"), _get("inference.per_request.latency_seconds"), formatting.seconds
    ),
    Metric(_("Cost per request"), _get("inference.per_request.precise_cost"), formatting.money),
    Metric(
        _("Inference accelerator-hours over the horizon"),
        _get("inference.total.accelerator_hours"),
        formatting.hours,
    ),
    Metric(_("Run cost over the horizon"), _get("inference.total.cost"), formatting.money),
    Metric(
        _("Accelerators needed at peak"),
        _get("inference.peak_accelerators"),
        lambda v: formatting.count(v, "accelerators"),
    ),
    Metric(
        _("Break-even (inference overtakes training)"),
        _get("comparison.break_even_months"),
        formatting.months,
    ),
    Metric(
        _("Training share of accelerator-hours"),
        _get("comparison.training_share"),
        formatting.percent,
    ),
    Metric(_("Energy, training"), _get("training.energy_kwh"), formatting.energy_kwh),
    Metric(
        _("Energy, inference over the horizon"),
        _get("inference.total.energy_kwh"),
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
        rows.append(Row(metric.label, [Cell(f, f.text != first) for f in figures]))
    return rows
