"""Ranges on the decision view: percentiles of each option's total, net present value and cost
per request, and the share of samples in which each option is the cheapest.

Every option is sampled through the vectorised engine (`evaluate`) with the scenario's seed and
the same draws for the same input (common random numbers: the streams of
apps.estimates.uncertainty_draws, keyed by seed and input path, each input drawn once for all the
options), so that in each sample the options face the same demand and prices. A price that the
scenario's training and inference share is one driver, drawn as the inference's, so that an
option without training (renting, owning) draws the same price as one with it (building). An
option whose own value differs from the scenario's (another accelerator's price) takes the
scenario's range as the same factors of its own value.

A sample's budget is not drawn up line by line again: each line of the option's central budget
(the budget arithmetic being linear in the lines' amounts, with contingency and indirect costs as
rates of them) is scaled by the sample's own figure for it: compute by the engine's training or
inference cost, a purchase by accelerators × purchase price, power by energy × electricity
price. This is exact while the ranges leave the months the costs fall in as they are (a range on
growth, the horizon or the training time moves cost between months and fiscal years: then the
months keep the central spread). The cheapest in a sample is the option with the lowest net
present value in that sample, never a corner.
"""

from collections.abc import Sequence
from dataclasses import replace
from datetime import date

import numpy as np

from apps.estimates.budget import BudgetRules, FiscalCalendar, budget
from apps.estimates.budget.inputs import ComputedLines
from apps.estimates.engine import evaluate
from apps.estimates.inputs import EstimateInput, with_value
from apps.estimates.money import to_money
from apps.estimates.options import (
    OptionEstimate,
    OptionInput,
    OptionsUncertainty,
    _staff_line,
    unit_cost,
)
from apps.estimates.quantiles import _quantiles
from apps.estimates.results import Figures
from apps.estimates.uncertainty import FigureRange
from apps.estimates.uncertainty_draws import SHIFT, Range, _draw, _drivers, _value_at

# A figure's samples: an array, or a float when no range moves it.
Samples = float | np.ndarray


def _scenario_ranges(scenario: EstimateInput | None, ranges: dict[str, Range]) -> dict:
    """The ranges with a price the scenario's training and inference share on both paths."""
    if scenario is None:
        return ranges
    shared = dict(ranges)
    for paths in _drivers(scenario, ranges):
        interval = next(ranges[path] for path in paths if path in ranges)
        shared.update(dict.fromkeys(paths, interval))
    return shared


def _option_ranges(
    inp: EstimateInput, scenario: EstimateInput | None, ranges: dict[str, Range]
) -> dict[str, Range]:
    """The ranges this option's inputs take (an API has no accelerator-hour price to range),
    as factors of its own value where it differs from the scenario's."""
    taken = {}
    for path, interval in ranges.items():
        try:
            value = _value_at(inp, path)
        except KeyError:
            continue
        if value is None:
            continue
        try:
            given = None if scenario is None else _value_at(scenario, path)
        except KeyError:
            given = None
        if given and value != given and path.rpartition(".")[2] not in SHIFT:
            factor = float(value) / float(given)
            interval = Range(interval.low * factor, interval.high * factor)
        taken[path] = interval
    return taken


def _sampled(
    inp: EstimateInput, ranges: dict[str, Range], samples: int, seed: int, draws: dict
) -> EstimateInput:
    sampled = inp
    for paths in _drivers(inp, ranges):
        # A shared price is drawn as the inference's, which every option has.
        key = paths[-1]
        interval = next(ranges[path] for path in paths if path in ranges)
        if (key, interval) not in draws:
            draws[key, interval] = _draw(key.rpartition(".")[2], interval, samples, seed, key)[0]
        for path in paths:
            sampled = with_value(sampled, tuple(path.split(".")), draws[key, interval])
    return sampled


def _by_section(
    inp: EstimateInput,
    central: Figures,
    sampled: EstimateInput,
    ranges: dict[str, Range],
    evaluated: dict,
) -> tuple[Figures, Figures]:
    """`evaluate`'s figures of the training and of the inference, each section alone: the
    break-even between them, which the options do not need, is not worked out, and the
    inference of an option that serves the demand as an earlier one did (building a model then
    hosting it as renting per use does) is not worked out again: the same inputs and the same
    draws give the same figures."""
    key = (
        inp.inference,
        inp.energy,
        tuple(sorted(item for item in ranges.items() if not item[0].startswith("training."))),
    )
    if key not in evaluated:
        evaluated[key] = evaluate(replace(sampled, training=None))
    inference = evaluated[key]
    if sampled.training is inp.training and sampled.energy is inp.energy:
        return central, inference  # no range moves the training
    return evaluate(replace(sampled, inference=None)), inference


def _ratio(central: float, drawn: Samples) -> Samples:
    """A line's amount in each sample over its central amount (1 where it is nothing)."""
    if not central:
        return 1.0
    if isinstance(drawn, np.ndarray) and drawn.strides == (0,):
        return float(drawn[0]) / central  # no range moves it
    return drawn / central


