"""Ranges on inputs: 90 % intervals sampled by Monte Carlo through `evaluate`, percentiles out.

A range (low, high) is a 90 % interval: the input's 5th and 95th percentiles. Positive quantities
are lognormal, μ = (ln low + ln high) / 2 and σ = (ln high − ln low) / (2 · 1.645), as
Guesstimate, Squiggle and Epoch AI read "a to b". Monthly growth g may be 0 or negative (down to
just above −1), so its growth factor 1 + g is the lognormal one (a lognormal shifted by −1): it
never reaches g = −1, and a narrow range is close to a normal one. low = high fixes the input.
Samples outside the field's valid range (MFU above 1) are clipped to it, and the share of
clipped samples is reported per input.

Every figure is a quantile of the figure's own samples (totals and shares are computed per
sample, never summed from quantiles or corners). Break-even counts the samples that do not break
even within the horizon as +inf: `probability_never` is their share, a percentile among them is
None, and so is the mean when there is any.

Each driver draws from its own stream, PCG64 seeded by the seed and the driver's path, so two
scenarios with the same seed and the same ranged input use the same draws for it (common random
numbers), whatever else carries a range. The price of an accelerator-hour (and an owned one's
purchase price and lifetime) is one driver when training and inference have the same value.
"""

import math
from dataclasses import dataclass, fields, is_dataclass
from decimal import Decimal

import numpy as np

from apps.estimates.engine import evaluate_with_sections
from apps.estimates.external_api import (
    API_FINE_TUNE,
    API_FINE_TUNE_NUMBERS,
    API_ONLY_NUMBERS,
    EXTERNAL_API,
    EXTERNAL_API_NUMBERS,
)
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EstimateInput, EstimateInputError, with_value
from apps.estimates.limits import RULES
from apps.estimates.messages import Message, _, number
from apps.estimates.money import to_money
from apps.estimates.quantiles import _quantiles
from apps.estimates.uncertainty_fan import FanMonth, cost_fan

Z_95 = 1.6448536269514722  # the standard normal's 95th percentile
MIN_SAMPLES = 2
# Inputs whose (x + shift) is lognormal; every other one is lognormal itself.
SHIFT = {"monthly_growth": 1.0}
# Pricing figures that are one market quantity when training and inference have the same value.
SHARED_PRICING = ("price_per_accelerator_hour", "purchase_price", "lifetime_years")

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
CACHED = "inference.cached_input_tokens"
METHOD_NUMBERS = {EXTERNAL_API: EXTERNAL_API_NUMBERS, API_FINE_TUNE: API_FINE_TUNE_NUMBERS}
# Every figure a result may hold, in the order it holds them: `evaluate`'s, then those derived
# from its samples (cost per 1,000 requests, inference's share, training plus inference cost).
FIGURES = (
    *FIGURE_PATHS.values(),
    "inference.per_request.cost_per_1000",
    "comparison.inference_share",
    "comparison.total_cost",
)


@dataclass(frozen=True)
class Range:
    """A 90 % interval of one input: its 5th and 95th percentiles (equal: a fixed value)."""

    low: float
    high: float


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


def range_errors(name: str, low: float, high: float) -> list[Message]:
    """Why (low, high) cannot be a range of the input called `name` (a limits.RULES key)."""
    rule = RULES[name]
    if rule.whole:
        return [
            _("%(label)s is a whole number you choose; it cannot carry a range.", label=rule.label)
        ]
    if not (math.isfinite(low) and math.isfinite(high)):
        return [_("The low and high ends must be finite numbers.")]
    errors = []
    if low > high:
        errors.append(_("The low end is above the high end."))
    if not (rule.accepts_number(low) and rule.accepts_number(high)):
        errors.append(_("Both ends must be valid: %(rule)s", rule=rule.message))
    elif low + SHIFT.get(name, 0.0) <= 0:
        shift = SHIFT.get(name, 0.0)
        errors.append(
            _(
                "The low end must be more than −%(shift)s: a range is read as a lognormal, "
                "which never reaches it. Use a number just above it instead.",
                shift=number(shift, "plain"),
            )
            if shift
            else _(
                "The low end must be more than 0: a range is read as a lognormal, which never "
                "reaches it. Use a small positive number instead."
            )
        )
    return errors


