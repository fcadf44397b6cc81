"""Training's figures: compute, accelerator-hours, cost, energy and emissions on the
accelerators, or the cost of a fine-tune billed by a vendor's API."""

from apps.estimates import external_api as api
from apps.estimates import formulas as f
from apps.estimates.footprint import embodied_rate, water_of
from apps.estimates.inputs import EnergyProfile, TrainingInput
from apps.estimates.section_figures import (
    NAN,
    TrainingFigures,
    energy_and_emissions,
    number,
    optional,
    price_per_hour,
)


def training_figures(training: TrainingInput, energy: EnergyProfile) -> TrainingFigures:
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
    price = price_per_hour(training.pricing, power, energy)
    kwh, kg = energy_and_emissions(hours, power, energy)
    return TrainingFigures(
        flop=flop,
        accelerator_hours=hours,
        wall_clock_hours=f.wall_clock_hours(hours, number(training.accelerator_count)),
        price_per_accelerator_hour=price,
        cost=f.cost(hours, price),
        energy_kwh=kwh,
        emissions_kg_co2e=kg,
        embodied_kg_co2e=hours * embodied_rate(hardware, training.pricing),
        water_litres=water_of(kwh, energy),
    )


def api_fine_tune_figures(training: TrainingInput) -> TrainingFigures:
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
