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

from apps.api.serializers import EstimateRequestSerializer
from apps.estimates.money import cost_of_one_request
from apps.exports.serving_figures import serving_rows

Value = Decimal | float | int | str | None


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


@dataclass(frozen=True)
class Section:
    path: str  # where the figures sit in the response, e.g. "inference.per_request"
    title: str
    specs: tuple[Spec, ...]


SECTIONS = (
    Section(
        "training",
        "Training",
        (
            Spec("flop", "Training compute", "FLOP"),
            Spec("petaflop_s_days", "Training compute", "petaflop/s-days"),
            Spec("accelerator_hours", "Accelerator-hours", "accelerator-hours"),
            Spec("wall_clock_hours", "Wall-clock time", "hours"),
            Spec(
                "price_per_accelerator_hour",
                "Price per accelerator-hour",
                "{currency} per accelerator-hour",
            ),
            _money("cost", "Cost"),
            Spec("energy_kwh", "Energy", "kWh"),
            Spec("emissions_kg_co2e", "Emissions", "kg CO2e"),
        ),
    ),
    Section(
        "inference.per_request",
        "Inference, per request",
        (
            Spec("flop", "Compute per request", "FLOP"),
            Spec("accelerator_seconds", "Accelerator time per request", "accelerator-seconds"),
            Spec("latency_seconds", "User speed (latency)", "seconds"),
            Spec("latency_method", "How the latency is worked out", ""),
            Spec("cost", "Cost per request", "{currency}", money=True, read=_request_cost),
            _money("cost_per_1000", "Cost per 1,000 requests", "{currency} per 1,000 requests"),
            Spec("energy_kwh", "Energy per request", "kWh"),
        ),
    ),
    Section(
        "inference.total",
        "Inference, over the horizon",
        (
            Spec("requests", "Requests", "requests"),
            Spec("accelerator_hours", "Accelerator-hours", "accelerator-hours"),
            _money("cost", "Cost"),
            _money("pay_per_use_cost", "Cost if paid per use"),
            _money("always_on_cost", "Cost if kept always on"),
            Spec("energy_kwh", "Energy", "kWh"),
            Spec("emissions_kg_co2e", "Emissions", "kg CO2e"),
        ),
    ),
    Section(
        "inference",
        "Inference, capacity and margin",
        (
            Spec("peak_accelerators", "Accelerators needed at peak", "accelerators"),
            Spec("peak_requests_per_second", "Requests per second at peak", "requests/s"),
            Spec("peak_concurrent_requests", "Requests in progress at peak", "requests"),
            Spec("gross_margin", "Gross margin", "share"),
            _money("revenue_total", "Revenue over the horizon"),
        ),
    ),
    Section(
        "comparison",
        "Training against inference",
        (
            Spec("break_even_months", "Break-even in accelerator-hours", "months"),
            Spec("break_even_months_cost", "Break-even in cost", "months"),
            Spec("break_even_months_energy", "Break-even in energy", "months"),
            Spec("within_horizon", "Break-even within the horizon", ""),
            Spec("training_share", "Training's share of accelerator-hours", "share"),
            Spec("training_share_cost", "Training's share of cost", "share"),
            Spec("inference_share", "Inference's share of accelerator-hours", "share"),
        ),
    ),
)

# The figures a project's summary shows for each scenario, labelled to read well with their unit.
HEADLINE = (
    ("training.flop", "Training compute"),
    ("training.accelerator_hours", "Training"),
    ("training.cost", "Training cost"),
    ("inference.total.requests", "Inference over the horizon"),
    ("inference.total.accelerator_hours", "Inference over the horizon"),
    ("inference.total.cost", "Inference cost over the horizon"),
    ("inference.per_request.cost", "Cost per request"),
    ("inference.per_request.cost_per_1000", "Cost"),
    ("inference.peak_accelerators", "Needed at peak"),
    ("comparison.break_even_months", "Break-even"),
)


