"""Ranges on inputs: 90 % intervals sampled by Monte Carlo through `evaluate`, percentiles out.

The inputs are drawn in apps.estimates.uncertainty_draws, which says how a range is read.

Every figure is a quantile of the figure's own samples (totals and shares are computed per
sample, never summed from quantiles or corners). Break-even counts the samples that do not break
even within the horizon as +inf: `probability_never` is their share, a percentile among them is
None, and so is the mean when there is any.
"""

import math
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from apps.estimates.engine import evaluate_with_sections
from apps.estimates.inputs import EstimateInput
from apps.estimates.money import to_money_figure
from apps.estimates.quantiles import _quantiles
from apps.estimates.uncertainty_draws import Range, draw_inputs
from apps.estimates.uncertainty_fan import FanMonth, cost_fan

# Figures of `evaluate`, by their path in the estimate response; money ones leave as Decimal.
FIGURE_PATHS = {
    "training_flop": "training.flop",
    "training_accelerator_hours": "training.accelerator_hours",
    "training_wall_clock_hours": "training.wall_clock_hours",
    "training_cost": "training.cost",
    "training_energy_kwh": "training.energy_kwh",
    "training_emissions_kg_co2e": "training.emissions_kg_co2e",
    "inference_accelerator_seconds_per_request": "inference.per_request.accelerator_seconds",
    "inference_latency_seconds": "inference.per_request.latency_seconds",
    "cost_per_request": "inference.per_request.cost",
    "inference_total_requests": "inference.total.requests",
    "inference_accelerator_hours": "inference.total.accelerator_hours",
    "inference_cost": "inference.total.cost",
    "inference_energy_kwh": "inference.total.energy_kwh",
    "peak_accelerators": "inference.peak_accelerators",
    "break_even_months": "comparison.break_even_months",
    "training_share": "comparison.training_share",
}
MONEY_FIGURES = frozenset(
    {
        "training.cost",
        "inference.per_request.cost",
        "inference.per_request.cost_per_1000",
        "inference.total.cost",
        "comparison.total_cost",
    }
)
BREAK_EVEN = "comparison.break_even_months"
# Every figure a result may hold, in the order it holds them: `evaluate`'s, then those derived
# from its samples (cost per 1,000 requests, inference's share, training plus inference cost).
FIGURES = (
    *FIGURE_PATHS.values(),
    "inference.per_request.cost_per_1000",
    "comparison.inference_share",
    "comparison.total_cost",
)


@dataclass(frozen=True)
class FigureRange:
    """Percentiles and mean of one figure's samples; Decimal for money, None for "never"."""

    p5: float | Decimal | None
    p50: float | Decimal | None
    p95: float | Decimal | None
    mean: float | Decimal | None
    probability_never: float | None = None  # break-even only: no break-even within the horizon


@dataclass(frozen=True)
class UncertaintyResult:
    samples: int
    seed: int
    figures: dict[str, FigureRange]  # by response path; a figure that cannot be computed is absent
    clipped: dict[str, float]  # by input path: the share of its samples clipped to valid bounds
    shared: tuple[tuple[str, ...], ...]  # input paths sampled as one driver
    # The cumulative inference cost's percentiles month by month (months 0 … horizon), when
    # asked for and computable; empty otherwise.
    fan: tuple[FanMonth, ...] = ()


def _figure(path: str, values: np.ndarray, horizon_months: float | None) -> FigureRange | None:
    probability_never = None
    never = 0
    if path == BREAK_EVEN:
        beyond = ~(values <= horizon_months)  # NaN (never) or beyond the horizon
        never = int(np.count_nonzero(beyond))
        probability_never = never / len(values)
        # The largest float sorts where +inf would, without inf − inf in the interpolation.
        values = np.where(beyond, np.finfo(np.float64).max, values)
        mean = math.inf if never else float(np.mean(values))
    else:
        # NaN: not computable (no power, no FLOP, or a section missing); any NaN sample makes
        # the mean NaN.
        mean = float(np.mean(values))
        if math.isnan(mean):
            return None
    p5, p50, p95 = _quantiles(values, never)

    def out(value: float) -> float | Decimal | None:
        if math.isinf(value):
            return None
        return to_money_figure(value) if path in MONEY_FIGURES else value

    return FigureRange(out(p5), out(p50), out(p95), out(mean), probability_never)


def _figure_samples(
    inp: EstimateInput, samples: int, fan: bool = False
) -> tuple[dict[str, np.ndarray], tuple[FanMonth, ...]]:
    evaluated, inference = evaluate_with_sections(inp)
    columns = {
        path: np.broadcast_to(np.asarray(getattr(evaluated, name), dtype=np.float64), (samples,))
        for name, path in FIGURE_PATHS.items()
    }
    columns["inference.per_request.cost_per_1000"] = 1000 * columns["inference.per_request.cost"]
    months = cost_fan(inference, columns["inference.total.cost"]) if fan else ()
    if inp.training is None or inp.inference is None:
        sections = {path: values for path, values in columns.items() if not path.startswith("comp")}
        return sections, months
    columns["comparison.inference_share"] = 1.0 - columns["comparison.training_share"]
    columns["comparison.total_cost"] = columns["training.cost"] + columns["inference.total.cost"]
    return columns, months


def sample(
    inp: EstimateInput,
    ranges: dict[str, Range],
    samples: int = 100_000,
    seed: int = 0,
    *,
    fan: bool = False,
    rate: Range | None = None,
) -> UncertaintyResult:
    """Percentiles of every figure when the inputs at `ranges`' paths ("training.mfu",
    "training.pricing.price_per_accelerator_hour", "energy.pue") are 90 % intervals.

    Raises EstimateInputError keyed by input path for a range the inputs cannot take, and as
    `evaluate` does for the inputs themselves. With `fan`, the result also holds the
    cumulative inference cost's percentiles month by month. `rate`: the factor an exchange
    rate's range moves every price by, as `draw_inputs` takes it.
    """
    drawn = draw_inputs(inp, ranges, samples, seed, rate=rate)
    horizon = None if inp.inference is None else float(inp.inference.months)
    columns, months = _figure_samples(drawn.inputs, samples, fan)
    figures = {}
    for path in FIGURES:
        figure = None if path not in columns else _figure(path, columns[path], horizon)
        if figure is not None:
            figures[path] = figure
    return UncertaintyResult(
        samples=samples,
        seed=seed,
        figures=figures,
        clipped=drawn.clipped,
        shared=drawn.shared,
        fan=months,
    )
