"""Figures of each section (training, inference, comparison) for floats and arrays alike."""

import math
from dataclasses import dataclass

import numpy as np

from apps.estimates import external_api as api
from apps.estimates import formulas as f
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
)
from apps.estimates.serving import (
    ServingFigures,
    kv_cache_bytes_per_token_latent,
    sliding_window_share,
)
from apps.estimates.serving import kv_cache_bytes_per_token as kv_bytes_per_token
from apps.estimates.serving_plan import ServingModel, plan

NAN = float("nan")


def number(value: object) -> Quantity:
    # All arithmetic runs on float64: Python ints (exact, unbounded products), Decimals and
    # integer arrays would otherwise make the scalar path compute differently from the arrays.
    if isinstance(value, np.ndarray):
        return value.astype(np.float64, copy=False)
    return float(value)


def optional(value: object) -> Quantity | None:
    return None if value is None else number(value)


def _missing(values: tuple) -> bool:
    # Not `None in values`: that compares arrays with == and asks for their truth value.
    return any(value is None for value in values)


# Figures of each section, as floats or arrays; NaN where a figure cannot be computed.


@dataclass(frozen=True)
class TrainingFigures:
    flop: Quantity
    accelerator_hours: Quantity
    wall_clock_hours: Quantity
    price_per_accelerator_hour: Quantity
    cost: Quantity
    energy_kwh: Quantity
    emissions_kg_co2e: Quantity


@dataclass(frozen=True)
class InferenceFigures:
    flop_per_request: Quantity
    accelerator_seconds: Quantity
    latency_seconds: Quantity
    latency_method: str
    requests_per_month: Quantity
    monthly_growth: Quantity
    months: Quantity
    always_on: bool
    price_per_accelerator_hour: Quantity  # per busy hour
    provisioned_price_per_accelerator_hour: Quantity  # per provisioned hour, busy or idle
    power_watts: Quantity | None
    pue: Quantity
    total_requests: Quantity
    accelerator_hours: Quantity
    pay_per_use_cost: Quantity
    always_on_cost: Quantity
    cost: Quantity
    energy_kwh: Quantity
    emissions_kg_co2e: Quantity
    peak_requests_per_second: Quantity
    peak_accelerators: Quantity
    peak_concurrent_requests: Quantity
    cost_per_request: Quantity
    serving: ServingFigures | None = None  # a language model's serving plan, when known
    # An external API: billed per request, no accelerators, so accelerator figures are NaN.
    priced_per_request: bool = False


@dataclass(frozen=True)
class ComparisonFigures:
    break_even_months: Quantity
    break_even_months_cost: Quantity
    break_even_months_energy: Quantity
    training_share: Quantity
    training_share_cost: Quantity


def _price_per_hour(
    pricing: Pricing,
    power_watts: Quantity | None,
    energy: EnergyProfile,
    busy_share: Quantity | None = None,
) -> Quantity:
    if pricing.mode == "rent":
        return number(pricing.price_per_accelerator_hour)
    return f.owned_cost_per_accelerator_hour(
        number(pricing.purchase_price),
        number(pricing.lifetime_years),
        number(pricing.utilization_of_owned) if busy_share is None else busy_share,
        power_watts,
        number(energy.pue),
        optional(energy.electricity_price_per_kwh),
    )


def _energy_and_emissions(
    accelerator_hours: Quantity, power_watts: Quantity | None, energy: EnergyProfile
) -> tuple[Quantity, Quantity]:
    if power_watts is None:
        return NAN, NAN
    kwh = f.energy_kwh(accelerator_hours, power_watts, number(energy.pue))
    intensity = optional(energy.kg_co2e_per_kwh)
    return kwh, NAN if intensity is None else f.emissions_kg_co2e(kwh, intensity)


def _training(training: TrainingInput, energy: EnergyProfile) -> TrainingFigures:
    hardware = training.hardware
    peak = None if hardware is None else number(hardware.peak_flops_per_second)
    mfu, goodput = number(training.mfu), number(training.goodput)
    if training.method == "accelerator_hours":
        hours = number(training.accelerator_hours)
        flop = NAN if peak is None else f.flop_from_accelerator_hours(hours, peak, mfu, goodput)
    else:
        if training.method == "parameters_tokens":
            flop = f.training_flop(
                number(training.parameters),
                number(training.tokens),
                number(training.flop_per_parameter_token),
                number(training.runs),
            )
        else:
            flop = number(training.total_flop)
        hours = f.accelerator_hours_from_flop(flop, peak, mfu, goodput)
    power = None if hardware is None else optional(hardware.power_watts)
    price = _price_per_hour(training.pricing, power, energy)
    kwh, kg = _energy_and_emissions(hours, power, energy)
    return TrainingFigures(
        flop=flop,
        accelerator_hours=hours,
        wall_clock_hours=f.wall_clock_hours(hours, number(training.accelerator_count)),
        price_per_accelerator_hour=price,
        cost=f.cost(hours, price),
        energy_kwh=kwh,
        emissions_kg_co2e=kg,
    )


