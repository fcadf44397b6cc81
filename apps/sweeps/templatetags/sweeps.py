"""Template tags of sweeps: `{% load sweeps %}` shows points, figures and a scenario's freshness."""

import math
from decimal import Decimal

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from apps.sweeps.inputs import SWEEPABLE
from apps.sweeps.metrics import Metric
from apps.sweeps.models import ScenarioFreshness
from apps.words import formatting
from apps.words.numbers import decimal_text, percent_text
from apps.words.templatetags.figures import figure_html

register = template.Library()

# Formatting functions that take the unit (or currency) after the value.
_WITH_UNIT = {
    "money": formatting.money,
    "hours": formatting.hours,
    "count": formatting.count,
    # "tokens/s": the count per second, in words ("2,724 tokens per second")
    "per_second": lambda value, unit: formatting.per_second(value, unit.removesuffix("/s")),
}
_WITHOUT_UNIT = {
    "flop": formatting.flop,
    "kwh": formatting.energy_kwh,
    "co2e": formatting.emissions_kg,
    "embodied": formatting.embodied_kg,
    "water": formatting.water_litres,
    "seconds": formatting.seconds,
    "months": formatting.months,
    "percent": formatting.percent,
}


def metric_figure(metric: Metric, value: float | None) -> formatting.Figure:
    if metric.kind in _WITH_UNIT:
        return _WITH_UNIT[metric.kind](value, metric.unit)
    return _WITHOUT_UNIT[metric.kind](value)


@register.simple_tag
def sweep_figure(metric: Metric, value: float | None) -> SafeString:
    """`{% sweep_figure metric value %}`: a figure with its unit, readable aloud."""
    return figure_html(metric_figure(metric, value))


@register.filter
def thousands(number: int) -> str:
    """`{{ sweep.total_points|thousands }}` → "1,000,000"."""
    return decimal_text(Decimal(number))


@register.filter
def input_value(value: float | None, path: str) -> str:
    """`{{ value|input_value:path }}`: a varied input's value as the scenario form shows it."""
    if value is None or not math.isfinite(value):
        return str(formatting.NOT_AVAILABLE)
    spec = SWEEPABLE[path]
    shown = value * spec.scale
    text = f"{shown:.0f}" if shown.is_integer() and abs(shown) < 1e15 else f"{shown:.4g}"
    if "e" not in text:
        text = decimal_text(Decimal(text))
    return percent_text(text) if spec.scale == 100 else text


@register.filter
def axis_text(item) -> str:
    """`{{ item|axis_text }}`: "5 values from 1,000 to 10,000,000, log scale" or "12; 24; 36"."""
    values = [input_value(float(v), item.spec.path) for v in item.values]
    count = len(values)
    if item.kind == "list":
        shown = "; ".join(values[:10]) + ("; …" if count > 10 else "")
        return ngettext("%(count)s value: %(values)s", "%(count)s values: %(values)s", count) % {
            "count": thousands(count),
            "values": shown,
        }
    if count == 1:
        return gettext("1 value: %(value)s") % {"value": values[0]}
    if item.kind == "log":
        text = gettext("%(count)s values from %(first)s to %(last)s, on a log scale")
    else:
        text = gettext("%(count)s values from %(first)s to %(last)s, evenly spaced")
    return text % {"count": thousands(count), "first": values[0], "last": values[-1]}


@register.simple_tag
def point_cells(row, definition, accelerator_names: dict, model_names: dict) -> SafeString:
    """`<td>` cells of a point's accelerator and model (when listed, by name) and varied inputs."""
    cells = []
    if definition.accelerators:
        slug = row.inputs["accelerator"]
        cells.append(accelerator_names.get(slug, slug))
    if definition.models:
        slug = row.inputs["model"]
        cells.append(model_names.get(slug, slug))
    cells += [input_value(row.inputs[item.spec.path], item.spec.path) for item in definition.inputs]
    return format_html_join("", "<td>{}</td>", ((cell,) for cell in cells))


@register.simple_tag
def figure_cells(row, metrics) -> SafeString:
    """`<td>` cells of a point's figures."""
    return format_html_join(
        "", "<td>{}</td>", ((sweep_figure(metric, row.figures[metric.name]),) for metric in metrics)
    )


@register.simple_tag
def chart_cell(metric: Metric, cell: dict) -> SafeString:
    """A heatmap cell: the figure as text on its shade (a class: the CSP refuses style="…")."""
    shade = "none" if cell["shade"] is None else cell["shade"]
    return format_html('<td class="shade-{}">{}</td>', shade, sweep_figure(metric, cell["value"]))


@register.inclusion_tag("sweeps/includes/freshness.html")
def scenario_freshness(scenario) -> dict:
    """`{% scenario_freshness scenario %}`: "stale since …" while a catalogue change is being
    worked into the scenario, and any problem the recomputation found."""
    return {"freshness": ScenarioFreshness.objects.filter(scenario=scenario).first()}