@dataclass(frozen=True)
class FigureRow:
    section: str
    figure: str
    value: Value
    unit: str
    field: str  # the figure's path in the estimate response, e.g. "training.cost"

    @property
    def money(self) -> bool:
        return isinstance(self.value, Decimal)


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
        return "yes" if raw else "no"
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
                    section=section.title,
                    figure=spec.label,
                    value=_value(spec.read(node) if spec.read else node[spec.key], spec.money),
                    unit=spec.unit.format(currency=currency),
                    field=f"{section.path}.{spec.key}",
                )
            )
        if section.path == "training":
            rows.extend(_threshold_rows(node["thresholds"]))
        if section.path == "inference":
            rows.extend(serving_rows(response))
    return rows


def _threshold_rows(thresholds: list[dict]) -> list[FigureRow]:
    return [
        FigureRow(
            section="Training",
            figure=f"Threshold: {threshold['name']} ({threshold['flop']:.3g} FLOP)",
            value="exceeded" if threshold["exceeded"] else "below",
            unit="",
            field=f"training.thresholds.{index}.exceeded",
        )
        for index, threshold in enumerate(thresholds)
    ]


def headline(rows: list[FigureRow]) -> list[Value]:
    """The summary's figures of one scenario, None where the scenario lacks one."""
    by_field = {row.field: row.value for row in rows}
    return [by_field.get(field) for field, _ in HEADLINE]


def headline_headings(currency: str) -> list[str]:
    """The summary's column headers, each with its unit: "Training cost (USD)"."""
    units = {
        f"{section.path}.{spec.key}": spec.unit.format(currency=currency)
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
        Column("month", "Month", ""),
        *(Column(s.key, s.label, s.unit.format(currency=currency), s.money) for s in specs),
    )
    return Table(
        title=title,
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
        "Inference month by month",
        (
            Spec("requests", "Requests", "requests"),
            Spec("accelerator_hours", "Accelerator-hours", "accelerator-hours"),
            _money("cost", "Cost"),
            Spec("energy_kwh", "Energy", "kWh"),
        ),
    )


def cumulative_table(response: dict) -> Table | None:
    """The chart's figures: cumulative training and inference, month 0 being the training."""
    return _table(
        response,
        "comparison.cumulative",
        "Cumulative figures by month (month 0 is training)",
        (
            Spec("training_accelerator_hours", "Training", "accelerator-hours"),
            Spec("inference_accelerator_hours", "Inference", "accelerator-hours"),
            _money("training_cost", "Training cost"),
            _money("inference_cost", "Inference cost"),
            Spec("training_energy_kwh", "Training energy", "kWh"),
            Spec("inference_energy_kwh", "Inference energy", "kWh"),
        ),
    )


def tables(response: dict) -> list[Table]:
    return [t for t in (monthly_table(response), cumulative_table(response)) if t is not None]


@dataclass(frozen=True)
class InputRow:
    section: str  # "training", "inference" or "" for the request's top level
    name: str  # the estimate request's field name
    value: Value
    meaning: str  # the request field's help text, with its unit


RANGE_MEANING = "90 % interval of the input at this path: its 5th and 95th percentiles."


def input_rows(inputs: dict) -> list[InputRow]:
    """A scenario's stored inputs, one row per field, in the estimate request's own words."""
    request_fields = EstimateRequestSerializer().fields
    rows = []
    for name, value in inputs.items():
        if name == "ranges":
            rows.extend(
                InputRow(name, path, f"between {r['low']} and {r['high']}", RANGE_MEANING)
                for path, r in value.items()
            )
        elif isinstance(value, dict):
            section = request_fields.get(name)
            fields = section.fields if section is not None else {}
            rows.extend(
                InputRow(name, key, _value(item, False), _help(fields, key))
                for key, item in value.items()
            )
        else:
            rows.append(InputRow("", name, _value(value, False), _help(request_fields, name)))
    return rows


def _help(fields, key: str) -> str:
    field = fields.get(key)
    return str(field.help_text or "") if field is not None else ""
