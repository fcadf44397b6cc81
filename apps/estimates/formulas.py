"""Every formula of the estimate engine, written once for a float and a NumPy array alike.

The few formulas that choose between two expressions (np.where) also take a plain branch when
every argument is a scalar: the same operations on the same values, so the same bits, without
the cost of building arrays and switching NumPy's error state for one scenario.
"""

import math

import numpy as np
from numpy.typing import NDArray

from apps.estimates.units import (
    FLOP_PER_PETAFLOP_S_DAY,
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    SECONDS_PER_HOUR,
    SECONDS_PER_MONTH,
    WATTS_PER_KILOWATT,
)

type Quantity = float | NDArray[np.float64]
type Flag = bool | NDArray[np.bool_]


def _unwrap(values: NDArray) -> Quantity:
    # np.where always returns an array; give scalar callers a (NumPy) float back.
    return values[()]


def _scalars(*values: Quantity) -> bool:
    return not any(isinstance(value, np.ndarray) for value in values)


# Training


def training_flop(
    parameters: Quantity, tokens: Quantity, flop_per_parameter_token: Quantity, runs: Quantity
) -> Quantity:
    """Training compute C = k · N · D · runs, in FLOP.

    N: parameters active per token; D: training tokens; k: FLOP per parameter per token (6 for a
    forward and backward pass); runs: full runs, failed and experimental ones included.
    Excludes evaluation, data preparation and serving.
    """
    return flop_per_parameter_token * parameters * tokens * runs


def accelerator_hours_from_flop(
    flop: Quantity, peak_flops_per_second: Quantity, mfu: Quantity, goodput: Quantity
) -> Quantity:
    """Accelerator-hours = C / (peak FLOP/s · MFU · goodput) / 3600.

    Peak is the dense figure at the chosen precision. MFU is the share of peak the model's FLOP
    achieve; goodput the share of time that moves training forward (failures, restarts and
    checkpoint reloads are the rest).
    """
    return flop / (peak_flops_per_second * mfu * goodput) / SECONDS_PER_HOUR


def flop_from_accelerator_hours(
    accelerator_hours: Quantity, peak_flops_per_second: Quantity, mfu: Quantity, goodput: Quantity
) -> Quantity:
    """FLOP done in the given accelerator-hours: the inverse of `accelerator_hours_from_flop`."""
    return accelerator_hours * SECONDS_PER_HOUR * (peak_flops_per_second * mfu * goodput)


def wall_clock_hours(accelerator_hours: Quantity, accelerator_count: Quantity) -> Quantity:
    """Elapsed hours when the accelerators work in parallel (8 accelerators × 1 hour = 8 a-h)."""
    return accelerator_hours / accelerator_count


def petaflop_s_days(flop: Quantity) -> Quantity:
    """Compute in petaflop/s-days: one petaFLOP per second sustained for a day = 8.64e19 FLOP."""
    return flop / FLOP_PER_PETAFLOP_S_DAY


def exceeds(flop: Quantity, threshold_flop: Quantity) -> Flag:
    """True where C is strictly greater than the threshold (EU AI Act Art. 51(2) "greater than")."""
    return flop > threshold_flop


# Money and energy, shared by training and inference


def owned_cost_per_accelerator_hour(
    purchase_price: Quantity,
    lifetime_years: Quantity,
    utilization_of_owned: Quantity,
    power_watts: Quantity | None,
    pue: Quantity,
    electricity_price_per_kwh: Quantity | None,
) -> Quantity:
    """Cost of one busy hour of an owned accelerator, in currency per accelerator-hour.

    = purchase / (lifetime years · 8766 h · utilisation) + power kW · PUE · electricity price.
    Includes straight-line write-off over the busy hours of its life and electricity while busy.
    Excludes financing, staff, networking, buildings and resale value. The power part is 0 when
    power or electricity price is unknown (None).
    """
    write_off = purchase_price / (lifetime_years * HOURS_PER_YEAR * utilization_of_owned)
    if power_watts is None or electricity_price_per_kwh is None:
        return write_off
    return write_off + power_watts / WATTS_PER_KILOWATT * pue * electricity_price_per_kwh


def cost(accelerator_hours: Quantity, price_per_accelerator_hour: Quantity) -> Quantity:
    """Cost = accelerator-hours · price per accelerator-hour, in the price's currency."""
    return accelerator_hours * price_per_accelerator_hour


def energy_kwh(accelerator_hours: Quantity, power_watts: Quantity, pue: Quantity) -> Quantity:
    """Facility energy = accelerator-hours · power kW · PUE, in kWh.

    Power is the accelerator's rated draw; PUE adds cooling and other facility overhead.
    Excludes host CPUs, networking and storage unless they are in the rated power.
    """
    return accelerator_hours * power_watts / WATTS_PER_KILOWATT * pue


def emissions_kg_co2e(energy: Quantity, kg_co2e_per_kwh: Quantity) -> Quantity:
    """Operational emissions = energy kWh · grid intensity, in kg CO2e (excludes manufacturing)."""
    return energy * kg_co2e_per_kwh


# Inference, per request


