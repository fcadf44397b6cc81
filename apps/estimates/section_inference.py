"""Inference's figures: requests, accelerator-seconds, latency, capacity at the peak, cost,
energy and emissions; served from a language model's plan when one applies, or billed per
request by an external API."""

import numpy as np

from apps.estimates import external_api as api
from apps.estimates import formulas as f
from apps.estimates.commitment import CommitmentFigures, commitment_figures
from apps.estimates.footprint import embodied_rate, water_of
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EnergyProfile, Hardware, InferenceInput
from apps.estimates.section_figures import (
    NAN,
    InferenceFigures,
    energy_and_emissions,
    number,
    optional,
    price_per_hour,
)
from apps.estimates.serving import ServingFigures
from apps.estimates.serving_model import serving_model
from apps.estimates.serving_plan import plan


def _missing(values: tuple) -> bool:
    # Not `None in values`: that compares arrays with == and asks for their truth value.
    return any(value is None for value in values)


def external_api_figures(inference: InferenceInput, energy: EnergyProfile) -> InferenceFigures:
    per_request = api.api_cost_per_request(
        number(inference.input_tokens),
        number(inference.cached_input_tokens),
        number(inference.output_tokens),
        number(inference.reasoning_tokens),
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
    footprint = inference.request_footprint

    def over_requests(name: str) -> Quantity:
        # The middle of the provider's range for each request, times the requests.
        return NAN if footprint is None else requests * footprint.middle(name)

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
        energy_kwh=over_requests("energy_kwh"),
        emissions_kg_co2e=over_requests("usage_kg_co2e"),
        peak_requests_per_second=peak_rate,
        peak_accelerators=NAN,
        peak_concurrent_requests=f.peak_concurrent_requests(peak_rate, latency),
        cost_per_request=per_request,
        priced_per_request=True,
        embodied_kg_co2e=over_requests("embodied_kg_co2e"),
        water_litres=over_requests("water_litres"),
    )


def _computed_tokens(inference: InferenceInput) -> tuple[Quantity, Quantity, Quantity] | None:
    """Active parameters, input tokens prefilled (less the cached ones) and tokens decoded
    (output and reasoning) of one request; None where one of them is not given."""
    given = (inference.parameters, inference.input_tokens, inference.output_tokens)
    if _missing(given):
        return None
    parameters, input_tokens, output_tokens = map(number, given)
    return (
        parameters,
        f.prefilled_tokens(input_tokens, number(inference.cached_input_tokens)),
        f.decoded_tokens(output_tokens, number(inference.reasoning_tokens)),
    )


def _latency(
    inference: InferenceInput,
    hardware: Hardware | None,
    accelerator_seconds: Quantity,
    tokens: tuple[Quantity, Quantity, Quantity] | None,
) -> tuple[Quantity, str]:
    if inference.latency_seconds is not None:
        return number(inference.latency_seconds), "given"
    if (
        hardware is not None
        and hardware.memory_bandwidth_bytes_per_second is not None
        and tokens is not None
    ):
        latency = f.roofline_latency_seconds(
            *tokens,
            number(hardware.peak_flops_per_second),
            number(inference.utilization),
            number(inference.bytes_per_parameter),
            number(hardware.memory_bandwidth_bytes_per_second),
        )
        return latency, "roofline"
    return accelerator_seconds, "accelerator_seconds"


def _where_fits(serving: ServingFigures | None, served: Quantity, otherwise: Quantity) -> Quantity:
    if serving is None:
        return otherwise
    if isinstance(serving.fits, np.ndarray):
        return np.where(serving.fits, served, otherwise)
    return served if serving.fits else otherwise


def inference_figures(inference: InferenceInput, energy: EnergyProfile) -> InferenceFigures:
    hardware = inference.hardware
    tokens = _computed_tokens(inference)
    flop = NAN if tokens is None else f.inference_flop_per_request(*tokens)
    if inference.method == "tokens":
        seconds = f.accelerator_seconds_from_flop(
            flop, number(hardware.peak_flops_per_second), number(inference.utilization)
        )
    else:
        seconds = number(inference.accelerator_seconds_per_request)
    latency, latency_method = _latency(inference, hardware, seconds, tokens)
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
    price = price_per_hour(inference.pricing, power, energy)
    # Provisioned accelerators are paid for every calendar hour, so an owned one is written off
    # over all its hours (busy share 1), not only over the busy ones.
    provisioned_price = price_per_hour(inference.pricing, power, energy, busy_share=1.0)
    requests = f.total_requests(first_month, growth, months)
    hours = f.monthly_accelerator_hours(requests, seconds)
    pay_per_use = f.cost(hours, price)
    always_on = f.cost(f.always_on_accelerator_hours(accelerators, months), provisioned_price)
    is_always_on = inference.provisioning == "always_on"
    committed = (
        _committed(inference, accelerators, price, requests, seconds, target)
        if inference.provisioning == "committed"
        else None
    )
    kwh, kg = energy_and_emissions(hours, power, energy)
    embodied_per_hour = embodied_rate(hardware, inference.pricing)
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
        cost=committed.cost
        if committed is not None
        else always_on
        if is_always_on
        else pay_per_use,
        energy_kwh=kwh,
        emissions_kg_co2e=kg,
        peak_requests_per_second=peak_rate,
        peak_accelerators=accelerators,
        peak_concurrent_requests=f.peak_concurrent_requests(peak_rate, latency),
        cost_per_request=f.cost_per_request(seconds, price),
        serving=serving,
        committed=committed,
        embodied_kg_per_accelerator_hour=embodied_per_hour,
        embodied_kg_co2e=hours * embodied_per_hour,
        water_litres=water_of(kwh, energy),
    )


def _committed(
    inference: InferenceInput,
    peak_accelerators: Quantity,
    price: Quantity,
    requests: Quantity,
    seconds: Quantity,
    target: Quantity,
) -> CommitmentFigures:
    """Capacity rented on commitment (apps.estimates.commitment), sized for the peak."""
    first_month = number(inference.requests_per_month)
    return commitment_figures(
        peak_accelerators=peak_accelerators,
        committed_accelerators=None
        if inference.committed_accelerators is None
        else number(inference.committed_accelerators),
        commitment_years=number(inference.commitment_years),
        upfront_share=number(inference.upfront_share),
        discount=number(inference.commitment_discount),
        price_per_accelerator_hour=price,
        first_month_busy_hours=f.monthly_accelerator_hours(first_month, seconds),
        monthly_growth=number(inference.monthly_growth),
        months=number(inference.months),
        busy_hours=f.monthly_accelerator_hours(requests, seconds),
        target_utilization=target,
    )
