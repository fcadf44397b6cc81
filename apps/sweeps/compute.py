"""Evaluate a range of a sweep's points with the vectorised engine: one call per accelerator."""

import copy
from dataclasses import fields

import numpy as np

from apps.catalogue.resolve import Catalogue, estimate_input_from_request
from apps.estimates import EstimateInput, Figures, evaluate
from apps.estimates.currency import MONEY_FIELDS, ExchangeRate, price_in
from apps.estimates.inputs import with_value
from apps.sweeps.definition import Definition
from apps.sweeps.metrics import METRICS

FIGURE_NAMES = tuple(field.name for field in fields(Figures))
METRIC_NAMES = tuple(metric.name for metric in METRICS)


# A varied model brings its own dimensions: the scenario's own ones would override them.
MODEL_DIMENSIONS = (
    "parameters",
    "total_parameters",
    "layers",
    "kv_heads",
    "head_dim",
    "kv_cache_bytes_per_token",
)


def requests_by_accelerator(definition: Definition, request: dict) -> list[dict]:
    """The scenario's request once per listed accelerator × model, in the order of
    `Definition.bases` (or once, as it is, without lists)."""
    requests = []
    for slug in definition.accelerators or (None,):
        for model in definition.models or (None,):
            changed = copy.deepcopy(request)
            if slug is not None:
                for section in definition.accelerator_sections:
                    changed[section]["accelerator"] = slug
            if model is not None:
                inference = changed["inference"]
                for name in MODEL_DIMENSIONS:
                    inference.pop(name, None)
                inference["model"] = model
            requests.append(changed)
    return requests


def names_used(requests: list[dict]) -> tuple[set[str], set[str]]:
    """The accelerators and language models (slugs) the requests name: what their catalogue
    must hold."""
    accelerators, models = set(), set()
    for request in requests:
        for section in (request.get("training"), request.get("inference")):
            if isinstance(section, dict) and section.get("accelerator"):
                accelerators.add(section["accelerator"])
            if isinstance(section, dict) and section.get("model"):
                models.add(section["model"])
    return accelerators, models


def base_inputs(
    definition: Definition,
    request: dict,
    catalogue: Catalogue,
    exchange: ExchangeRate | None = None,
) -> list[EstimateInput]:
    """Engine inputs per accelerator, their prices converted at `exchange` as the scenario page
    converts them; raises EstimateInputError when the catalogue cannot serve."""
    requests = requests_by_accelerator(definition, request)
    return [estimate_input_from_request(r, catalogue, exchange)[0] for r in requests]


def varied_values(definition: Definition, exchange: ExchangeRate | None) -> list[np.ndarray]:
    """The values of each varied input as the engine reads them: a price (given in US dollars,
    as the scenario form takes it) converted at `exchange`, as the scenario's own prices are."""
    return [
        price_in(item.values, exchange) if item.spec.name in MONEY_FIELDS else item.values
        for item in definition.inputs
    ]


def total_cost(training_cost: np.ndarray, inference_cost: np.ndarray) -> np.ndarray:
    """Training plus inference cost; a section the scenario lacks counts 0, NaN when both lack."""
    both_missing = np.isnan(training_cost) & np.isnan(inference_cost)
    total = np.nan_to_num(training_cost, nan=0.0) + np.nan_to_num(inference_cost, nan=0.0)
    total[both_missing] = np.nan
    return total


def evaluate_range(
    definition: Definition,
    bases: list[EstimateInput],
    start: int,
    stop: int,
    exchange: ExchangeRate | None = None,
) -> dict[str, np.ndarray]:
    """Every metric of points start … stop − 1, as float64 arrays of stop − start values; with
    `exchange` (the rate `bases` were converted at), varied prices are converted at it too."""
    values = varied_values(definition, exchange)
    indices = np.arange(start, stop, dtype=np.int64)
    _, digits = definition.digits(indices)
    count = stop - start
    columns = {name: np.empty(count, dtype=np.float64) for name in FIGURE_NAMES}
    # Accelerators and models are the slowest axes, so a chunk meets them in contiguous runs.
    for low, high, position in _runs(definition.bases(indices)):
        inputs = bases[position]
        for item, known, digit in zip(definition.inputs, values, digits, strict=True):
            inputs = with_value(inputs, item.spec.engine_path, known[digit[low:high]])
        figures = evaluate(inputs)
        for name in FIGURE_NAMES:
            columns[name][low:high] = getattr(figures, name)
    columns["total_cost"] = total_cost(columns["training_cost"], columns["inference_cost"])
    return {name: columns[name] for name in METRIC_NAMES}


def _runs(positions: np.ndarray) -> list[tuple[int, int, int]]:
    """(low, high, value) for each run of equal values in a sorted array."""
    if len(positions) == 0:
        return []
    starts = np.flatnonzero(np.diff(positions)) + 1
    lows = [0, *starts.tolist()]
    highs = [*starts.tolist(), len(positions)]
    return [(low, high, int(positions[low])) for low, high in zip(lows, highs, strict=True)]