def prefilled_tokens(input_tokens: Quantity, cached_input_tokens: Quantity) -> Quantity:
    """Input tokens a request computes = input − cached input: a prefix served from a cache
    (a shared system prompt, an agent's context) skips the prefill compute."""
    return input_tokens - cached_input_tokens


def decoded_tokens(output_tokens: Quantity, reasoning_tokens: Quantity) -> Quantity:
    """Tokens a request generates one by one = visible output + hidden reasoning tokens."""
    return output_tokens + reasoning_tokens


def inference_flop_per_request(
    parameters: Quantity, input_tokens: Quantity, output_tokens: Quantity
) -> Quantity:
    """FLOP of one request ≈ 2 · N_active · (input + output tokens) (forward pass only).

    Give the tokens computed: `prefilled_tokens` as input, `decoded_tokens` as output.
    """
    return 2.0 * parameters * (input_tokens + output_tokens)


def accelerator_seconds_from_flop(
    flop: Quantity, peak_flops_per_second: Quantity, utilization: Quantity
) -> Quantity:
    """Accelerator-seconds = FLOP / (peak FLOP/s · share of peak achieved while serving)."""
    return flop / (peak_flops_per_second * utilization)


def roofline_latency_seconds(
    parameters: Quantity,
    input_tokens: Quantity,
    output_tokens: Quantity,
    peak_flops_per_second: Quantity,
    utilization: Quantity,
    bytes_per_parameter: Quantity,
    memory_bandwidth_bytes_per_second: Quantity,
) -> Quantity:
    """Latency of one request at batch 1, in seconds: a roofline estimate.

    = prefill 2 · N · input / (peak · utilisation)  (compute-bound)
      + output tokens · N · bytes per parameter / bandwidth  (decode reads every weight once per
      token, memory-bound). Excludes queueing, network, KV-cache reads and batching effects.
    """
    prefill = accelerator_seconds_from_flop(
        2.0 * parameters * input_tokens, peak_flops_per_second, utilization
    )
    seconds_per_output_token = parameters * bytes_per_parameter / memory_bandwidth_bytes_per_second
    return prefill + output_tokens * seconds_per_output_token


def cost_per_request(
    accelerator_seconds_per_request: Quantity, price_per_accelerator_hour: Quantity
) -> Quantity:
    """Pay-per-use cost of one request = accelerator-seconds / 3600 · price per accelerator-hour."""
    return accelerator_seconds_per_request / SECONDS_PER_HOUR * price_per_accelerator_hour


def gross_margin(revenue_per_request: Quantity, cost_of_request: Quantity) -> Quantity:
    """(revenue − cost) / revenue per request, a share (NaN where revenue is 0)."""
    if _scalars(revenue_per_request, cost_of_request):
        revenue = float(revenue_per_request)
        return (revenue - float(cost_of_request)) / revenue if revenue > 0 else np.nan
    has_revenue = np.greater(revenue_per_request, 0)
    safe_revenue = np.where(has_revenue, revenue_per_request, 1.0)
    return _unwrap(np.where(has_revenue, (safe_revenue - cost_of_request) / safe_revenue, np.nan))


# Inference, demand over time


def growth_sum_factor(monthly_growth: Quantity, months: Quantity) -> Quantity:
    """Σ (1+g)^k for k = 0 … t−1 = ((1+g)^t − 1) / g, and t when g = 0. Dimensionless.

    Continuous in t, and equal to the discrete sum at whole months. expm1/log1p keep it accurate
    for tiny g; the safe divisor keeps g = 0 free of division warnings on arrays.
    """
    if not isinstance(monthly_growth, np.ndarray):
        # One growth rate, over one horizon or an array of them (a scenario's months): the
        # formula is chosen once instead of point by point.
        if monthly_growth == 0:
            return months if _scalars(months) else months.astype(np.float64, copy=False)
        return np.expm1(months * np.log1p(monthly_growth)) / monthly_growth
    no_growth = np.equal(monthly_growth, 0)
    safe_growth = np.where(no_growth, 1.0, monthly_growth)
    compounded = np.expm1(months * np.log1p(monthly_growth)) / safe_growth
    return _unwrap(np.where(no_growth, months, compounded))


def requests_in_month(
    requests_per_month: Quantity, monthly_growth: Quantity, month: Quantity
) -> Quantity:
    """Requests in month m (1-based) = R · (1+g)^(m−1), R being the first month's requests."""
    return requests_per_month * np.exp((month - 1) * np.log1p(monthly_growth))


def total_requests(
    requests_per_month: Quantity, monthly_growth: Quantity, months: Quantity
) -> Quantity:
    """Requests over the first M months = R · ((1+g)^M − 1) / g (R · M when g = 0)."""
    return requests_per_month * growth_sum_factor(monthly_growth, months)


def monthly_accelerator_hours(
    requests: Quantity, accelerator_seconds_per_request: Quantity
) -> Quantity:
    """Accelerator-hours of a number of requests = requests · accelerator-seconds / 3600."""
    return requests * accelerator_seconds_per_request / SECONDS_PER_HOUR