def _api_fine_tune(training: TrainingInput) -> TrainingFigures:
    cost = api.fine_tune_cost(
        number(training.tokens),
        number(training.epochs),
        number(training.price_per_million_training_tokens),
    )
    return TrainingFigures(
        flop=NAN,
        accelerator_hours=NAN,
        wall_clock_hours=NAN,
        price_per_accelerator_hour=NAN,
        cost=cost,
        energy_kwh=NAN,
        emissions_kg_co2e=NAN,
    )


def _external_api(inference: InferenceInput, energy: EnergyProfile) -> InferenceFigures:
    per_request = api.api_cost_per_request(
        number(inference.input_tokens),
        number(inference.cached_input_tokens),
        number(inference.output_tokens),
        number(inference.price_per_million_input_tokens),
        number(api.cached_price(inference)),
        number(inference.price_per_million_output_tokens),
        number(inference.batch_discount),
    )
    first_month = number(inference.requests_per_month)
    growth, months = number(inference.monthly_growth), number(inference.months)
    requests = f.total_requests(first_month, growth, months)
    peak_requests = f.requests_in_month(first_month, growth, f.peak_month(growth, months))
    peak_rate = f.peak_arrival_rate_per_second(peak_requests, number(inference.peak_to_average))
    latency = NAN if inference.latency_seconds is None else number(inference.latency_seconds)
    cost = api.api_cost_of_requests(requests, per_request)
    return InferenceFigures(
        flop_per_request=NAN,
        accelerator_seconds=NAN,
        latency_seconds=latency,
        latency_method="given" if inference.latency_seconds is not None else "not_published",
        requests_per_month=first_month,
        monthly_growth=growth,
        months=months,
        always_on=False,
        price_per_accelerator_hour=NAN,
        provisioned_price_per_accelerator_hour=NAN,
        power_watts=None,
        pue=number(energy.pue),
        total_requests=requests,
        accelerator_hours=NAN,
        pay_per_use_cost=cost,
        always_on_cost=NAN,
        cost=cost,
        energy_kwh=NAN,
        emissions_kg_co2e=NAN,
        peak_requests_per_second=peak_rate,
        peak_accelerators=NAN,
        peak_concurrent_requests=f.peak_concurrent_requests(peak_rate, latency),
        cost_per_request=per_request,
        priced_per_request=True,
    )


def _latency(
    inference: InferenceInput, hardware: Hardware | None, accelerator_seconds: Quantity
) -> tuple[Quantity, str]:
    if inference.latency_seconds is not None:
        return number(inference.latency_seconds), "given"
    tokens = (inference.parameters, inference.input_tokens, inference.output_tokens)
    if (
        hardware is not None
        and hardware.memory_bandwidth_bytes_per_second is not None
        and not _missing(tokens)
    ):
        latency = f.roofline_latency_seconds(
            *(number(value) for value in tokens),
            number(hardware.peak_flops_per_second),
            number(inference.utilization),
            number(inference.bytes_per_parameter),
            number(hardware.memory_bandwidth_bytes_per_second),
        )
        return latency, "roofline"
    return accelerator_seconds, "accelerator_seconds"


def _kv_cache(inference: InferenceInput) -> tuple[Quantity, Quantity]:
    """KV bytes per token (given, MLA or attention heads), and the heads it splits over."""
    layers, element = optional(inference.layers), number(inference.kv_cache_bytes_per_element)
    if inference.kv_latent_width is not None:
        computed = kv_cache_bytes_per_token_latent(
            layers, number(inference.kv_latent_width), element
        )
        heads = 1.0  # one latent per token, kept whole by every tensor-parallel rank
    elif inference.kv_heads is not None:
        heads = number(inference.kv_heads)
        computed = (
            None
            if layers is None or inference.head_dim is None
            else kv_bytes_per_token(layers, heads, number(inference.head_dim), element)
        )
    else:
        computed, heads = None, math.inf
    given = optional(inference.kv_cache_bytes_per_token)
    return (computed if given is None else given), heads


