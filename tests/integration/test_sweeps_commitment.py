"""Sweeps vary a commitment's upfront share, discount and accelerators committed; each point
agrees with the estimate of the same request, and a scenario paid otherwise refuses them
(issue 23)."""

import numpy as np
import pytest

from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.sweeps.compute import base_inputs, evaluate_range
from apps.sweeps.definition import DefinitionError, definition_parse

pytestmark = pytest.mark.django_db

COMMITTED = {
    "inference": {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "price_per_accelerator_hour": 3.0,
        "requests_per_month": 4_000_000,
        "monthly_growth": 0.05,
        "months": 24,
        "provisioning": "committed",
        "commitment_years": 1,
        "commitment_discount": 0.4,
    }
}


def run(request: dict, *inputs: dict) -> dict:
    definition = definition_parse({"inputs": list(inputs)}, request)
    bases = base_inputs(definition, request, Catalogue.from_database())
    return evaluate_range(definition, bases, 0, definition.total_points)


def estimate(request: dict, **inference):
    changed = {**request, "inference": {**request["inference"], **inference}}
    result, _ = estimate_from_request(changed, Catalogue.from_database())
    return pytest.approx(float(result.inference.total.cost), abs=0.005)


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("commitment_discount", [0.2, 0.4, 0.6]),
        ("upfront_share", [0.0, 0.5, 1.0]),
        ("committed_accelerators", [2, 6, 12]),
    ],
)
def test_each_point_of_a_commitment_sweep_is_the_estimate_of_its_request(name, values):
    figures = run(COMMITTED, {"field": f"inference.{name}", "kind": "list", "values": values})
    for index, value in enumerate(values):
        assert figures["inference_cost"][index] == estimate(COMMITTED, **{name: value})


def test_a_deeper_discount_costs_less_and_fewer_committed_accelerators_pay_on_demand():
    discounts = run(
        COMMITTED,
        {"field": "inference.commitment_discount", "kind": "list", "values": [0.2, 0.4, 0.6]},
    )
    assert np.all(np.diff(discounts["inference_cost"]) < 0)
    # The upfront share moves payments in time, not their sum.
    shares = run(
        COMMITTED, {"field": "inference.upfront_share", "kind": "list", "values": [0, 0.5, 1]}
    )
    assert np.ptp(shares["inference_cost"]) == 0


def test_a_scenario_paid_otherwise_refuses_to_sweep_a_commitment_input():
    request = {"inference": {**COMMITTED["inference"], "provisioning": "always_on"}}
    with pytest.raises(DefinitionError) as error:
        definition_parse(
            {"inputs": [{"field": "inference.upfront_share", "kind": "list", "values": [0, 1]}]},
            request,
        )
    assert "committed for a term" in str(error.value.errors)
