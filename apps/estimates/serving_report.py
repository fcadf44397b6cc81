"""One scenario's serving plan as a result: figures, plain-words assumptions, a refused replica."""

import math
from dataclasses import replace

from apps.estimates.inputs import EstimateInputError, InferenceInput
from apps.estimates.results import ServingResult
from apps.estimates.sections import InferenceFigures, serving_model
from apps.estimates.serving import LIMITED_BY, ServingFigures
from apps.estimates.serving_plan import plan

GB = 1e9
NAN = float("nan")
REPLICA_FIGURES = tuple(
    name
    for name in ServingFigures.__dataclass_fields__
    if name
    not in (
        "fits",
        "weights_bytes",
        "kv_cache_bytes_per_token",
        "usable_memory_per_accelerator_bytes",
    )
)


def _known(value: object) -> float | None:
    number = float(value)
    return None if math.isnan(number) else number


def _whole(value: object) -> int | None:
    number = _known(value)
    return None if number is None else int(number)


def _optional(value: object) -> float | None:
    return None if value is None else float(value)


def serving_result(inference: InferenceInput, serving: ServingFigures) -> ServingResult:
    fits = bool(serving.fits)
    if not fits:
        # What cannot be true is not reported: the replica figures of a model that does not fit.
        serving = replace(serving, **{name: NAN for name in REPLICA_FIGURES})
    memory = _known(serving.memory_per_accelerator_bytes)
    return ServingResult(
        fits=fits,
        limited_by=LIMITED_BY[int(serving.limited_by)] if fits else "memory",
        weights_gb=float(serving.weights_bytes) / GB,
        kv_cache_bytes_per_token=float(serving.kv_cache_bytes_per_token),
        accelerators_per_replica=_whole(serving.accelerators_per_replica),
        tensor_parallel=_whole(serving.tensor_parallel),
        pipeline_parallel=_whole(serving.pipeline_parallel),
        kv_cache_capacity_tokens=_known(serving.kv_cache_capacity_tokens),
        max_concurrent_requests=_whole(serving.max_concurrent_requests),
        batch_size=_whole(serving.batch_size),
        output_tokens_per_second=_known(serving.output_tokens_per_second),
        requests_per_second=_known(serving.requests_per_second),
        ttft_seconds=_known(serving.ttft_seconds),
        tpot_seconds=_known(serving.tpot_seconds),
        replicas_at_peak=_whole(serving.replicas_at_peak),
        memory_per_accelerator_gb=None if memory is None else memory / GB,
        usable_memory_per_accelerator_gb=float(serving.usable_memory_per_accelerator_bytes) / GB,
        wait_seconds=_known(serving.wait_seconds),
        ttft_target_seconds=_optional(inference.ttft_target_seconds),
        tpot_target_seconds=_optional(inference.tpot_target_seconds),
        replica_derived=inference.accelerators_per_replica is None,
    )


def check_replica_fits(inference: InferenceInput, figures: InferenceFigures) -> None:
    """Refuse a chosen replica size the model does not fit, saying what would (one scenario)."""
    serving = figures.serving
    if serving is None or inference.accelerators_per_replica is None or bool(serving.fits):
        return
    chosen = int(inference.accelerators_per_replica)
    per_accelerator = float(serving.weights_bytes) / chosen / GB
    usable = float(serving.usable_memory_per_accelerator_bytes) / GB
    derived = plan(
        replace(serving_model(inference), accelerators_per_replica=None),
        figures.peak_requests_per_second,
        float(inference.target_utilization),
    )
    if bool(derived.fits):
        advice = (
            f"It needs at least {int(derived.accelerators_per_replica)} (tensor parallel "
            f"{int(derived.tensor_parallel)}, pipeline stages {int(derived.pipeline_parallel)}); "
            "leave this empty to use the smallest replica that fits."
        )
    else:
        advice = "It does not fit any replica of this accelerator the planner tries."
    raise EstimateInputError(
        {
            "inference.accelerators_per_replica": [
                f"The model does not fit on {chosen} accelerator(s): its weights alone take "
                f"{per_accelerator:,.1f} GB on each, of {usable:,.1f} GB usable, and each also "
                f"needs room for the runtime and one request's KV cache. {advice}"
            ]
        }
    )


