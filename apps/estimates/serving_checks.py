"""Checks of a language model's serving inputs across fields, for floats and arrays alike."""

import numpy as np

from apps.estimates.inputs import InferenceInput
from apps.estimates.messages import Alternatives, Message, _
from apps.estimates.serving_plan import largest_tensor_parallel


class _Errors:
    def __init__(self) -> None:
        self.pairs: list[tuple[str, Message]] = []

    def add(self, key: str, message: Message) -> None:
        self.pairs.append((key, message))


def _everywhere(condition: object) -> bool:
    return bool(np.all(condition))


def serving_errors(inference: InferenceInput) -> list[tuple[str, Message]]:
    """What serving needs beyond each number's own range, as (field, message) pairs.

    Assumes every number is in range (apps.estimates.validation checks the ranges first).
    """
    errors = _Errors()
    active = inference.parameters
    if not _everywhere(np.greater(active, 0)):
        errors.add(
            "inference.parameters", _("Serving a model needs more than 0 active parameters.")
        )
    if not _everywhere(np.greater_equal(inference.output_tokens, 1)):
        errors.add(
            "inference.output_tokens", _("Serving a language model needs at least 1 output token.")
        )
    total = inference.total_parameters
    if total is not None and not _everywhere(np.greater_equal(total, active)):
        errors.add(
            "inference.total_parameters",
            _(
                "Total parameters must be at least the active parameters "
                "(a mixture of experts holds all its experts but runs a few)."
            ),
        )
    experts = (inference.experts_total, inference.experts_active)
    if (experts[0] is None) != (experts[1] is None):
        errors.add(
            "inference.experts_active", _("Give both the experts in total and active per token.")
        )
    elif experts[0] is not None and not _everywhere(np.less(experts[1], experts[0])):
        errors.add(
            "inference.experts_active", _("Active experts must be fewer than the experts in total.")
        )
    window = (inference.sliding_window, inference.sliding_window_layers)
    if (window[0] is None) != (window[1] is None):
        errors.add(
            "inference.sliding_window_layers",
            _("Give both the sliding window and how many layers use it, or neither."),
        )
    elif (
        window[1] is not None
        and inference.layers is not None
        and not _everywhere(np.less_equal(window[1], inference.layers))
    ):
        errors.add(
            "inference.sliding_window_layers", _("More sliding-window layers than the model has.")
        )
    replica = inference.accelerators_per_replica
    if replica is not None:
        _check_replica(errors, inference, replica)
    return errors.pairs


def _check_replica(errors: _Errors, inference: "InferenceInput", replica: object) -> None:
    hardware = inference.hardware
    per_node = hardware.accelerators_per_node
    heads = np.nan if inference.query_heads is None else inference.query_heads
    largest = largest_tensor_parallel(per_node, heads)
    within = np.less_equal(replica, per_node)
    if inference.query_heads is not None and not _everywhere(
        np.logical_not(within) | (np.fmod(inference.query_heads, replica) == 0)
    ):
        errors.add(
            "inference.accelerators_per_replica",
            _(
                "Within one node the accelerators per replica split the attention heads: choose "
                "a number that divides the %(heads)s query heads (1, 2, 4, 8 …).",
                heads=_heads(inference.query_heads),
            ),
        )
    if not _everywhere(within | (np.fmod(replica, largest) == 0)):
        errors.add(
            "inference.accelerators_per_replica",
            _(
                "A replica larger than one node is whole nodes: choose a multiple of "
                "%(accelerators)s accelerators (tensor parallel within a node, pipeline stages "
                "across nodes).",
                accelerators=_heads(largest),
            ),
        )
    elif inference.layers is not None and not _everywhere(
        within | (np.divide(replica, largest) <= inference.layers)
    ):
        errors.add(
            "inference.accelerators_per_replica",
            _("More pipeline stages than the model has layers: choose fewer accelerators."),
        )


def _heads(value: object) -> Alternatives:
    values = np.unique(np.asarray(value, dtype=np.float64))
    return Alternatives(tuple(float(number) for number in values[:3]))
