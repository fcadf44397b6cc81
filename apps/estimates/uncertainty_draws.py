"""Ranges on inputs, drawn: each a 90 % interval, checked, then sampled into arrays of inputs.

A range (low, high) is a 90 % interval: the input's 5th and 95th percentiles. Positive quantities
are lognormal, μ = (ln low + ln high) / 2 and σ = (ln high − ln low) / (2 · 1.645), as
Guesstimate, Squiggle and Epoch AI read "a to b". Monthly growth g may be 0 or negative (down to
just above −1), so its growth factor 1 + g is the lognormal one (a lognormal shifted by −1): it
never reaches g = −1, and a narrow range is close to a normal one. low = high fixes the input.
Samples outside the field's valid range (MFU above 1) are clipped to it, and the share of
clipped samples is reported per input.

Each driver draws from its own stream, PCG64 seeded by the seed and the driver's path, so two
scenarios with the same seed and the same ranged input use the same draws for it (common random
numbers), whatever else carries a range. The price of an accelerator-hour (and an owned one's
purchase price and lifetime) is one driver when training and inference have the same value.

The figures' percentiles are worked out from these draws in apps.estimates.uncertainty.
"""

import math
from dataclasses import dataclass, fields, is_dataclass

import numpy as np

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

Z_95 = 1.6448536269514722  # the standard normal's 95th percentile
MIN_SAMPLES = 2
# Inputs whose (x + shift) is lognormal; every other one is lognormal itself.
SHIFT = {"monthly_growth": 1.0}
# Pricing figures that are one market quantity when training and inference have the same value.
SHARED_PRICING = ("price_per_accelerator_hour", "purchase_price", "lifetime_years")

CACHED = "inference.cached_input_tokens"
# Every price of the inputs (money per unit): what an exchange rate converts
# (apps.estimates.currency), and what a sampled rate moves in every sample.
PRICE_PATHS = (
    "training.pricing.price_per_accelerator_hour",
    "training.pricing.purchase_price",
    "training.price_per_million_training_tokens",
    "inference.pricing.price_per_accelerator_hour",
    "inference.pricing.purchase_price",
    "inference.revenue_per_request",
    "inference.price_per_million_input_tokens",
    "inference.price_per_million_cached_input_tokens",
    "inference.price_per_million_output_tokens",
    "energy.electricity_price_per_kwh",
)
PRICE_FIELDS = frozenset(path.rpartition(".")[2] for path in PRICE_PATHS)
# The stream of an exchange rate's draws: one driver of every price.
RATE_KEY = "exchange.rate"
METHOD_NUMBERS = {EXTERNAL_API: EXTERNAL_API_NUMBERS, API_FINE_TUNE: API_FINE_TUNE_NUMBERS}


@dataclass(frozen=True)
class Range:
    """A 90 % interval of one input: its 5th and 95th percentiles (equal: a fixed value)."""

    low: float
    high: float


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


def _cached_within_input(sampled: EstimateInput, clipped: dict[str, float]) -> EstimateInput:
    """Cached input tokens are part of a request's input tokens: where a sample of either's
    range has more cached tokens than input tokens, its cached tokens are set to the input
    tokens, and the share of samples so set is reported as clipped for the cached tokens
    (counting once a sample also clipped to the field's bounds). Fixed values are the
    inputs' own check."""
    inference = sampled.inference
    if inference is None or inference.input_tokens is None:
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


@dataclass(frozen=True)
class DrawnInputs:
    """The inputs with an array of samples at each ranged path (see `draw_inputs`)."""

    inputs: EstimateInput
    clipped: dict[str, float]  # by input path: the share of its samples clipped
    shared: tuple[tuple[str, ...], ...]  # input paths sampled as one driver


def _rate_factors(rate: Range, samples: int, seed: int) -> np.ndarray:
    """Draws of the factor an exchange rate moves every price by: the rate's lognormal draws
    between `rate.low` and `rate.high` (a 90 % interval of the factor) from their own stream."""
    log_low, log_high = math.log(rate.low), math.log(rate.high)
    mu, sigma = (log_low + log_high) / 2, (log_high - log_low) / (2 * Z_95)
    values = _stream(seed, RATE_KEY).standard_normal(samples)
    return np.exp(mu + sigma * values)


def _at_rate(sampled: EstimateInput, factors: np.ndarray) -> EstimateInput:
    """Every price of the inputs (sampled or fixed) times its sample's factor."""
    for path in PRICE_PATHS:
        value: object = sampled
        for part in path.split("."):
            value = getattr(value, part, None)
        if value is not None:
            moved = np.asarray(value, dtype=np.float64) * factors
            sampled = with_value(sampled, tuple(path.split(".")), moved)
    return sampled


def draw_inputs(
    inp: EstimateInput,
    ranges: dict[str, Range],
    samples: int,
    seed: int,
    *,
    rate: Range | None = None,
) -> DrawnInputs:
    """The inputs with `samples` draws at each of `ranges`' paths, each driver from its own
    stream (common random numbers: the same seed and path give the same draws, whatever else is
    ranged). Raises ValueError on a bad sample count or seed, EstimateInputError keyed by input
    path for a range the inputs cannot take. `sample` and the budget's ranges both draw here.

    `rate`: a 90 % interval of the factor every price is multiplied by (an exchange rate's
    range over its central rate, which the prices are converted at already): one driver,
    drawn once, so that a currency swing moves every price of a sample together."""
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
    if rate is not None and rate.low != rate.high:
        sampled = _at_rate(sampled, _rate_factors(rate, samples, seed))
    return DrawnInputs(
        inputs=sampled,
        clipped=clipped,
        shared=tuple(paths for paths in drivers if len(paths) > 1),
    )