def _scales(
    inp: EstimateInput,
    central: Figures,
    sampled: EstimateInput,
    training: Figures,
    inference: Figures,
) -> dict[str, Samples]:
    """Per sample, each budget line's amount over its central amount, by line name (and the
    cost per request under "cost_per_request"), from the sampled figures of each section."""

    def electricity(given: EstimateInput) -> Samples:
        return given.energy.electricity_price_per_kwh or 0.0

    def purchase_price(given: EstimateInput, section: str) -> Samples:
        return getattr(given, section).pricing.purchase_price or 0.0

    inference_cost = _ratio(central.inference_cost, inference.inference_cost)
    scales = {
        "Training compute": _ratio(central.training_cost, training.training_cost),
        "Inference compute": inference_cost,
        # A commitment's lines follow its cost (the engine's inference cost): exact while
        # nothing exceeds the committed capacity, as when it is sized for the peak; its upfront
        # payments keep the class the central budget gave them.
        "Committed capacity paid upfront": inference_cost,
        "Committed capacity, monthly payments": inference_cost,
        "Inference on demand above the commitment": inference_cost,
    }
    if inp.training is not None and inp.training.pricing.mode == "own":
        scales["Accelerators bought for training"] = _ratio(
            inp.training.accelerator_count * purchase_price(inp, "training"),
            sampled.training.accelerator_count * purchase_price(sampled, "training"),
        )
        scales["Power and cooling of training hardware"] = _ratio(
            central.training_energy_kwh * electricity(inp),
            training.training_energy_kwh * electricity(sampled),
        )
    if inp.inference is not None and inp.inference.pricing.mode == "own":
        scales["Accelerators bought for serving"] = _ratio(
            central.peak_accelerators * purchase_price(inp, "inference"),
            inference.peak_accelerators * purchase_price(sampled, "inference"),
        )
        scales["Power and cooling of serving hardware"] = _ratio(
            central.inference_energy_kwh * electricity(inp),
            inference.inference_energy_kwh * electricity(sampled),
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        scales["cost_per_request"] = np.divide(
            inference.inference_cost, inference.inference_total_requests
        )
    return scales


def _line_parts(
    option: OptionInput,
    computed: ComputedLines,
    calendar: FiscalCalendar,
    rules: BudgetRules,
    service_start: date | None,
) -> list[tuple[str, float, float]]:
    """(line name, its part of the total, its part of the NPV) of the option's central budget,
    each line's budget drawn up alone (its contingency and indirect costs with it)."""
    parts = []
    for line in computed.lines:
        alone = budget(calendar, rules, computed=ComputedLines(lines=(line,)))
        parts.append((line.name, float(alone.summary.total), float(alone.summary.npv)))
    staff = _staff_line(option, service_start or calendar.period_start)
    if staff is not None:
        alone = budget(calendar, rules, lines=[staff])
        parts.append((staff.name, float(alone.summary.total), float(alone.summary.npv)))
    return parts


def _range(values: Samples, rounded=to_money) -> FigureRange | None:
    """Percentiles and mean of a figure's samples, rounded as the figure leaves the engine;
    None when a sample has none (no requests to share a cost over)."""
    if not isinstance(values, np.ndarray) or values.strides == (0,):
        value = rounded(float(np.asarray(values).flat[0]))
        return None if value is None else FigureRange(value, value, value, value)
    mean = float(values.mean())
    if not np.isfinite(mean):
        return None
    p5, p50, p95 = _quantiles(values)
    return FigureRange(rounded(p5), rounded(p50), rounded(p95), rounded(mean))


def _cheapest(npvs: list[Samples], samples: int) -> np.ndarray:
    """The index of the option with the lowest NPV in each sample, the first of equals (as
    np.argmin over the stacked options, several times faster than it along that axis)."""
    lowest = np.array(np.broadcast_to(npvs[0], (samples,)), dtype=np.float64)
    cheapest = np.zeros(samples, dtype=np.intp)
    for index, npv in enumerate(npvs[1:], start=1):
        cheapest[npv < lowest] = index
        np.minimum(lowest, npv, out=lowest)
    return cheapest


def options_uncertainty(
    options: Sequence[OptionInput],
    estimates: Sequence[OptionEstimate],
    lines: Sequence[ComputedLines],
    ranges: dict[str, Range],
    calendar: FiscalCalendar,
    rules: BudgetRules,
    *,
    samples: int,
    seed: int,
    service_start: date | None = None,
    scenario: EstimateInput | None = None,
) -> OptionsUncertainty:
    """Percentiles of each option's total, NPV and cost per request, and how often each is
    the cheapest, when the inputs at `ranges`' engine paths are 90 % intervals of `scenario`'s
    (see the module docstring). `estimates` and `lines` are the comparison's, one per option:
    the engine's central answers and the lines its budget was drawn up from."""
    ranges = _scenario_ranges(scenario, ranges)
    draws: dict = {}  # input samples by stream and range, drawn once for all the options
    evaluated: dict = {}  # sampled inference figures by inputs and ranges
    sampled_figures: dict[str, Samples] = {}
    npvs = []
    for option, worked, computed in zip(options, estimates, lines, strict=True):
        inp = option.estimate
        taken = _option_ranges(inp, scenario, ranges)
        sampled = _sampled(inp, taken, samples, seed, draws)
        sections = _by_section(inp, worked.figures, sampled, taken, evaluated)
        scales = _scales(inp, worked.figures, sampled, *sections)
        total: Samples = 0.0
        npv: Samples = 0.0
        for name, part_total, part_npv in _line_parts(
            option, computed, calendar, rules, service_start
        ):
            scale = scales.get(name, 1.0)
            total = total + part_total * scale
            npv = npv + part_npv * scale
        sampled_figures[f"options.{option.key}.total"] = total
        sampled_figures[f"options.{option.key}.npv"] = npv
        sampled_figures[f"options.{option.key}.cost_per_request"] = scales["cost_per_request"]
        npvs.append(npv)
    counts = np.bincount(_cheapest(npvs, samples), minlength=len(options))
    figures = {}
    for path, values in sampled_figures.items():
        rounded = unit_cost if path.endswith(".cost_per_request") else to_money
        figure = _range(values, rounded)
        if figure is not None:
            figures[path] = figure
    return OptionsUncertainty(
        samples=samples,
        seed=seed,
        figures=figures,
        cheapest_share={
            option.key: float(count) / samples
            for option, count in zip(options, counts, strict=True)
        },
    )
