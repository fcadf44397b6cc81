"""Figures of each section (training, inference, comparison) as floats or arrays, and the
arithmetic the sections share: numbers as float64, the price per accelerator-hour, energy and
emissions."""

from dataclasses import dataclass

import numpy as np

from apps.estimates import formulas as f
from apps.estimates.commitment import CommitmentFigures
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EnergyProfile, Pricing
from apps.estimates.serving import ServingFigures

NAN = float("nan")


def number(value: object) -> Quantity:
    # All arithmetic runs on float64: Python ints (exact, unbounded products), Decimals and
    # integer arrays would otherwise make the scalar path compute differently from the arrays.
    if isinstance(value, np.ndarray):
        return value.astype(np.float64, copy=False)
    return float(value)


def optional(value: object) -> Quantity | None:
    return None if value is None else number(value)


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
    embodied_kg_co2e: Quantity = NAN  # the hardware's manufacturing, for these hours
    water_litres: Quantity = NAN


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
    committed: CommitmentFigures | None = None  # provisioning "committed": `cost` is its cost
    # Over the busy accelerator-hours, like energy (apps.estimates.footprint).
    embodied_kg_per_accelerator_hour: Quantity = NAN
    embodied_kg_co2e: Quantity = NAN
    water_litres: Quantity = NAN


@dataclass(frozen=True)
class ComparisonFigures:
    break_even_months: Quantity
    break_even_months_cost: Quantity
    break_even_months_energy: Quantity
    training_share: Quantity
    training_share_cost: Quantity


def price_per_hour(
    pricing: Pricing,
    power_watts: Quantity | None,
    energy: EnergyProfile,
    busy_share: Quantity | None = None,
) -> Quantity:
    """Price of one busy accelerator-hour; NaN where the price is missing (training not priced)."""
    if pricing.mode == "rent":
        price = pricing.price_per_accelerator_hour
        return NAN if price is None else number(price)
    if pricing.purchase_price is None:
        return NAN
    return f.owned_cost_per_accelerator_hour(
        number(pricing.purchase_price),
        number(pricing.lifetime_years),
        number(pricing.utilization_of_owned) if busy_share is None else busy_share,
        power_watts,
        number(energy.pue),
        optional(energy.electricity_price_per_kwh),
    )


def energy_and_emissions(
    accelerator_hours: Quantity, power_watts: Quantity | None, energy: EnergyProfile
) -> tuple[Quantity, Quantity]:
    if power_watts is None:
        return NAN, NAN
    kwh = f.energy_kwh(accelerator_hours, power_watts, number(energy.pue))
    intensity = optional(energy.kg_co2e_per_kwh)
    return kwh, NAN if intensity is None else f.emissions_kg_co2e(kwh, intensity)
