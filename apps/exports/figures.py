"""A scenario's figures as rows and tables with units, read from its estimate response alone.

Every export takes its numbers from here and here takes them from the estimate response dict
(apps.api.views.estimate_response), so a download shows the API's figures: money is the
response's decimal string turned into a Decimal, never passed through a float, and every other
number is the response's own. Nothing is rounded here; readers of the exports round for display.
One figure has more digits than the response: the cost per request below a cent, which the
response rounds to 0.00 or 0.01, comes from the cost per 1,000 requests (PerRequest.precise_cost).
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.catalogue.names import catalogue_name
from apps.estimates.money import cost_of_one_request
from apps.exports.figure_row import FigureRow, Value
from apps.exports.serving_figures import serving_rows
from apps.projects.describe import LATENCY_METHODS
from apps.words.messages import message_text


@dataclass(frozen=True)
class Spec:
    key: str
    label: str
    unit: str  # "{currency}" stands for the response's currency
    money: bool = False  # a decimal string in the response
    read: Callable[[dict], object] | None = None  # the figure from its section, if not node[key]


def _money(key: str, label: str, unit: str = "{currency}") -> Spec:
    return Spec(key, label, unit, money=True)


def _request_cost(per_request: dict) -> Decimal | None:
    if per_request["cost"] is None:  # a model that fits no replica: no cost can be true
        return None
    return cost_of_one_request(Decimal(per_request["cost"]), Decimal(per_request["cost_per_1000"]))


def _latency_method(per_request: dict) -> str:
    """How the latency is worked out, in words (the response gives a code: "roofline")."""
    method = per_request["latency_method"]
    return str(LATENCY_METHODS.get(method, method))


@dataclass(frozen=True)
class Section:
    path: str  # where the figures sit in the response, e.g. "inference.per_request"
    title: str
    specs: tuple[Spec, ...]


SECTIONS = (
    Section(
        "training",
        _("Training"),
        (
            Spec("flop", _("Training compute"), "FLOP"),
            Spec("petaflop_s_days", _("Training compute"), _("petaflop/s-days")),
            Spec("accelerator_hours", _("Accelerator-hours"), _("accelerator-hours")),
            Spec("wall_clock_hours", _("Wall-clock time"), _("hours")),
            Spec(
                "price_per_accelerator_hour",
                _("Price per accelerator-hour"),
                _("{currency} per accelerator-hour"),
            ),
            _money("cost", _("Cost")),
            Spec("energy_kwh", _("Energy"), "kWh"),
            Spec("emissions_kg_co2e", _("Emissions"), "kg CO2e"),
            Spec("embodied_kg_co2e", _("Embodied emissions"), "kg CO2e"),
            Spec("water_litres", _("Water"), "L"),
        ),
    ),
    Section(
        "inference.per_request",
        _("Inference, per request"),
        (
            Spec("flop", _("Compute per request"), "FLOP"),
            Spec(
                "accelerator_seconds", _("Accelerator time per request"), _("accelerator-seconds")
            ),
            Spec("latency_seconds", _("User speed (latency)"), _("seconds")),
            Spec("latency_method", _("How the latency is worked out"), "", read=_latency_method),
            Spec("cost", _("Cost per request"), "{currency}", money=True, read=_request_cost),
            _money(
                "cost_per_1000", _("Cost per 1,000 requests"), _("{currency} per 1,000 requests")
            ),
            Spec("energy_kwh", _("Energy per request"), "kWh"),
            Spec("embodied_kg_co2e", _("Embodied emissions per request"), "kg CO2e"),
            Spec("water_litres", _("Water per request"), "L"),
        ),
    ),
    Section(
        "inference.total",
        _("Inference, over the horizon"),
        (
            Spec("requests", _("Requests"), _("requests")),
            Spec("accelerator_hours", _("Accelerator-hours"), _("accelerator-hours")),
            _money("cost", _("Cost")),
            _money("pay_per_use_cost", _("Cost if paid per use")),
            _money("always_on_cost", _("Cost if kept always on")),
            Spec("energy_kwh", _("Energy"), "kWh"),
            Spec("emissions_kg_co2e", _("Emissions"), "kg CO2e"),
            Spec("embodied_kg_co2e", _("Embodied emissions"), "kg CO2e"),
            Spec("water_litres", _("Water"), "L"),
        ),
    ),
    Section(
        "inference.commitment",
        _("Inference, capacity committed for a term"),
        (
            Spec("committed_accelerators", _("Accelerators committed"), _("accelerators")),
            Spec("term_months", _("Term"), _("months")),
            Spec("terms", _("Terms that cover the horizon"), ""),
            Spec("discount", _("Discount against on demand"), _("share")),
            Spec("upfront_share", _("Share of each term paid upfront"), _("share")),
            _money("upfront_per_term", _("Paid at the start of each term")),
            _money("monthly_payment", _("Paid every month of each term")),
            _money("commitment_cost", _("The commitment in all")),
            Spec("months_after_horizon", _("Committed months after the service ends"), _("months")),
            _money("on_demand_cost", _("Beyond the commitment, on demand")),
            Spec(
                "idle_accelerator_hours",
                _("Committed accelerator-hours left idle"),
                _("accelerator-hours"),
            ),
            _money("idle_cost", _("Committed capacity left idle")),
        ),
    ),
    Section(
        "inference",
        _("Inference, capacity and margin"),
        (
            Spec("peak_accelerators", _("Accelerators needed at peak"), _("accelerators")),
            Spec("peak_requests_per_second", _("Requests per second at peak"), _("requests/s")),
            Spec("peak_concurrent_requests", _("Requests in progress at peak"), _("requests")),
            Spec("gross_margin", _("Gross margin"), _("share")),
            _money("revenue_total", _("Revenue over the horizon")),
        ),
    ),
    Section(
        "comparison",
        _("Training against inference"),
        (
            Spec("break_even_months", _("Break-even in accelerator-hours"), _("months")),
            Spec("break_even_months_cost", _("Break-even in cost"), _("months")),
            Spec("break_even_months_energy", _("Break-even in energy"), _("months")),
            Spec("within_horizon", _("Break-even within the horizon"), ""),
            Spec("training_share", _("Training's share of accelerator-hours"), _("share")),
            Spec("training_share_cost", _("Training's share of cost"), _("share")),
            Spec("inference_share", _("Inference's share of accelerator-hours"), _("share")),
        ),
    ),
)

# The figures a project's summary shows for each scenario, labelled to read well with their unit.
HEADLINE = (
    ("training.flop", _("Training compute")),
    ("training.accelerator_hours", _("Training")),
    ("training.cost", _("Training cost")),
    ("inference.total.requests", _("Inference over the horizon")),
    ("inference.total.accelerator_hours", _("Inference over the horizon")),
    ("inference.total.cost", _("Inference cost over the horizon")),
    ("inference.per_request.cost", _("Cost per request")),
    ("inference.per_request.cost_per_1000", _("Cost")),
    ("inference.peak_accelerators", _("Needed at peak")),
    ("comparison.break_even_months", _("Break-even")),
)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    unit: str
    money: bool = False

    @property
    def heading(self) -> str:
        """The column's label with its unit, as a spreadsheet header shows it."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


