"""Ranges on the decision view: percentiles of each option's total and net present value, and
the share of samples in which each option is the cheapest.

Every option is sampled through the vectorised engine (`evaluate`) with the scenario's seed and
the same draws for the same input (common random numbers: the streams of
apps.estimates.uncertainty, keyed by seed and input path), so that in each sample the options
face the same demand and prices. A sample's budget is not drawn up line by line again: each line
of the option's central budget (the budget arithmetic being linear in the lines' amounts, with
contingency and indirect costs as rates of them) is scaled by the sample's own figure for it:
compute by the engine's training or inference cost, a purchase by accelerators × purchase
price, power by energy × electricity price. This is exact while the ranges leave the months the
costs fall in as they are (a range on growth, the horizon or the training time moves cost
between months and fiscal years: then the months keep the central spread). The cheapest in a
sample is the option with the lowest net present value in that sample, never a corner.
"""

from dataclasses import dataclass

import numpy as np

from apps.estimates import estimate
from apps.estimates.budget import BudgetRules, FiscalCalendar, budget, compute_lines
from apps.estimates.budget.inputs import ComputedLines
from apps.estimates.engine import evaluate
from apps.estimates.inputs import EstimateInput, with_value
from apps.estimates.money import to_money
from apps.estimates.options import OptionInput, _staff_line
from apps.estimates.uncertainty import FigureRange, Range, _draw, _drivers, _quantiles, _value_at


@dataclass(frozen=True)
class OptionsUncertainty:
    samples: int
    seed: int
    figures: dict[str, FigureRange]  # "options.<key>.total", "options.<key>.npv"
    cheapest_share: dict[str, float]  # by option key, summing to 1


def _applicable(inp: EstimateInput, ranges: dict[str, Range]) -> dict[str, Range]:
    """The ranges this option's inputs take (an API has no accelerator-hour price to range)."""
    taken = {}
    for path, interval in ranges.items():
        try:
            value = _value_at(inp, path)
        except KeyError:
            continue
        if value is not None:
            taken[path] = interval
    return taken


def _sampled(inp: EstimateInput, ranges: dict[str, Range], samples: int, seed: int):
    sampled = inp
    for paths in _drivers(inp, ranges):
        interval = next(ranges[path] for path in paths if path in ranges)
        values, _share = _draw(paths[0].rpartition(".")[2], interval, samples, seed, paths[0])
        for path in paths:
            sampled = with_value(sampled, tuple(path.split(".")), values)
    return sampled


def _array(value, samples: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=np.float64), (samples,))


def _ratio(central: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    base = float(central[0])
    return drawn / base if base else np.ones(len(drawn))


def _scales(inp: EstimateInput, sampled: EstimateInput, samples: int) -> dict[str, np.ndarray]:
    """Per sample, each budget line's amount over its central amount, by line name."""
    central, drawn = evaluate(inp), evaluate(sampled)

    def figure(evaluated, name: str) -> np.ndarray:
        return _array(getattr(evaluated, name), samples)

    def electricity(given: EstimateInput) -> np.ndarray:
        return _array(given.energy.electricity_price_per_kwh or 0.0, samples)

    def purchase_price(given: EstimateInput, section: str) -> np.ndarray:
        return _array(getattr(given, section).pricing.purchase_price or 0.0, samples)

    scales = {
        "Training compute": _ratio(
            figure(central, "training_cost"), figure(drawn, "training_cost")
        ),
        "Inference compute": _ratio(
            figure(central, "inference_cost"), figure(drawn, "inference_cost")
        ),
    }
    if inp.training is not None and inp.training.pricing.mode == "own":
        scales["Accelerators bought for training"] = _ratio(
            _array(inp.training.accelerator_count, samples) * purchase_price(inp, "training"),
            _array(sampled.training.accelerator_count, samples)
            * purchase_price(sampled, "training"),
        )
        scales["Power and cooling of training hardware"] = _ratio(
            figure(central, "training_energy_kwh") * electricity(inp),
            figure(drawn, "training_energy_kwh") * electricity(sampled),
        )
    if inp.inference is not None and inp.inference.pricing.mode == "own":
        scales["Accelerators bought for serving"] = _ratio(
            figure(central, "peak_accelerators") * purchase_price(inp, "inference"),
            figure(drawn, "peak_accelerators") * purchase_price(sampled, "inference"),
        )
        scales["Power and cooling of serving hardware"] = _ratio(
            figure(central, "inference_energy_kwh") * electricity(inp),
            figure(drawn, "inference_energy_kwh") * electricity(sampled),
        )
    return scales


def _line_parts(
    option: OptionInput,
    calendar: FiscalCalendar,
    rules: BudgetRules,
    training_start,
    service_start,
) -> list[tuple[str, float, float]]:
    """(line name, its part of the total, its part of the NPV) of the option's central budget,
    each line's budget drawn up alone (its contingency and indirect costs with it)."""
    inp = option.estimate
    computed = compute_lines(
        inp,
        estimate(inp),
        calendar,
        training_start=training_start,
        service_start=service_start,
    )
    parts = []
    for line in computed.lines:
        alone = budget(calendar, rules, computed=ComputedLines(lines=(line,)))
        parts.append((line.name, float(alone.summary.total), float(alone.summary.npv)))
    staff = _staff_line(option, service_start or calendar.period_start)
    if staff is not None:
        alone = budget(calendar, rules, lines=[staff])
        parts.append((staff.name, float(alone.summary.total), float(alone.summary.npv)))
    return parts


def _money_range(values: np.ndarray) -> FigureRange:
    p5, p50, p95 = _quantiles(values)
    return FigureRange(to_money(p5), to_money(p50), to_money(p95), to_money(float(values.mean())))


def options_uncertainty(
    options: list[OptionInput],
    ranges: dict[str, Range],
    calendar: FiscalCalendar,
    rules: BudgetRules,
    *,
    samples: int,
    seed: int,
    training_start=None,
    service_start=None,
) -> OptionsUncertainty:
    """Percentiles of each option's total and NPV, and how often each is the cheapest, when
    the inputs at `ranges`' engine paths are 90 % intervals (see the module docstring)."""
    figures: dict[str, FigureRange] = {}
    npvs = []
    for option in options:
        inp = option.estimate
        sampled = _sampled(inp, _applicable(inp, ranges), samples, seed)
        scales = _scales(inp, sampled, samples)
        total = np.zeros(samples)
        npv = np.zeros(samples)
        for name, part_total, part_npv in _line_parts(
            option, calendar, rules, training_start, service_start
        ):
            scale = scales.get(name, np.ones(samples))
            total += part_total * scale
            npv += part_npv * scale
        figures[f"options.{option.key}.total"] = _money_range(total)
        figures[f"options.{option.key}.npv"] = _money_range(npv)
        npvs.append(npv)
    cheapest = np.argmin(np.vstack(npvs), axis=0)
    counts = np.bincount(cheapest, minlength=len(options))
    return OptionsUncertainty(
        samples=samples,
        seed=seed,
        figures=figures,
        cheapest_share={
            option.key: float(count) / samples
            for option, count in zip(options, counts, strict=True)
        },
    )
