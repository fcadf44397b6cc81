"""Ranges on a budget: percentiles of its totals and of each fiscal year's rows, from budgets
drawn up sample by sample.

The inputs are drawn as the estimate's ranges draw them
(apps.estimates.uncertainty_draws.draw_inputs: the same seed gives the same draws for the same
input, so the budget's samples are the estimate's), evaluated once through the vectorised engine,
and each sample's compute lines are placed in the months the central budget places them
(`compute_lines`), but from the sample's own figures: its training cost spread over its own
wall-clock hours, its service starting the month after its own training ends (unless the scenario
fixes the start), its own monthly inference cost, purchase and power. The lines people add carry no
range: they are the same in every sample. Each sample's subtotals, contingency, indirect costs,
totals, run-rate and net present value follow from its own lines by the budget's own rules
(`budget`), so every figure is a percentile of per-sample figures, never a sum of percentiles or a
corner.

The samples are not rounded to the cent month by month as the central budget is: a sample's
figures can differ from the central arithmetic by a few cents, far below the sampling error.
"""

import math
from collections.abc import Sequence
from datetime import date, datetime, timedelta

import numpy as np

from apps.estimates import formulas as f
from apps.estimates.budget.conversion import Conversion
from apps.estimates.budget.fiscal import (
    FiscalCalendar,
    PeriodMonths,
    fiscal_years,
    month_index,
)
from apps.estimates.budget.inputs import BudgetRules
from apps.estimates.budget.lines import CostLineInput, decimal
from apps.estimates.budget.months import default_service_start
from apps.estimates.budget.table import budget
from apps.estimates.commitment import excess_accelerator_hours
from apps.estimates.engine import estimate, evaluate_with_sections, inference_cost_to_date
from apps.estimates.inputs import EstimateInput
from apps.estimates.money import to_money
from apps.estimates.quantiles import _quantiles
from apps.estimates.results import EstimateResult
from apps.estimates.uncertainty import FigureRange, UncertaintyResult
from apps.estimates.uncertainty_draws import Range, draw_inputs

_HOUR = timedelta(hours=1)
# The summary's figures and the rows below the lines, as the budget API names them.
SUMMARY = ("total", "upfront", "annual_run_rate", "npv")
PERIOD_ROWS = ("capex", "opex", "contingency", "indirect")
YEAR_ROWS = ("capex", "opex", "total")


def figure_paths(year_count: int) -> tuple[str, ...]:
    """Every figure a budget's ranges hold, by its path in the budget API's answer: the summary
    ("summary.npv"), the rows below the lines over the whole period ("totals.contingency"; their
    total is "summary.total"), and each fiscal year's capex, opex and total ("totals.total.0"
    for the first year's)."""
    return (
        *(f"summary.{name}" for name in SUMMARY),
        *(f"totals.{row}" for row in PERIOD_ROWS),
        *(f"totals.{row}.{year}" for year in range(year_count) for row in YEAR_ROWS),
    )