@dataclass(frozen=True)
class Table:
    title: str
    field: str  # the list's path in the estimate response
    columns: tuple[Column, ...]
    rows: tuple[tuple[Value, ...], ...]


def _node(response: dict, path: str) -> dict | None:
    node: dict | None = response
    for part in path.split("."):
        node = node.get(part) if node is not None else None
    return node


def _value(raw: object, money: bool) -> Value:
    if raw is None:
        return None
    if money:
        return Decimal(raw)
    if isinstance(raw, bool):
        return gettext("yes") if raw else gettext("no")
    return raw


def figure_rows(response: dict) -> list[FigureRow]:
    """Every single figure of the response, section by section; absent sections are left out."""
    currency = response["currency"]
    rows = []
    for section in SECTIONS:
        node = _node(response, section.path)
        if node is None:
            continue
        for spec in section.specs:
            rows.append(
                FigureRow(
                    section=str(section.title),
                    figure=str(spec.label),
                    value=_value(spec.read(node) if spec.read else node[spec.key], spec.money),
                    unit=str(spec.unit).format(currency=currency),
                    field=f"{section.path}.{spec.key}",
                )
            )
        if section.path == "training":
            rows.extend(_threshold_rows(node["thresholds"]))
            rows.extend(_modification_rows(node.get("modification")))
        if section.path == "inference":
            rows.extend(serving_rows(response))
    return rows