def _value_at(inp: EstimateInput, path: str) -> Quantity | None:
    node: object = inp
    for part in path.split("."):
        if not is_dataclass(node) or part not in {field.name for field in fields(node)}:
            raise KeyError(path)
        node = getattr(node, part)
    if path.rpartition(".")[2] not in RULES or is_dataclass(node) or isinstance(node, str):
        raise KeyError(path)
    return node


def _read_by_method(inp: EstimateInput, path: str) -> bool:
    """Whether the method of the path's section reads the number there (an API method reads
    only its own numbers; no other method reads those)."""
    section, _, name = path.partition(".")
    method = getattr(getattr(inp, section, None), "method", None)
    if method in METHOD_NUMBERS:
        return name in METHOD_NUMBERS[method]
    return name not in API_ONLY_NUMBERS


def check_ranges(inp: EstimateInput, ranges: dict[str, Range]) -> None:
    """Raise EstimateInputError, keyed by input path, for every range the inputs cannot take."""
    errors: dict[str, list[Message]] = {}
    for path, interval in ranges.items():
        try:
            value = _value_at(inp, path)
        except KeyError:
            errors[path] = [_("Unknown input: no number of the estimate has this path.")]
            continue
        if value is None or not _read_by_method(inp, path):
            errors[path] = [
                _(
                    "This input is not part of the estimate: its section, method or pricing "
                    "mode does not use it."
                )
            ]
            continue
        messages = range_errors(path.rpartition(".")[2], interval.low, interval.high)
        if messages:
            errors[path] = messages
    if errors:
        raise EstimateInputError(errors)


def _drivers(inp: EstimateInput, ranges: dict[str, Range]) -> list[tuple[str, ...]]:
    """Groups of ranged paths that are one quantity, each group sampled once."""
    groups: dict[str, tuple[str, ...]] = {path: (path,) for path in ranges}
    if inp.training is None or inp.inference is None:
        return sorted(groups.values())
    training, inference = inp.training.pricing, inp.inference.pricing
    for name in SHARED_PRICING:
        paths = (f"training.pricing.{name}", f"inference.pricing.{name}")
        ranged = [ranges[path] for path in paths if path in ranges]
        same_value = training.mode == inference.mode and getattr(training, name) == getattr(
            inference, name
        )
        # One range on either, or the same range on both: one price. Different ranges on the
        # two are two quantities, as the person said.
        if ranged and same_value and all(r == ranged[0] for r in ranged):
            for path in paths:
                groups.pop(path, None)
            groups[paths[0]] = paths
    return sorted(groups.values())


def _stream(seed: int, key: str) -> np.random.Generator:
    # The path as a whole number: a stable key (str hashes change between processes).
    spawn_key = (int.from_bytes(key.encode(), "little"),)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=spawn_key)))


def _draw(name: str, interval: Range, samples: int, seed: int, key: str) -> tuple[Quantity, float]:
    """Samples of one input (a float when fixed), and the share of them clipped to its bounds."""
    if interval.low == interval.high:
        return float(interval.low), 0.0
    shift = SHIFT.get(name, 0.0)
    log_low, log_high = math.log(interval.low + shift), math.log(interval.high + shift)
    mu, sigma = (log_low + log_high) / 2, (log_high - log_low) / (2 * Z_95)
    # In place: exp(μ + σ · z) without a temporary array per step.
    values = _stream(seed, key).standard_normal(samples)
    values *= sigma
    values += mu
    np.exp(values, out=values)
    if shift:
        values -= shift
    rule = RULES[name]
    floor = np.nextafter(rule.low, math.inf) if rule.low_open else rule.low
    outside = 0
    if values.min() < floor or values.max() > rule.high:  # two reductions; counted if needed
        outside = np.count_nonzero((values < floor) | (values > rule.high))
        np.clip(values, floor, rule.high, out=values)
    return values, outside / samples


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
        return to_money(value) if path in MONEY_FIGURES else value

    return FigureRange(out(p5), out(p50), out(p95), out(mean), probability_never)


