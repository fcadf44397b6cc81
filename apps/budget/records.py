"""A scenario's budget inputs as plain JSON: what a saved version keeps of them."""

from apps.budget.models import CostLine

LINE_FIELDS = (
    "name", "kind", "quantity", "unit", "unit_price", "recurrence", "start", "end",
    "annual_escalation", "budget_class", "category", "basis", "currency",
)  # fmt: skip


def line_record(line: CostLine) -> dict:
    """A line as JSON: decimals and dates as strings, as the API writes them."""
    record = {"id": line.pk}
    for name in LINE_FIELDS:
        value = getattr(line, name)
        record[name] = value if value is None or isinstance(value, int | str) else str(value)
    return record


def budget_record(scenario) -> dict:
    """The scenario's timing and its cost lines (one query), for ScenarioVersion.budget."""
    return {
        "training_start": _date(scenario.training_start),
        "service_start": _date(scenario.service_start),
        "cost_lines": [line_record(line) for line in scenario.cost_lines.all()],
    }


def _date(value) -> str | None:
    return value.isoformat() if value else None