def _windowed(inference: InferenceInput, kv: Quantity, tokens: Quantity) -> Quantity:
    """KV bytes per token of a sequence of `tokens` once its sliding-window layers keep only
    their window; `kv` unchanged without a window, or when the KV per token was given."""
    if (
        inference.sliding_window is None
        or inference.sliding_window_layers is None
        or inference.kv_cache_bytes_per_token is not None
        or inference.kv_latent_width is not None
        or inference.layers is None
    ):
        return kv
    return kv * sliding_window_share(
        number(inference.layers),
        number(inference.sliding_window_layers),
        number(inference.sliding_window),
        tokens,
    )


def serving_model(inference: InferenceInput) -> ServingModel:
    """The plain numbers `plan` needs, from an inference input that serves a language model."""
    hardware = inference.hardware
    kv, kv_heads = _kv_cache(inference)
    input_tokens, output_tokens = number(inference.input_tokens), number(inference.output_tokens)
    kv_full = _windowed(inference, kv, input_tokens + output_tokens)
    kv = _windowed(inference, kv, input_tokens + output_tokens / 2.0)
    active = number(inference.parameters)
    layers = NAN if inference.layers is None else number(inference.layers)
    query_heads = NAN if inference.query_heads is None else number(inference.query_heads)
    head_dim = optional(inference.head_dim)
    attention = (
        0.0
        if inference.query_heads is None or head_dim is None or inference.layers is None
        else 2.0 * layers * query_heads * head_dim
    )
    hidden = optional(inference.hidden_size)
    if hidden is None:
        hidden = 0.0 if attention == 0.0 else query_heads * head_dim
    link = optional(hardware.interconnect_bytes_per_second)
    expert_share = (
        None
        if inference.experts_total is None
        else number(inference.experts_active) / number(inference.experts_total)
    )
    return ServingModel(
        total_parameters=active
        if inference.total_parameters is None
        else number(inference.total_parameters),
        active_parameters=active,
        bytes_per_parameter=number(inference.bytes_per_parameter),
        kv_bytes_per_token=kv,
        kv_heads=kv_heads,
        query_heads=query_heads,
        layers=layers,
        hidden_size=hidden,
        attention_flop_per_token_squared=attention,
        expert_share=expert_share,
        input_tokens=number(inference.input_tokens),
        output_tokens=number(inference.output_tokens),
        memory_bytes=number(hardware.memory_bytes),
        memory_utilization=number(inference.memory_utilization),
        overhead_bytes=number(inference.overhead_bytes_per_accelerator),
        accelerators_per_node=number(hardware.accelerators_per_node),
        bandwidth=number(hardware.memory_bandwidth_bytes_per_second),
        memory_efficiency=number(inference.memory_efficiency),
        peak_flops=number(hardware.peak_flops_per_second),
        utilization=number(inference.utilization),
        # Quoted for both directions; an all-reduce ring sends one way on each link.
        link_bytes_per_second=math.inf if link is None else link / 2.0,
        accelerators_per_replica=optional(inference.accelerators_per_replica),
        ttft_target_seconds=optional(inference.ttft_target_seconds),
        tpot_target_seconds=optional(inference.tpot_target_seconds),
        kv_bytes_per_token_full=kv_full,
    )


def _where_fits(serving: ServingFigures | None, served: Quantity, otherwise: Quantity) -> Quantity:
    if serving is None:
        return otherwise
    if isinstance(serving.fits, np.ndarray):
        return np.where(serving.fits, served, otherwise)
    return served if serving.fits else otherwise