def peak_month(monthly_growth: Quantity, months: Quantity) -> Quantity:
    """The busiest month: the last one when demand grows or holds, the first when it shrinks."""
    if _scalars(monthly_growth, months):
        return months if monthly_growth >= 0 else 1.0
    return _unwrap(np.where(np.greater_equal(monthly_growth, 0), months, 1.0))


def peak_arrival_rate_per_second(
    requests_in_month: Quantity, peak_to_average: Quantity
) -> Quantity:
    """Arrival rate in the busiest hour, requests/s = month's requests / seconds · peak/average."""
    return requests_in_month / SECONDS_PER_MONTH * peak_to_average


def accelerators_needed(
    arrival_rate_per_second: Quantity,
    accelerator_seconds_per_request: Quantity,
    target_utilization: Quantity,
) -> Quantity:
    """Accelerators to provision = ceil(λ · s / target utilisation); 0 when nothing arrives.

    Little's law: busy accelerators on average = arrival rate × accelerator-seconds per request;
    the target utilisation leaves headroom for bursts within the peak hour.
    """
    return np.ceil(arrival_rate_per_second * accelerator_seconds_per_request / target_utilization)


def peak_concurrent_requests(
    arrival_rate_per_second: Quantity, latency_seconds: Quantity
) -> Quantity:
    """Requests in flight at the peak = λ · latency (Little's law L = λ · W)."""
    return arrival_rate_per_second * latency_seconds


def always_on_accelerator_hours(accelerators: Quantity, months: Quantity) -> Quantity:
    """Provisioned accelerator-hours = accelerators · 730.5 h · months, busy or idle."""
    return accelerators * HOURS_PER_MONTH * months


# Comparison


def break_even_months(
    training_total: Quantity, first_month_inference: Quantity, monthly_growth: Quantity
) -> Quantity:
    """Months t after which cumulative inference equals the one-off training total T.

    Cumulative inference S(t) = h · ((1+g)^t − 1) / g (h · t when g = 0), h = the first month's
    quantity, so t = log1p(T · g / h) / log1p(g), or T / h when g = 0. Fractional, in months.
    NaN means never: no inference (h = 0), shrinking demand whose total stays below T
    (1 + T · g / h ≤ 0), or an answer beyond any number a float can hold.
    """
    if (
        _scalars(training_total, first_month_inference, monthly_growth)
        and first_month_inference > 0
        and monthly_growth > -1
    ):
        return _break_even_months_of_one(training_total, first_month_inference, monthly_growth)
    # Both np.where branches are evaluated on every element, so the branches that are not taken
    # may divide by zero or overflow; the mask below discards them.
    # A branch no element takes is not computed (Monte Carlo calls this on 10^5–10^6 samples).
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.divide(training_total, first_month_inference)
        no_growth = np.equal(monthly_growth, 0)
        any_no_growth = bool(np.any(no_growth))
        safe_log_growth = np.log1p(monthly_growth)
        if any_no_growth:
            safe_log_growth = np.where(no_growth, 1.0, safe_log_growth)
        growth_ratio = ratio * monthly_growth
        months = np.asarray(np.log1p(growth_ratio))
        months = np.divide(months, safe_log_growth, out=months if months.ndim else None)
        # Below 1e-200, log1p(x) is exactly x; ratio · (g / log1p g) then gives the same answer
        # without ratio · g underflowing to a few subnormal bits (or to 0) first.
        tiny_growth = np.abs(growth_ratio) < 1e-200
        if np.any(tiny_growth):
            tiny = ratio * (monthly_growth / safe_log_growth)
            months = np.where(tiny_growth, tiny, months)
        if any_no_growth:
            months = np.where(no_growth, ratio, months)
        never = ~np.isfinite(months) | np.less_equal(first_month_inference, 0)
    return _unwrap(np.where(never, np.nan, months) if np.any(never) else np.asarray(months))


def _break_even_months_of_one(
    training_total: Quantity, first_month_inference: Quantity, monthly_growth: Quantity
) -> float:
    # The array version's branches, taken one at a time (here h > 0 and g > −1). On Python floats,
    # an overflow gives ±inf quietly, as np.errstate makes it there.
    ratio = float(training_total) / float(first_month_inference)
    if monthly_growth == 0:
        months = ratio
    else:
        growth = float(monthly_growth)
        log_growth = float(np.log1p(growth))
        growth_ratio = ratio * growth
        if abs(growth_ratio) < 1e-200:
            months = ratio * (growth / log_growth)
        elif growth_ratio <= -1:
            return np.nan  # log1p would be −inf or NaN: the demand never adds up to T
        else:
            months = float(np.log1p(growth_ratio)) / log_growth
    return months if math.isfinite(months) else np.nan


def training_share(training_total: Quantity, inference_total: Quantity) -> Quantity:
    """Training's share of training + inference over the horizon, T / (T + I); NaN when both 0."""
    if _scalars(training_total, inference_total):
        combined = float(training_total) + float(inference_total)
        return float(training_total) / combined if combined > 0 else np.nan
    combined = np.add(training_total, inference_total)
    has_total = np.greater(combined, 0)
    safe_combined = np.where(has_total, combined, 1.0)
    return _unwrap(np.where(has_total, training_total / safe_combined, np.nan))