def _cached_within_input(sampled: EstimateInput, clipped: dict[str, float]) -> EstimateInput:
    """Cached input tokens are part of a request's input tokens: where a sample of either's
    range has more cached tokens than input tokens, its cached tokens are set to the input
    tokens, and the share of samples so set is reported as clipped for the cached tokens
    (counting once a sample also clipped to the field's bounds). Fixed values are the
    inputs' own check."""
    inference = sampled.inference
    if inference is None or inference.method != EXTERNAL_API or inference.input_tokens is None:
        return sampled
    cached, tokens = inference.cached_input_tokens, inference.input_tokens
    if np.ndim(cached) == 0 and np.ndim(tokens) == 0:
        return sampled
    over = np.greater(cached, tokens)
    if not over.any():
        return sampled
    if CACHED in clipped:  # samples clipped to the bounds sit on them
        rule = RULES["cached_input_tokens"]
        over |= np.less_equal(cached, rule.low) | np.greater_equal(cached, rule.high)
    clipped[CACHED] = float(np.count_nonzero(over) / over.size)
    return with_value(sampled, tuple(CACHED.split(".")), np.minimum(cached, tokens))


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


@dataclass(frozen=True)
class DrawnInputs:
    """The inputs with an array of samples at each ranged path (see `draw_inputs`)."""

    inputs: EstimateInput
    clipped: dict[str, float]  # by input path: the share of its samples clipped
    shared: tuple[tuple[str, ...], ...]  # input paths sampled as one driver


def draw_inputs(
    inp: EstimateInput, ranges: dict[str, Range], samples: int, seed: int
) -> DrawnInputs:
    """The inputs with `samples` draws at each of `ranges`' paths, each driver from its own
    stream (common random numbers: the same seed and path give the same draws, whatever else is
    ranged). Raises ValueError on a bad sample count or seed, EstimateInputError keyed by input
    path for a range the inputs cannot take. `sample` and the budget's ranges both draw here."""
    if type(samples) is not int or samples < MIN_SAMPLES:
        raise ValueError(f"samples must be a whole number of at least {MIN_SAMPLES}.")
    if type(seed) is not int or seed < 0:
        raise ValueError("seed must be a whole number of at least 0.")
    check_ranges(inp, ranges)
    drivers = _drivers(inp, ranges)
    clipped = {}
    sampled = inp
    for paths in drivers:
        interval = next(ranges[path] for path in paths if path in ranges)
        values, share = _draw(paths[0].rpartition(".")[2], interval, samples, seed, paths[0])
        for path in paths:
            sampled = with_value(sampled, tuple(path.split(".")), values)
            if share:
                clipped[path] = float(share)
    sampled = _cached_within_input(sampled, clipped)
    return DrawnInputs(
        inputs=sampled,
        clipped=clipped,
        shared=tuple(paths for paths in drivers if len(paths) > 1),
    )


def sample(
    inp: EstimateInput,
    ranges: dict[str, Range],
    samples: int = 100_000,
    seed: int = 0,
    *,
    fan: bool = False,
) -> UncertaintyResult:
    """Percentiles of every figure when the inputs at `ranges`' paths ("training.mfu",
    "training.pricing.price_per_accelerator_hour", "energy.pue") are 90 % intervals.

    Raises EstimateInputError keyed by input path for a range the inputs cannot take, and as
    `evaluate` does for the inputs themselves. With `fan`, the result also holds the
    cumulative inference cost's percentiles month by month.
    """
    drawn = draw_inputs(inp, ranges, samples, seed)
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
