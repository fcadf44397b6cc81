"""The footprint beyond electricity: embodied emissions of the hardware and water.

Embodied emissions are what manufacturing an accelerator and its share of the server emitted
(kg CO2e, cradle to gate, from the catalogue's life-cycle sources), spread over the hours of
the hardware's life. An owned accelerator carries all of it, over its busy hours (its lifetime
times its utilisation, as its cost is written off); a rented one carries the share its hours are
of the service life behind the figure. Water is the data centre's on-site water (its water usage
effectiveness, litres per kWh of IT energy) plus the water consumed generating the electricity
(litres per kWh drawn from the grid, PUE included).

Every formula works on a float and a NumPy array alike; NaN where a figure is not published.
"""

from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EnergyProfile, Hardware, Pricing
from apps.estimates.section_figures import NAN, number
from apps.estimates.units import HOURS_PER_YEAR


def embodied_kg_per_accelerator_hour(
    embodied_kg_co2e: Quantity, lifetime_years: Quantity, busy_share: Quantity
) -> Quantity:
    """Embodied emissions of one accelerator-hour, kg CO2e = embodied kg / (lifetime years ·
    8766 h · busy share). Busy share: the owner's utilisation, or 1 for a rented hour."""
    return embodied_kg_co2e / (lifetime_years * HOURS_PER_YEAR * busy_share)


def water_litres(
    energy_kwh: Quantity, pue: Quantity, wue_litres_per_kwh: Quantity, grid_litres_per_kwh: Quantity
) -> Quantity:
    """Water, litres = IT energy (facility kWh / PUE) · on-site WUE + facility kWh · grid water.

    Includes cooling water evaporated on site and water consumed by power generation. Excludes
    the water of manufacturing the hardware."""
    return energy_kwh / pue * wue_litres_per_kwh + energy_kwh * grid_litres_per_kwh


def embodied_rate(hardware: Hardware | None, pricing: Pricing) -> Quantity:
    """kg CO2e per accelerator-hour of this hardware, owned or rented; NaN where not published."""
    if hardware is None or hardware.embodied_kg_co2e is None:
        return NAN
    embodied = number(hardware.embodied_kg_co2e)
    if pricing.mode == "own":
        return embodied_kg_per_accelerator_hour(
            embodied, number(pricing.lifetime_years), number(pricing.utilization_of_owned)
        )
    if hardware.embodied_lifetime_years is None:
        return NAN
    return embodied_kg_per_accelerator_hour(embodied, number(hardware.embodied_lifetime_years), 1.0)


def water_of(energy_kwh: Quantity, energy: EnergyProfile) -> Quantity:
    """Water of `energy_kwh` facility kWh under this energy profile; NaN where not published."""
    if energy.wue_litres_per_kwh is None or energy.grid_water_litres_per_kwh is None:
        return NAN
    return water_litres(
        energy_kwh,
        number(energy.pue),
        number(energy.wue_litres_per_kwh),
        number(energy.grid_water_litres_per_kwh),
    )
