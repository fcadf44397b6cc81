"""What the two-column comparison shows: chart series, the data table and the break-even point."""

from dataclasses import dataclass
from decimal import Decimal

from apps.estimates import EstimateResult
from apps.words.language import gettext


@dataclass(frozen=True)
class ChartRow:
    month: int
    training_accelerator_hours: float
    inference_accelerator_hours: float
    training_cost: Decimal | None  # None: training not priced
    inference_cost: Decimal | None  # None: a model that fits no replica


def chart_rows(result: EstimateResult) -> list[ChartRow]:
    """Cumulative accelerator-hours and cost month by month; month 0 is the training step."""
    if result.comparison is not None:
        return [
            ChartRow(
                c.month,
                c.training_accelerator_hours,
                c.inference_accelerator_hours,
                c.training_cost,
                c.inference_cost,
            )
            for c in result.comparison.cumulative
        ]
    if result.inference is not None:
        return [ChartRow(0, 0.0, 0.0, Decimal(0), Decimal(0))] + [
            ChartRow(m.month, 0.0, m.cumulative_accelerator_hours, Decimal(0), m.cumulative_cost)
            for m in result.inference.monthly
        ]
    if result.training is not None:
        training = result.training
        return [ChartRow(0, training.accelerator_hours, 0.0, training.cost, Decimal(0))]
    return []


def chart_data(
    result: EstimateResult, currency: str = "USD", rows: list[ChartRow] | None = None
) -> dict:
    """JSON for the chart script: numbers only; the page's table carries the same figures
    (`rows`, when the caller has them already)."""
    rows = chart_rows(result) if rows is None else rows
    break_even = result.comparison.break_even_months if result.comparison else None
    return {
        "months": [row.month for row in rows],
        "training_accelerator_hours": [row.training_accelerator_hours for row in rows],
        "inference_accelerator_hours": [row.inference_accelerator_hours for row in rows],
        # None (a gap in the line) where training is not priced or a model fits no replica: no
        # cost can be drawn.
        "training_cost": [
            None if row.training_cost is None else float(row.training_cost) for row in rows
        ],
        "inference_cost": [
            None if row.inference_cost is None else float(row.inference_cost) for row in rows
        ],
        "break_even_months": break_even,
        "horizon_months": rows[-1].month if rows else 0,
        "labels": chart_labels(currency),
    }


def chart_labels(currency: str = "USD") -> dict[str, str]:
    """The chart's words in the active language (the script draws them on the canvas); the
    cost axis in the project's currency, as the table beside it."""
    return {
        "training": gettext("Training (one-off), cumulative"),
        "inference": gettext("Inference (recurring), cumulative"),
        "month": gettext("Month"),
        "hours": gettext("Accelerator-hours"),
        "cost": gettext("Cost (%(currency)s)") % {"currency": currency},
        "break_even": gettext("break-even"),
    }
