"""A scenario's figures in the PDF: training against inference side by side, the bottom strip
for many requests and for one, and the break-even in words, as on the scenario page."""

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Table, TableStyle

from apps.catalogue.names import catalogue_name
from apps.estimates import EstimateResult
from apps.exports.pdf_layout import (
    CELL,
    CELL_BOLD,
    CELL_FONT,
    GREY,
    H3,
    LIST,
    STRIP,
    STRIP_TEXT,
    WIDTH,
    paragraph,
)
from apps.exports.report import ScenarioReport
from apps.projects.describe import bottom_strip
from apps.words import formatting
from apps.words.messages import message_text


def _definition_list(items: list[tuple[str, str]], width: float) -> Table:
    rows = [[paragraph(label, CELL), paragraph(text, CELL_BOLD)] for label, text in items]
    table = Table(rows, colWidths=[width * 0.48, width * 0.52])
    table.setStyle(LIST)
    return table


def _training_figures(response: dict, values: dict, currency: str) -> list[tuple[str, str]]:
    training = response["training"]
    compute = formatting.flop(training["flop"]).text
    if training["petaflop_s_days"]:
        days = formatting.count(training["petaflop_s_days"], "petaflop/s-days").text
        compute += f" ({days})"
    items = [
        (_("Training compute"), compute),
        (_("Accelerator-hours"), formatting.hours(training["accelerator_hours"]).text),
        (_("Wall-clock time"), formatting.hours(training["wall_clock_hours"], "hours").text),
        (_("Cost"), formatting.money(values["training.cost"], currency).text),
        (_("Energy"), formatting.energy_kwh(training["energy_kwh"]).text),
        (_("Emissions"), formatting.emissions_kg(training["emissions_kg_co2e"]).text),
        (_("Embodied emissions"), formatting.embodied_kg(training["embodied_kg_co2e"]).text),
        (_("Water"), formatting.water_litres(training["water_litres"]).text),
    ]
    items += [
        (
            _("Exceeded") if threshold["exceeded"] else _("Below"),
            f"{catalogue_name(threshold['name'])} ({formatting.flop(threshold['flop']).text})",
        )
        for threshold in training["thresholds"]
    ]
    if training.get("modification"):
        items.append((_("One-third rule"), message_text(training["modification"]["summary"])))
    return items


def _inference_figures(response: dict, values: dict, currency: str) -> list[tuple[str, str]]:
    inference = response["inference"]
    per_request, total = inference["per_request"], inference["total"]
    first = inference["monthly"][0]
    items = [
        (_("Compute per request"), formatting.flop(per_request["flop"]).text),
        (
            _("Accelerator time per request"),
            formatting.seconds(per_request["accelerator_seconds"]).text,
        ),
        (_("User speed (latency)"), formatting.seconds(per_request["latency_seconds"]).text),
        (
            _("Cost per request"),
            formatting.money(values["inference.per_request.cost"], currency).text,
        ),
        (
            _("Cost per 1,000 requests"),
            formatting.money(values["inference.per_request.cost_per_1000"], currency).text,
        ),
        (
            _("First month"),
            f"{formatting.count(first['requests'], 'requests').text}, "
            f"{formatting.hours(first['accelerator_hours']).text}",
        ),
        (
            _("Over %(months)s") % {"months": formatting.months(len(inference["monthly"])).text},
            f"{formatting.count(total['requests'], 'requests').text}, "
            f"{formatting.hours(total['accelerator_hours']).text}",
        ),
        (
            _("Cost over the horizon"),
            formatting.money(values["inference.total.cost"], currency).text,
        ),
        (
            _("Accelerators needed at peak"),
            formatting.count(inference["peak_accelerators"], "accelerators").text,
        ),
        (_("Energy over the horizon"), formatting.energy_kwh(total["energy_kwh"]).text),
        (_("Emissions over the horizon"), formatting.emissions_kg(total["emissions_kg_co2e"]).text),
        (
            _("Embodied emissions over the horizon"),
            formatting.embodied_kg(total["embodied_kg_co2e"]).text,
        ),
        (_("Water over the horizon"), formatting.water_litres(total["water_litres"]).text),
    ]
    if inference["gross_margin"] is not None:
        items.append((_("Gross margin"), formatting.percent(inference["gross_margin"]).text))
    return items


def comparison(report: ScenarioReport) -> Table:
    """Training on the left, inference on the right, as on the scenario page."""
    response, currency = report.response, report.response["currency"]
    values = {figure.field: figure.value for figure in report.figures}
    column = WIDTH / 2 - 6
    left = [paragraph(_("Training: build once"), H3)]
    if response["training"]:
        left.append(_definition_list(_training_figures(response, values, currency), column))
    else:
        left.append(paragraph(_("This scenario has no training: it uses a model as it is.")))
    right = [paragraph(_("Inference: every request"), H3)]
    if response["inference"]:
        right.append(_definition_list(_inference_figures(response, values, currency), column))
    else:
        right.append(paragraph(_("This scenario has no inference: only the training is planned.")))
    table = Table([[left, right]], colWidths=[WIDTH / 2, WIDTH / 2])
    table.setStyle(
        TableStyle(
            [
                CELL_FONT,
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEAFTER", (0, 0), (0, 0), 0.5, GREY),
                ("RIGHTPADDING", (0, 0), (0, 0), 8),
                ("LEFTPADDING", (1, 0), (1, 0), 8),
            ]
        )
    )
    return table


def strip(result: EstimateResult, currency: str) -> Table:
    """The bottom strip for many requests and for a single one: the page's two views."""
    rows = []
    for view, title in (("many", _("Many requests")), ("single", _("A single request"))):
        strip = bottom_strip(result, currency, view=view)
        rows.append(
            [
                paragraph(title, CELL_BOLD),
                *(
                    [
                        paragraph(m["label"], CELL),
                        paragraph(m["text"], STRIP_TEXT),
                        paragraph(m["detail"], CELL),
                    ]
                    for m in strip.values()
                ),
            ]
        )
    table = Table(rows, colWidths=[28 * mm, *([(WIDTH - 28 * mm) / 3] * 3)])
    table.setStyle(STRIP)
    return table


def break_even_sentence(response: dict) -> str:
    comparison = response["comparison"]
    if not comparison:
        return ""
    months = comparison["break_even_months"]
    share = formatting.percent(comparison["training_share"]).text
    if months is None:
        overtakes = _("At this demand, inference never overtakes the one-off training.")
    elif comparison["within_horizon"]:
        overtakes = _(
            "Cumulative inference overtakes the one-off training after %(months)s, within the "
            "horizon."
        ) % {"months": formatting.months(months).text}
    else:
        overtakes = _(
            "Cumulative inference overtakes the one-off training after %(months)s, beyond the "
            "horizon."
        ) % {"months": formatting.months(months).text}
    training = _("Training is %(share)s of all accelerator-hours over the horizon.") % {
        "share": share
    }
    return f"{overtakes} {training}"