def _g(value: float) -> str:
    return f"{value:,.4g}"


def serving_assumptions(inference: InferenceInput, result: ServingResult) -> tuple[str, ...]:
    """How the serving figures were worked out, in plain words, with the numbers used."""
    notes = [
        f"Weights = total parameters × {_g(float(inference.bytes_per_parameter))} bytes = "
        f"{_g(result.weights_gb)} GB (a mixture of experts holds every expert); FLOP use the "
        "active parameters.",
        f"KV cache: {_g(result.kv_cache_bytes_per_token)} bytes per token "
        + (
            "(given)."
            if inference.kv_cache_bytes_per_token is not None
            else "(layers × latent width × bytes per element, multi-head latent attention)."
            if inference.kv_latent_width is not None
            else "(layers × 2 × KV heads × head dimension × bytes per element)."
        ),
    ]
    if (
        inference.sliding_window is not None
        and inference.sliding_window_layers is not None
        and inference.kv_cache_bytes_per_token is None
        and inference.kv_latent_width is None
    ):
        notes.append(
            f"Sliding window: {_g(float(inference.sliding_window_layers))} of the "
            f"{_g(float(inference.layers))} layers keep only the last "
            f"{_g(float(inference.sliding_window))} tokens, so the KV bytes per token above are "
            "at the mean context (input + half the output); a full-length request holds "
            "1 − (window layers ÷ layers) × (1 − min(tokens, window) ÷ tokens) of the "
            "full-attention cache."
        )
    if not result.fits:
        notes.append(
            "The model does not fit: no replica of up to 16 pipeline stages holds its weights, "
            "the runtime and one request's KV cache in "
            f"{_g(result.usable_memory_per_accelerator_gb)} GB per accelerator. "
            "So no replica, accelerators at peak, accelerator-seconds, cost, energy or wait can be "
            "given: use an accelerator with more memory, fewer bytes per parameter or a "
            "shorter context."
        )
        return tuple(notes)
    how = "the smallest that fits" if result.replica_derived else "as chosen"
    notes += [
        f"Replica: {result.accelerators_per_replica} accelerator(s) per copy of the model, "
        f"tensor parallel {result.tensor_parallel} × pipeline stages {result.pipeline_parallel} "
        f"({how}): each keeps its share of the weights, "
        f"{_g(float(inference.overhead_bytes_per_accelerator) / 2**30)} GiB of runtime and "
        f"activations and the KV cache within {float(inference.memory_utilization):.0%} of its "
        "memory.",
        f"Batch: {result.batch_size} requests decode together (continuous batching), limited by "
        + {
            "memory": "the KV cache memory",
            "compute": "the KV cache memory; the decode step is compute-bound there",
            "latency_target": "the latency targets",
        }[result.limited_by]
        + f". Decode step on the roofline with {float(inference.memory_efficiency):.0%} of memory "
        f"bandwidth and {float(inference.utilization):.0%} of peak FLOP/s; prefill shares the "
        "replica.",
        "Time to first token = prefill + one decode step of waiting; time per output token at "
        "the batch used; the user's wait = TTFT + output tokens × TPOT (no queueing, no network).",
        "Accelerators at peak = copies at peak × accelerators per copy; copies = peak requests/s ÷ "
        f"(target utilisation {float(inference.target_utilization):g} × requests/s per copy), at "
        "least 1. Busy accelerator-seconds per request = accelerators per copy ÷ requests/s "
        "per copy.",
    ]
    if result.tpot_target_seconds is not None and result.tpot_seconds > result.tpot_target_seconds:
        notes.append(
            f"The time-per-token target {_g(result.tpot_target_seconds)} s cannot be met by this "
            "replica even one request at a time."
        )
    if result.ttft_target_seconds is not None and result.ttft_seconds > result.ttft_target_seconds:
        notes.append(
            f"The first-token target {_g(result.ttft_target_seconds)} s cannot be met by this "
            "replica: its prefill alone takes longer."
        )
    return tuple(notes)