def _inference(inference: InferenceInput, energy: EnergyProfile) -> InferenceFigures:
    hardware = inference.hardware
    tokens = (inference.parameters, inference.input_tokens, inference.output_tokens)
    flop = NAN if _missing(tokens) else f.inference_flop_per_request(*map(number, tokens))
    if inference.method == "tokens":
        seconds = f.accelerator_seconds_from_flop(
            flop, number(hardware.peak_flops_per_second), number(inference.utilization)
        )
    else:
        seconds = number(inference.accelerator_seconds_per_request)
    latency, latency_method = _latency(inference, hardware, seconds)
    first_month = number(inference.requests_per_month)
    growth, months = number(inference.monthly_growth), number(inference.months)
    peak_requests = f.requests_in_month(first_month, growth, f.peak_month(growth, months))
    peak_rate = f.peak_arrival_rate_per_second(peak_requests, number(inference.peak_to_average))
    target = number(inference.target_utilization)
    accelerators = f.accelerators_needed(peak_rate, seconds, target)
    serving = None
    if inference.serves_language_model:
        serving = plan(serving_model(inference), peak_rate, target)
        # Where the model fits no replica, nothing that rests on a replica can be true: the
        # accelerators, their seconds (and so every cost and energy figure) and the wait are NaN.
        seconds = _where_fits(serving, serving.accelerator_seconds_per_request, NAN)
        accelerators = _where_fits(serving, serving.peak_accelerators, NAN)
        if latency_method != "given":
            latency = _where_fits(serving, serving.wait_seconds, NAN)
            latency_method = "serving"
    power = None if hardware is None else optional(hardware.power_watts)
    price = _price_per_hour(inference.pricing, power, energy)
    # Provisioned accelerators are paid for every calendar hour, so an owned one is written off
    # over all its hours (busy share 1), not only over the busy ones.
    provisioned_price = _price_per_hour(inference.pricing, power, energy, busy_share=1.0)
    requests = f.total_requests(first_month, growth, months)
    hours = f.monthly_accelerator_hours(requests, seconds)
    pay_per_use = f.cost(hours, price)
    always_on = f.cost(f.always_on_accelerator_hours(accelerators, months), provisioned_price)
    is_always_on = inference.provisioning == "always_on"
    kwh, kg = _energy_and_emissions(hours, power, energy)
    return InferenceFigures(
        flop_per_request=flop,
        accelerator_seconds=seconds,
        latency_seconds=latency,
        latency_method=latency_method,
        requests_per_month=first_month,
        monthly_growth=growth,
        months=months,
        always_on=is_always_on,
        price_per_accelerator_hour=price,
        provisioned_price_per_accelerator_hour=provisioned_price,
        power_watts=power,
        pue=number(energy.pue),
        total_requests=requests,
        accelerator_hours=hours,
        pay_per_use_cost=pay_per_use,
        always_on_cost=always_on,
        cost=always_on if is_always_on else pay_per_use,
        energy_kwh=kwh,
        emissions_kg_co2e=kg,
        peak_requests_per_second=peak_rate,
        peak_accelerators=accelerators,
        peak_concurrent_requests=f.peak_concurrent_requests(peak_rate, latency),
        cost_per_request=f.cost_per_request(seconds, price),
        serving=serving,
    )


def _comparison(
    training: TrainingFigures, inference: InferenceFigures, *, in_cost_and_energy: bool = True
) -> ComparisonFigures:
    growth = inference.monthly_growth
    first_hours = f.monthly_accelerator_hours(
        inference.requests_per_month, inference.accelerator_seconds
    )
    break_even_months = f.break_even_months(training.accelerator_hours, first_hours, growth)
    training_share = f.training_share(training.accelerator_hours, inference.accelerator_hours)
    if not in_cost_and_energy:
        return ComparisonFigures(break_even_months, NAN, NAN, training_share, NAN)
    if inference.priced_per_request:
        first_cost = api.api_cost_of_requests(
            inference.requests_per_month, inference.cost_per_request
        )
        cost_growth = growth
    elif inference.always_on:
        # Always-on capacity costs the same every month, whatever the demand does.
        first_cost = f.cost(
            f.always_on_accelerator_hours(inference.peak_accelerators, 1.0),
            inference.provisioned_price_per_accelerator_hour,
        )
        cost_growth = 0.0
    else:
        first_cost = f.cost(first_hours, inference.price_per_accelerator_hour)
        cost_growth = growth
    first_energy = (
        NAN
        if inference.power_watts is None
        else f.energy_kwh(first_hours, inference.power_watts, inference.pue)
    )
    return ComparisonFigures(
        break_even_months=break_even_months,
        break_even_months_cost=f.break_even_months(training.cost, first_cost, cost_growth),
        break_even_months_energy=f.break_even_months(training.energy_kwh, first_energy, growth),
        training_share=training_share,
        training_share_cost=f.training_share(training.cost, inference.cost),
    )


def compute(
    inp: EstimateInput, *, comparison_in_cost_and_energy: bool = True
) -> tuple[TrainingFigures | None, InferenceFigures | None, ComparisonFigures | None]:
    """Every figure of every section present, without validation, rounding or monthly series.

    Without `comparison_in_cost_and_energy`, the comparison's break-even in cost and in energy
    and training's share of cost are NaN, not computed: `evaluate` reports none of them, and
    on 10^5–10^6 samples they would cost a third of its time.
    """
    training = inference = None
    if inp.training is not None:
        if inp.training.method == api.API_FINE_TUNE:
            training = _api_fine_tune(inp.training)
        else:
            training = _training(inp.training, inp.energy)
    if inp.inference is not None:
        if inp.inference.method == api.EXTERNAL_API:
            inference = _external_api(inp.inference, inp.energy)
        else:
            inference = _inference(inp.inference, inp.energy)
    both = training is not None and inference is not None
    comparison = (
        _comparison(training, inference, in_cost_and_energy=comparison_in_cost_and_energy)
        if both
        else None
    )
    return training, inference, comparison