class _Points:
    """The months at which each sample's cumulative amounts are taken (as `month_index`, each
    standing for its first moment): the start of every fiscal year, the end of the planning
    period, and the start of the run-rate's last twelve months (the period's start when it is
    shorter). A fiscal year's amount is the difference between two of them, and so is the
    run-rate's, so that one pass over the samples serves every year."""

    def __init__(self, calendar: FiscalCalendar) -> None:
        years = fiscal_years(calendar)
        period = PeriodMonths(years)
        self.year_count = period.year_count
        self.months = period.last - period.first + 1
        self.period_last = period.last
        self.month = [month_index(year.start) for year in years]
        self.month += [period.last + 1, max(period.first, period.last - 11)]
        self.column = np.array(self.month, dtype=np.float64)[:, None]  # (points, 1)

    def before(self, month: np.ndarray | int) -> np.ndarray:
        """(points, samples): 1.0 where the month (one per sample) is before the point."""
        return (month < self.column).astype(np.float64)

    def spans(self, cumulative: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each fiscal year's amounts (years, samples) and the run-rate window's (samples,),
        from amounts accumulated up to each point."""
        years = np.diff(cumulative[: self.year_count + 1], axis=0)
        return years, cumulative[self.year_count] - cumulative[self.year_count + 1]


def _hours_before(origin: datetime, month: int) -> float:
    """Hours from `origin` to the first moment of `month` (negative before it)."""
    if month // 12 > 9999:
        return math.inf
    return (datetime(month // 12, month % 12 + 1, 1) - origin) / _HOUR


def _training_share_before(start: date, wall_clock: np.ndarray, points: _Points) -> np.ndarray:
    """(points, samples): the share of each sample's training hours before each point, the hours
    counted from midnight of the start day on the real calendar (as `compute_lines` spreads
    training); a training of no hours lies wholly in its start month."""
    origin = datetime(start.year, start.month, start.day)
    hours = np.array([max(_hours_before(origin, month), 0.0) for month in points.month])
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = np.minimum(hours[:, None], wall_clock) / wall_clock
    return np.where(wall_clock > 0, shares, points.before(month_index(start)))


def _service_months(start: date, wall_clock: np.ndarray, points: _Points) -> np.ndarray:
    """Each sample's service start (a `month_index`): the month after its training ends, as
    `default_service_start` (a training ending at midnight on the 1st is over before that
    month). Any month after the period stands for "after the period"."""
    first = month_index(start)
    origin = datetime(start.year, start.month, start.day)
    month_starts = [_hours_before(origin, m) for m in range(first + 1, points.period_last + 2)]
    return first + 1 + np.searchsorted(np.array(month_starts), wall_clock, side="left")


class _Lines:
    """Every sample's compute lines, capex and opex, accumulated up to each point."""

    def __init__(self, points: _Points, samples: int) -> None:
        self.points = points
        self.capex = np.zeros((len(points.month), samples))
        self.opex = np.zeros((len(points.month), samples))

        self.upfront = np.zeros((len(points.month), samples))  # classed by the threshold

    def add(self, budget_class: str, cumulative: np.ndarray) -> None:
        target = self.capex if budget_class == "capex" else self.opex
        target += cumulative

    def threshold_class(self, payment: np.ndarray, threshold: float) -> None:
        """The upfront payments to capex in the samples whose payment is at or above the
        capitalisation threshold, to opex in the others (as `budget` classes them)."""
        capex = payment >= threshold
        self.capex += np.where(capex, self.upfront, 0.0)
        self.opex += np.where(capex, 0.0, self.upfront)
        self.upfront[:] = 0.0


def _committed(lines: _Lines, inference, since: np.ndarray, served: np.ndarray, each) -> None:
    """A commitment's payments up to each point (`since`: months from the service start), as
    `compute_lines` places them: each term's upfront part when it starts, its monthly part every
    month of the terms (past the horizon too), the busy hours beyond it on demand."""
    committed = inference.committed
    paid = np.minimum(np.maximum(since, 0.0), each(committed.committed_months))
    terms_started = np.ceil(paid / each(committed.term_months))
    lines.upfront += terms_started * each(committed.upfront_per_term)
    lines.add("opex", paid * each(committed.monthly_payment))
    first_hours = f.monthly_accelerator_hours(
        inference.requests_per_month, inference.accelerator_seconds
    )
    excess = excess_accelerator_hours(
        first_hours, inference.monthly_growth, served, committed.served_hours_a_month
    )
    lines.add("opex", excess * each(committed.on_demand_price_per_accelerator_hour))


def _computed(
    inp: EstimateInput,
    result: EstimateResult,
    sampled: EstimateInput,
    samples: int,
    points: _Points,
    training_start: date,
    service_start: date | None,
    capitalisation_threshold: float,
) -> _Lines:
    """Every sample's compute lines: the lines `compute_lines` adds for the central inputs (the
    same lines, in the same cases), with the sample's own figures."""
    figures, inference = evaluate_with_sections(sampled)

    def each(value) -> np.ndarray:
        return np.broadcast_to(np.asarray(value, dtype=np.float64), (samples,))

    electricity = sampled.energy.electricity_price_per_kwh
    lines = _Lines(points, samples)
    wall_clock = None if result.training is None else result.training.wall_clock_hours
    if result.training is not None:
        started = points.before(month_index(training_start))
        if wall_clock is None:  # fine-tuned through a vendor's API: billed when it starts
            lines.add("opex", started * each(figures.training_cost))
        else:
            shares = _training_share_before(
                training_start, each(figures.training_wall_clock_hours), points
            )
            pricing = sampled.training.pricing
            # Training not priced: its compute or purchase is left out, as compute_lines does.
            priced = result.training.cost is not None
            if inp.training.pricing.mode == "rent":
                if priced:
                    lines.add("opex", shares * each(figures.training_cost))
            else:
                if priced:
                    bought = each(sampled.training.accelerator_count) * each(pricing.purchase_price)
                    lines.add("capex", started * bought)
                if result.training.energy_kwh is not None and electricity is not None:
                    power = each(figures.training_energy_kwh) * each(electricity)
                    lines.add("opex", shares * power)
    if result.inference is None or (
        result.inference.serving is not None and not result.inference.serving.fits
    ):
        return lines
    if service_start is not None:
        service_month = month_index(service_start)
    elif wall_clock is None:
        service_month = month_index(default_service_start(training_start, None))
    else:
        service_month = _service_months(
            training_start, each(figures.training_wall_clock_hours), points
        )
    # Months of service before each point, within the horizon.
    served = np.clip(points.column - service_month, 0, int(inp.inference.months))
    if inp.inference.pricing.mode == "rent" and inference.committed is not None:
        _committed(lines, inference, points.column - service_month, served, each)
        lines.threshold_class(each(inference.committed.upfront_per_term), capitalisation_threshold)
        return lines
    if inp.inference.pricing.mode == "rent":
        lines.add("opex", inference_cost_to_date(inference, served))
        return lines
    pricing = sampled.inference.pricing
    bought = each(figures.peak_accelerators) * each(pricing.purchase_price)
    lines.add("capex", points.before(service_month) * bought)
    known = all(month.energy_kwh is not None for month in result.inference.monthly)
    if known and electricity is not None:
        requests = f.total_requests(inference.requests_per_month, inference.monthly_growth, served)
        hours = f.monthly_accelerator_hours(requests, inference.accelerator_seconds)
        kwh = f.energy_kwh(hours, inference.power_watts, inference.pue)
        lines.add("opex", kwh * each(electricity))
    return lines


def _money_range(values: np.ndarray) -> FigureRange | None:
    mean = float(np.mean(values))  # before the percentiles, which reorder the samples
    if math.isnan(mean):
        return None  # a sample cannot be worked out (a model that fits no replica)
    p5, p50, p95 = _quantiles(values)
    return FigureRange(to_money(p5), to_money(p50), to_money(p95), to_money(mean))


def budget_uncertainty(
    inp: EstimateInput,
    ranges: dict[str, Range],
    calendar: FiscalCalendar,
    rules: BudgetRules,
    lines: Sequence[CostLineInput] = (),
    *,
    samples: int = 100_000,
    seed: int = 0,
    training_start: date | None = None,
    service_start: date | None = None,
    result: EstimateResult | None = None,
    rate: Range | None = None,
    conversion: Conversion | None = None,
) -> UncertaintyResult:
    """Percentiles (P5, P50, P95) and mean of the budget's figures (see `figure_paths`) when the
    inputs at `ranges`' engine paths are 90 % intervals, money as Decimal; with the clipping
    and shared drivers of the draws. `lines`, `training_start` and `service_start` as for
    `budget` and `compute_lines`; `result` is `estimate(inp)` when the caller has it; `rate`
    the factor an exchange rate's range moves every price by (`draw_inputs`), which the lines
    people add, in the budget's own currency, do not follow; `conversion` as for `budget`: a
    fiscal year's own rate scales the year's compute (and the run-rate the last year's).

    Raises as `draw_inputs` does for the ranges, and as `budget` for the calendar, rules and
    lines.
    """
    result = estimate(inp) if result is None else result
    drawn = draw_inputs(inp, ranges, samples, seed, rate=rate)
    # The lines people add: no range, every sample.
    fixed = budget(calendar, rules, lines, conversion=conversion)
    points = _Points(calendar)
    computed = _computed(
        inp,
        result,
        drawn.inputs,
        samples,
        points,
        calendar.period_start if training_start is None else training_start,
        service_start,
        float(decimal(rules.capitalisation_threshold)),
    )
    computed_capex, _ = points.spans(computed.capex)
    computed_opex, run_rate = points.spans(computed.opex)
    if conversion is not None and conversion.year_rates:
        factors = [float(conversion.computed_factor(year.label)) for year in fixed.fiscal_years]
        computed_capex = computed_capex * np.array(factors)[:, None]
        computed_opex = computed_opex * np.array(factors)[:, None]
        run_rate = run_rate * factors[-1]

    def rate(value) -> float:
        return float(decimal(value))

    def column(amounts) -> np.ndarray:
        return np.array([float(amount) for amount in amounts])[:, None]

    capex = column(fixed.totals.capex) + computed_capex
    opex = column(fixed.totals.opex) + computed_opex
    contingency = rate(rules.contingency_capex) * capex + rate(rules.contingency_opex) * opex
    indirect = rate(rules.indirect_rate) * (capex + opex + contingency)
    total = capex + opex + contingency + indirect
    if points.months < 12:
        run_rate = run_rate * (12 / points.months)
    discount = (1 + rate(rules.discount_rate)) ** -np.arange(points.year_count, dtype=np.float64)
    upfront = capex.sum(axis=0)  # all capex of the period, as the summary counts it
    columns = {
        "summary.total": total.sum(axis=0),
        "summary.upfront": upfront,
        "summary.annual_run_rate": float(fixed.summary.annual_run_rate) + run_rate,
        "summary.npv": discount @ total,
        "totals.capex": upfront,
        "totals.opex": opex.sum(axis=0),
        "totals.contingency": contingency.sum(axis=0),
        "totals.indirect": indirect.sum(axis=0),
    }
    for name, row in (("capex", capex), ("opex", opex), ("total", total)):
        for year in range(points.year_count):
            columns[f"totals.{name}.{year}"] = row[year]
    ranges_by_array: dict[int, FigureRange | None] = {}  # one figure's samples under two names
    for path in figure_paths(points.year_count):
        values = columns[path]
        if id(values) not in ranges_by_array:
            ranges_by_array[id(values)] = _money_range(np.ascontiguousarray(values))
    figures = {
        path: ranges_by_array[id(columns[path])]
        for path in figure_paths(points.year_count)
        if ranges_by_array[id(columns[path])] is not None
    }
    return UncertaintyResult(
        samples=samples,
        seed=seed,
        figures=figures,
        clipped=drawn.clipped,
        shared=drawn.shared,
    )
