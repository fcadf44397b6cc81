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

from apps.estimates import formulas as f
from apps.estimates.engine import evaluate_with_sections, inference_cost_to_date
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EstimateInput, EstimateInputError, with_value
from apps.estimates.limits import RULES
from apps.estimates.money import to_money

Z_95 = 1.6448536269514722  # the standard normal's 95th percentile
PERCENTILES = (0.05, 0.5, 0.95)
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
class FanMonth:
    """Percentiles of the cumulative inference cost after `month` months, over the samples."""

    month: int
    p5: Decimal
    p50: Decimal
    p95: Decimal


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


def range_errors(name: str, low: float, high: float) -> list[str]:
    """Why (low, high) cannot be a range of the input called `name` (a limits.RULES key)."""
    rule = RULES[name]
    if rule.whole:
        return [f"{rule.label} is a whole number you choose; it cannot carry a range."]
    if not (math.isfinite(low) and math.isfinite(high)):
        return ["The low and high ends must be finite numbers."]
    errors = []
    if low > high:
        errors.append("The low end is above the high end.")
    if not (rule.accepts_number(low) and rule.accepts_number(high)):
        errors.append(f"Both ends must be valid: {rule.message}")
    elif low + SHIFT.get(name, 0.0) <= 0:
        shift = SHIFT.get(name, 0.0)
        floor, instead = (
            (f"−{shift:g}", "a number just above it") if shift else ("0", "a small positive number")
        )
        errors.append(
            f"The low end must be more than {floor}: a range is read as a lognormal, which never "
            f"reaches it. Use {instead} instead."
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


def check_ranges(inp: EstimateInput, ranges: dict[str, Range]) -> None:
    """Raise EstimateInputError, keyed by input path, for every range the inputs cannot take."""
    errors: dict[str, list[str]] = {}
    for path, interval in ranges.items():
        try:
            value = _value_at(inp, path)
        except KeyError:
            errors[path] = ["Unknown input: no number of the estimate has this path."]
            continue
        if value is None:
            errors[path] = [
                "This input is not part of the estimate: its section, method or pricing mode "
                "does not use it."
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


def _linear_quantiles(values: np.ndarray) -> list[float]:
    """np.quantile(values, PERCENTILES), the same numbers, about ten times faster.

    NumPy partitions once around all six order statistics the three percentiles need (each
    one's floor and ceiling), which is far slower than three single partitions: one at the
    median's floor, then each half at the 5th's and 95th's. The ceiling next to each floor is
    the smallest value after it up to the next floor (or the end). The interpolation is NumPy's
    own (`_lerp`: from the nearer end), so the figures do not change. NaN sorts last, as there.
    """
    # Partitioned in place: a figure's own samples are reordered (no copy of 10^6 numbers),
    # which changes none of its statistics; read-only (shared) arrays are copied first.
    own = values.flags.writeable and values.dtype == np.float64 and values.ndim == 1
    work = values if own else np.array(values, dtype=np.float64, copy=True)
    last = len(work) - 1
    virtual = [last * p for p in PERCENTILES]
    floors = [min(math.floor(v), last) for v in virtual]
    low, middle, high = floors
    work.partition(middle)
    if low < middle:
        work[:middle].partition(low)
    if high > middle:
        work[middle + 1 :].partition(high - middle - 1)
    result = []
    for v, k in zip(virtual, floors, strict=True):
        a = float(work[k])
        end = next((floor for floor in floors if floor > k), None)  # the next partition point
        after = work[k + 1 : None if end is None else end + 1]
        b = float(after.min()) if len(after) else a
        t = v - k
        if np.isnan(a) or np.isnan(b):
            result.append(math.nan)
            continue
        difference = b - a
        result.append(b - difference * (1 - t) if t >= 0.5 else a + difference * t)
    return result


def _quantiles(values: np.ndarray, infinite: int = 0) -> list[float]:
    """PERCENTILES of the values, interpolated linearly (NumPy's default method), when the
    `infinite` largest of them stand for +inf: a percentile that reaches into them is +inf."""
    if values.strides == (0,):
        return [float(values[0])] * len(PERCENTILES)  # a figure no range moves
    result = _linear_quantiles(values)
    # Sorted, the infinite ones take the last places; a percentile between the last finite
    # value and the first infinite one is +inf too (as a + (inf − a) · t would be).
    first_infinite = len(values) - infinite
    for index, p in enumerate(PERCENTILES):
        if infinite and p * (len(values) - 1) > first_infinite - 1:
            result[index] = math.inf
    return result


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
        # Before the percentiles, which reorder the samples. NaN: not computable (no power,
        # no FLOP, or a section missing); any NaN sample makes the mean NaN.
        mean = float(np.mean(values))
        if math.isnan(mean):
            return None
    p5, p50, p95 = _quantiles(values, never)

    def out(value: float) -> float | Decimal | None:
        if math.isinf(value):
            return None
        return to_money(value) if path in MONEY_FIGURES else value

    return FigureRange(out(p5), out(p50), out(p95), out(mean), probability_never)


MAX_FAN_POINTS = 61  # months shown on the fan: every month up to 60, else evenly spaced


def fan_months(horizon: int) -> list[int]:
    """The months of the fan: 0 … horizon, every month when there are few, else evenly spaced
    whole months with the horizon itself."""
    if horizon + 1 <= MAX_FAN_POINTS:
        return list(range(horizon + 1))
    step = math.ceil(horizon / (MAX_FAN_POINTS - 1))
    return [*range(0, horizon, step), horizon]


def _cost_fan(inference, samples: int) -> tuple[FanMonth, ...]:
    """Percentiles, month by month, of each sample's own cumulative inference cost curve.

    Every sample's curve is its final cost times a factor of the month: requests to date
    (or provisioned hours to date) over those of the whole horizon. When that factor is the
    same for every sample (demand growth carries no range, or the accelerators are always on),
    the month's percentiles are the final cost's times the factor, exactly (a quantile of c · x
    is c times x's, for c ≥ 0): one pass. Otherwise each month's samples are computed and their
    own percentiles taken, one vectorised pass per month.
    """
    if inference is None:
        return ()
    horizon = int(inference.months)
    months = fan_months(horizon)
    final = np.broadcast_to(
        np.asarray(inference_cost_to_date(inference, float(horizon)), dtype=np.float64),
        (samples,),
    )
    if np.isnan(final).any():
        return ()
    growth = inference.monthly_growth
    if inference.always_on or np.ndim(growth) == 0:
        final_quantiles = np.asarray(_quantiles(final))
        if inference.always_on:
            factors = [month / horizon for month in months]
        else:
            whole = float(f.growth_sum_factor(float(growth), float(horizon)))
            factors = [float(f.growth_sum_factor(float(growth), float(m))) / whole for m in months]
        rows = [
            (month, final_quantiles * factor) for month, factor in zip(months, factors, strict=True)
        ]
    else:
        rows = []
        for month in months:
            values = np.broadcast_to(inference_cost_to_date(inference, float(month)), (samples,))
            rows.append((month, np.asarray(_quantiles(values))))
    return tuple(
        FanMonth(month, *(to_money(float(value)) for value in quantiles))
        for month, quantiles in rows
    )


def _figure_samples(
    inp: EstimateInput, samples: int, fan: bool = False
) -> tuple[dict[str, np.ndarray], tuple[FanMonth, ...]]:
    evaluated, inference = evaluate_with_sections(inp)
    columns = {
        path: np.broadcast_to(np.asarray(getattr(evaluated, name), dtype=np.float64), (samples,))
        for name, path in FIGURE_PATHS.items()
    }
    columns["inference.per_request.cost_per_1000"] = 1000 * columns["inference.per_request.cost"]
    months = _cost_fan(inference, samples) if fan else ()
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