def _threshold_rows(thresholds: list[dict]) -> list[FigureRow]:
    return [
        FigureRow(
            section=gettext("Training"),
            figure=gettext("Threshold: %(name)s (%(flop)s FLOP)")
            % {"name": catalogue_name(threshold["name"]), "flop": f"{threshold['flop']:.3g}"},
            value=gettext("exceeded") if threshold["exceeded"] else gettext("below"),
            unit="",
            field=f"training.thresholds.{index}.exceeded",
        )
        for index, threshold in enumerate(thresholds)
    ]


def _modification_rows(modification: dict | None) -> list[FigureRow]:
    """A fine-tune of a catalogue model against the EU guidelines' one-third rule."""
    if modification is None:
        return []
    training = gettext("Training")
    return [
        FigureRow(
            section=training,
            figure=gettext("One-third rule: %(model)s") % {"model": modification["base_model"]},
            value=message_text(modification["summary"]),
            unit="",
            field="training.modification.summary",
        ),
        FigureRow(
            section=training,
            figure=gettext("Share of the base model's training compute"),
            value=modification["share"],
            unit="" if modification["share"] is None else gettext("share (0–1)"),
            field="training.modification.share",
        ),
        FigureRow(
            section=training,
            figure=gettext("One-third line"),
            value=modification["threshold_flop"],
            unit="FLOP",
            field="training.modification.threshold_flop",
        ),
        FigureRow(
            section=training,
            figure=gettext("Modifier becomes a provider (above one third)"),
            value=gettext("yes") if modification["exceeded"] else gettext("no"),
            unit="",
            field="training.modification.exceeded",
        ),
    ]


def headline(rows: list[FigureRow]) -> list[Value]:
    """The summary's figures of one scenario, None where the scenario lacks one."""
    by_field = {row.field: row.value for row in rows}
    return [by_field.get(field) for field, _ in HEADLINE]


def headline_headings(currency: str) -> list[str]:
    """The summary's column headers, each with its unit: "Training cost (USD)"."""
    units = {
        f"{section.path}.{spec.key}": str(spec.unit).format(currency=currency)
        for section in SECTIONS
        for spec in section.specs
    }
    return [f"{label} ({units[field]})" for field, label in HEADLINE]


def _table(response: dict, path: str, title: str, specs: tuple[Spec, ...]) -> Table | None:
    items = _node(response, path)
    if not items:
        return None
    currency = response["currency"]
    columns = (
        Column("month", gettext("Month"), ""),
        *(
            Column(s.key, str(s.label), str(s.unit).format(currency=currency), s.money)
            for s in specs
        ),
    )
    return Table(
        title=str(title),
        field=path,
        columns=columns,
        rows=tuple(
            tuple(_value(item[column.key], column.money) for column in columns) for item in items
        ),
    )


def monthly_table(response: dict) -> Table | None:
    """Inference month by month: requests, busy accelerator-hours, cost and energy."""
    return _table(
        response,
        "inference.monthly",
        _("Inference month by month"),
        (
            Spec("requests", _("Requests"), _("requests")),
            Spec("accelerator_hours", _("Accelerator-hours"), _("accelerator-hours")),
            _money("cost", _("Cost")),
            Spec("energy_kwh", _("Energy"), "kWh"),
        ),
    )


def cumulative_table(response: dict) -> Table | None:
    """The chart's figures: cumulative training and inference, month 0 being the training."""
    return _table(
        response,
        "comparison.cumulative",
        _("Cumulative figures by month (month 0 is training)"),
        (
            Spec("training_accelerator_hours", _("Training"), _("accelerator-hours")),
            Spec("inference_accelerator_hours", _("Inference"), _("accelerator-hours")),
            _money("training_cost", _("Training cost")),
            _money("inference_cost", _("Inference cost")),
            Spec("training_energy_kwh", _("Training energy"), "kWh"),
            Spec("inference_energy_kwh", _("Inference energy"), "kWh"),
        ),
    )


def tables(response: dict) -> list[Table]:
    return [t for t in (monthly_table(response), cumulative_table(response)) if t is not None]
