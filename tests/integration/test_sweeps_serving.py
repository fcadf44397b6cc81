"""Sweeps of the serving inputs: the replica size, the targets, and the serving figures per point."""

import math

import numpy as np
import pytest

from apps.catalogue.resolve import Catalogue
from apps.sweeps.compute import base_inputs, evaluate_range
from apps.sweeps.definition import DefinitionError, definition_parse
from apps.sweeps.inputs import SWEEPABLE

pytestmark = pytest.mark.django_db

REQUEST = {
    "inference": {
        "method": "tokens",
        "model": "llama-3.1-405b",
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    }
}


def run(*inputs: dict) -> dict[str, np.ndarray]:
    definition = definition_parse({"inputs": list(inputs)}, REQUEST)
    bases = base_inputs(definition, REQUEST, Catalogue.from_database())
    return evaluate_range(definition, bases, 0, definition.total_points)


def test_the_serving_inputs_can_be_swept():
    for name in (
        "accelerators_per_replica",
        "ttft_target_seconds",
        "tpot_target_seconds",
        "memory_efficiency",
        "memory_utilization",
        "kv_cache_bytes_per_element",
        "bytes_per_parameter",
        "layers",
        "kv_heads",
        "head_dim",
        "total_parameters",
    ):
        assert f"inference.{name}" in SWEEPABLE


def test_a_replica_size_sweep_leaves_the_copies_that_do_not_fit_empty():
    figures = run(
        {"field": "inference.accelerators_per_replica", "kind": "list", "values": [8, 16, 24]}
    )
    replicas = figures["serving_accelerators_per_replica"]
    assert math.isnan(replicas[0])  # 811.8 GB of weights do not fit 8 × 72 GB
    assert replicas[1:].tolist() == [16, 24]
    assert figures["peak_accelerators"][1] == 16 * figures["serving_replicas_at_peak"][1]


def test_a_time_per_token_target_sweep_trades_batch_for_speed():
    figures = run({"field": "inference.tpot_target_seconds", "kind": "list", "values": [0.06, 0.3]})
    batch, tpot = figures["serving_batch_size"], figures["serving_tpot_seconds"]
    assert batch[0] < batch[1]
    assert tpot[0] <= 0.06 < tpot[1]
    # Each copy serves fewer requests at the tighter target, so each costs more.
    assert figures["cost_per_request"][0] > figures["cost_per_request"][1]


def test_a_replica_size_that_splits_no_heads_is_refused_for_the_whole_sweep():
    with pytest.raises(Exception) as raised:
        run({"field": "inference.accelerators_per_replica", "kind": "list", "values": [3, 8]})
    assert "query heads" in str(raised.value)
    assert not isinstance(raised.value, DefinitionError)
