"""Embodied emissions and water, on the seed-000 worked example worked out by hand."""

import numpy as np
import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    InferenceResult,
    Pricing,
    TrainingInput,
    estimate,
)
from apps.estimates.footprint import embodied_kg_per_accelerator_hour, water_litres
from apps.estimates.options import option_footprint
from apps.estimates.record import dump, load

# H100 SXM as the catalogue gives it: 700 W, 985.5 kg CO2e embodied over 3 years (EcoLogits).
H100 = Hardware(
    peak_flops_per_second=989.4e12,
    power_watts=700,
    embodied_kg_co2e=985.5,
    embodied_lifetime_years=3,
)
# World grid, industry-average data centre: PUE 1.56, 0.481 kg/kWh, 1.8 L/kWh on site,
# 3.908 L/kWh at the power plants.
WORLD = EnergyProfile(
    pue=1.56, kg_co2e_per_kwh=0.481, wue_litres_per_kwh=1.8, grid_water_litres_per_kwh=3.908
)
RENTED = Pricing(mode="rent", price_per_accelerator_hour=4.0)
HOURS_PER_YEAR = 8766


def seed_000(pricing: Pricing = RENTED, hardware: Hardware = H100, energy=WORLD):
    return estimate(
        EstimateInput(
            training=TrainingInput(
                method="accelerator_hours",
                accelerator_hours=200,
                hardware=hardware,
                pricing=pricing,
            ),
            inference=InferenceInput(
                method="accelerator_seconds",
                accelerator_seconds_per_request=2,
                hardware=hardware,
                requests_per_month=15_000,
                pricing=pricing,
            ),
            energy=energy,
        )
    )


def test_rented_training_carries_its_hours_share_of_the_embodied_emissions():
    # 985.5 kg / (3 years · 8,766 h) = 0.0374743 kg per hour; · 200 h = 7.49487 kg.
    training = seed_000().training
    assert training.embodied_kg_co2e == pytest.approx(985.5 / (3 * HOURS_PER_YEAR) * 200)
    assert training.embodied_kg_co2e == pytest.approx(7.49487, rel=1e-5)


def test_owned_training_carries_it_over_its_busy_hours():
    # 985.5 kg / (5 years · 8,766 h · 0.7 busy) = 0.0321208 kg per hour; · 200 h = 6.42416 kg.
    owned = Pricing(mode="own", purchase_price=30_000, lifetime_years=5, utilization_of_owned=0.7)
    assert seed_000(owned).training.embodied_kg_co2e == pytest.approx(6.42416, rel=1e-5)


def test_training_water_is_on_site_plus_power_plant_water():
    # 200 h · 0.7 kW · 1.56 = 218.4 kWh; 218.4 / 1.56 · 1.8 + 218.4 · 3.908 = 252 + 853.5072.
    training = seed_000().training
    assert training.energy_kwh == pytest.approx(218.4)
    assert training.water_litres == pytest.approx(1105.5072)


def test_per_request_and_over_the_horizon():
    inference = seed_000().inference
    # One request: 2 s = 1/1800 h. Embodied 0.0374743 / 1800 kg; energy 0.7 · 1.56 / 1800 kWh.
    per_request = inference.per_request
    assert per_request.embodied_kg_co2e == pytest.approx(985.5 / (3 * HOURS_PER_YEAR) / 1800)
    energy = 0.7 * 1.56 / 1800
    assert per_request.water_litres == pytest.approx(energy / 1.56 * 1.8 + energy * 3.908)
    # Twelve months of 15,000 requests: 180,000 · 2 s = 100 h; 109.2 kWh.
    total = inference.total
    assert total.embodied_kg_co2e == pytest.approx(3.747433, rel=1e-6)
    assert total.water_litres == pytest.approx(109.2 / 1.56 * 1.8 + 109.2 * 3.908)


def test_not_published_leaves_the_figures_empty():
    unknown = Hardware(peak_flops_per_second=989.4e12, power_watts=700)
    result = seed_000(hardware=unknown, energy=EnergyProfile(pue=1.56, kg_co2e_per_kwh=0.481))
    assert result.training.embodied_kg_co2e is None and result.training.water_litres is None
    assert result.inference.per_request.embodied_kg_co2e is None
    assert result.inference.total.water_litres is None


def test_the_formulas_take_arrays_as_they_take_floats():
    np.testing.assert_allclose(
        embodied_kg_per_accelerator_hour(985.5, np.array([3.0, 5.0]), np.array([1.0, 0.7])),
        [985.5 / (3 * HOURS_PER_YEAR), 985.5 / (5 * HOURS_PER_YEAR * 0.7)],
    )
    np.testing.assert_allclose(
        water_litres(np.array([218.4, 109.2]), 1.56, 1.8, 3.908), [1105.5072, 552.7536]
    )


def test_records_from_before_the_footprint_still_read():
    inference = seed_000().inference
    record = dump(inference)
    for section in ("per_request", "total"):
        del record["data"][section]["embodied_kg_co2e"]
        del record["data"][section]["water_litres"]
    older = load(record, InferenceResult)
    assert older.total.water_litres is None and older.total.energy_kwh == inference.total.energy_kwh


def test_an_option_s_footprint_adds_training_and_serving_over_the_horizon():
    footprint = option_footprint(seed_000())
    # Training 218.4 kWh + serving 109.2 kWh; embodied 200 h + 100 h at 0.0374743 kg.
    assert footprint.energy_kwh == pytest.approx(327.6)
    assert footprint.emissions_kg_co2e == pytest.approx(327.6 * 0.481)
    assert footprint.embodied_kg_co2e == pytest.approx(300 * 985.5 / (3 * HOURS_PER_YEAR))
    assert footprint.water_litres == pytest.approx(327.6 * (1.8 / 1.56 + 3.908))
    unknown = Hardware(peak_flops_per_second=989.4e12, power_watts=700)
    partly = option_footprint(seed_000(hardware=unknown))
    assert partly.embodied_kg_co2e is None and partly.energy_kwh == pytest.approx(327.6)
