"""One scenario's serving plan as a result: figures, plain-words assumptions, a refused replica."""

import math
from dataclasses import replace

from apps.estimates.inputs import EstimateInputError, InferenceInput
from apps.estimates.messages import Message, Number, _, number
from apps.estimates.results import ReplicaChoice, ServingResult
from apps.estimates.section_figures import InferenceFigures
from apps.estimates.serving import LIMITED_BY, ReplicaOption, ServingFigures
from apps.estimates.serving_model import serving_model
from apps.estimates.serving_plan import plan

GB = 1e9
NAN = float("nan")
REPLICA_FIGURES = tuple(
    name
    for name in ServingFigures.__dataclass_fields__
    if name
    not in (
        "fits",
        "meets_targets",
        "weights_bytes",
        "kv_cache_bytes_per_token",
        "usable_memory_per_accelerator_bytes",
        "options",
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


def _choice(option: ReplicaOption) -> ReplicaChoice:
    fits = bool(option.fits)
    return ReplicaChoice(
        accelerators_per_replica=int(option.accelerators_per_replica),
        fits=fits,
        batch_size=_whole(option.batch_size) if fits else None,
        output_tokens_per_second=_known(option.output_tokens_per_second) if fits else None,
        replicas_at_peak=_whole(option.replicas_at_peak) if fits else None,
        meets_targets=bool(option.meets_targets),
    )


def serving_result(inference: InferenceInput, serving: ServingFigures) -> ServingResult:
    choice = tuple(_choice(option) for option in serving.options if bool(option.considered))
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
        replica_choice=choice,
        replica_chosen_because=_chosen_because(
            choice,
            _whole(serving.accelerators_per_replica),
            inference.ttft_target_seconds is not None or inference.tpot_target_seconds is not None,
        ),
    )


def _peak(choice: ReplicaChoice) -> int:
    return choice.replicas_at_peak * choice.accelerators_per_replica


def _chosen_because(
    choice: tuple[ReplicaChoice, ...], accelerators: int | None, targets: bool
) -> Message:
    """Why the replica size used was chosen, in one sentence, from the sizes considered."""
    if not choice:
        return _("%(accelerators)s accelerator(s) per copy, as given.", accelerators=accelerators)
    fitting = [option for option in choice if option.fits]
    if not fitting:
        return _("No replica size considered fits the model.")
    (chosen,) = (o for o in fitting if o.accelerators_per_replica == accelerators)
    smallest = fitting[0]
    numbers = {
        "accelerators": accelerators,
        "peak": _peak(chosen),
        "smallest": smallest.accelerators_per_replica,
        "copies": smallest.replicas_at_peak,
        "smallest_peak": _peak(smallest),
    }
    if len(fitting) == 1:
        return _(
            "%(accelerators)s accelerator(s) per copy: the only size considered that fits "
            "(%(peak)s accelerators at peak).",
            **numbers,
        )
    if targets and not chosen.meets_targets:
        return _(
            "%(accelerators)s accelerator(s) per copy: no size considered meets the latency "
            "targets, and of those that fit this one needs the fewest accelerators at peak "
            "(%(peak)s).",
            **numbers,
        )
    if chosen is smallest:
        return _(
            "%(accelerators)s accelerator(s) per copy: the smallest size that fits, and no "
            "larger one needs fewer accelerators at peak (%(peak)s).",
            **numbers,
        )
    if targets and not smallest.meets_targets:
        return _(
            "%(accelerators)s accelerators per copy: the fewest accelerators at peak "
            "(%(peak)s) that meet the latency targets; %(smallest)s per copy cannot meet them.",
            **numbers,
        )
    return _(
        "%(accelerators)s accelerators per copy: the fewest accelerators at peak (%(peak)s); "
        "%(smallest)s per copy would need %(copies)s copies (%(smallest_peak)s accelerators).",
        **numbers,
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
    smallest = next((option for option in derived.options if bool(option.fits)), None)
    if smallest is not None:
        advice = _(
            "It needs at least %(accelerators)s (tensor parallel %(tensor)s, pipeline stages "
            "%(stages)s); leave this empty to let the planner choose among the sizes that fit.",
            accelerators=int(smallest.accelerators_per_replica),
            tensor=int(smallest.tensor_parallel),
            stages=int(smallest.pipeline_parallel),
        )
    else:
        advice = _("It does not fit any replica of this accelerator the planner tries.")
    raise EstimateInputError(
        {
            "inference.accelerators_per_replica": [
                _(
                    "The model does not fit on %(chosen)s accelerator(s): its weights alone take "
                    "%(weights)s GB on each, of %(usable)s GB usable, and each also needs room "
                    "for the runtime and one request's KV cache. %(advice)s",
                    chosen=chosen,
                    weights=number(per_accelerator, "one_place"),
                    usable=number(usable, "one_place"),
                    advice=advice,
                )
            ]
        }
    )


def _g(value: float) -> Number:
    return number(value, "g4")


def _kv_note(inference: InferenceInput, result: ServingResult) -> Message:
    per_token = _g(result.kv_cache_bytes_per_token)
    if inference.kv_cache_bytes_per_token is not None:
        return _("KV cache: %(bytes)s bytes per token (given).", bytes=per_token)
    if inference.kv_latent_width is not None:
        return _(
            "KV cache: %(bytes)s bytes per token (layers × latent width × bytes per element, "
            "multi-head latent attention).",
            bytes=per_token,
        )
    return _(
        "KV cache: %(bytes)s bytes per token (layers × 2 × KV heads × head dimension × bytes "
        "per element).",
        bytes=per_token,
    )


def _batch_limit(limited_by: str) -> Message:
    if limited_by == "memory":
        return _("the KV cache memory")
    if limited_by == "compute":
        return _("the KV cache memory; the decode step is compute-bound there")
    return _("the latency targets")


def _defaults_note(inference: InferenceInput) -> tuple[Message, ...]:
    """Where the default shares come from, when every one of them is in use."""
    defaults = InferenceInput(method="tokens")
    names = (
        "memory_efficiency",
        "utilization",
        "memory_utilization",
        "overhead_bytes_per_accelerator",
    )
    if any(getattr(inference, name) != getattr(defaults, name) for name in names):
        return ()
    return (
        _(
            "These shares are the defaults, calibrated on published results: with them the "
            "output tokens/s of a copy is within 20%% of TensorRT-LLM's published offline "
            "throughput on H100 SXM in FP8 for Llama 3.1 8B, Llama 3.3 70B and Llama 3.1 405B "
            "(TensorRT-LLM performance overview, v1.0, 2025), and Llama 2 70B in FP8 on H100 "
            "gives about 2,100 output tokens/s per accelerator against about 3,000 in MLPerf "
            "Inference results."
        ),
    )


def serving_assumptions(inference: InferenceInput, result: ServingResult) -> tuple[Message, ...]:
    """How the serving figures were worked out, in plain words, with the numbers used."""
    notes = [
        _(
            "Weights = total parameters × %(bytes)s bytes = %(weights)s GB (a mixture of experts "
            "holds every expert); FLOP use the active parameters.",
            bytes=_g(float(inference.bytes_per_parameter)),
            weights=_g(result.weights_gb),
        ),
        _kv_note(inference, result),
    ]
    if (
        inference.sliding_window is not None
        and inference.sliding_window_layers is not None
        and inference.kv_cache_bytes_per_token is None
        and inference.kv_latent_width is None
    ):
        notes.append(
            _(
                "Sliding window: %(window_layers)s of the %(layers)s layers keep only the last "
                "%(window)s tokens, so the KV bytes per token above are at the mean context "
                "(input + half the output); a full-length request holds 1 − (window layers ÷ "
                "layers) × (1 − min(tokens, window) ÷ tokens) of the full-attention cache.",
                window_layers=_g(float(inference.sliding_window_layers)),
                layers=_g(float(inference.layers)),
                window=_g(float(inference.sliding_window)),
            )
        )
    if not result.fits:
        notes.append(
            _(
                "The model does not fit: no replica of up to 16 pipeline stages holds its "
                "weights, the runtime and one request's KV cache in %(usable)s GB per "
                "accelerator. So no replica, accelerators at peak, accelerator-seconds, cost, "
                "energy or wait can be given: use an accelerator with more memory, fewer bytes "
                "per parameter or a shorter context.",
                usable=_g(result.usable_memory_per_accelerator_gb),
            )
        )
        return tuple(notes)
    replica = {
        "accelerators": result.accelerators_per_replica,
        "tensor": result.tensor_parallel,
        "stages": result.pipeline_parallel,
        "runtime": _g(float(inference.overhead_bytes_per_accelerator) / 2**30),
        "memory": number(inference.memory_utilization, "percent"),
    }
    notes += [
        _(
            "Replica: %(accelerators)s accelerator(s) per copy of the model, tensor parallel "
            "%(tensor)s × pipeline stages %(stages)s (chosen among the sizes considered): each "
            "keeps its share of the weights, %(runtime)s GiB of runtime and activations and the "
            "KV cache within %(memory)s of its memory.",
            **replica,
        )
        if result.replica_derived
        else _(
            "Replica: %(accelerators)s accelerator(s) per copy of the model, tensor parallel "
            "%(tensor)s × pipeline stages %(stages)s (as chosen): each keeps its share of the "
            "weights, %(runtime)s GiB of runtime and activations and the KV cache within "
            "%(memory)s of its memory.",
            **replica,
        ),
        _(
            "Batch: %(batch)s requests decode together (continuous batching), limited by "
            "%(limit)s. Decode step on the roofline with %(bandwidth)s of memory bandwidth and "
            "%(peak)s of peak FLOP/s; prefill shares the replica.",
            batch=result.batch_size,
            limit=_batch_limit(result.limited_by),
            bandwidth=number(inference.memory_efficiency, "percent"),
            peak=number(inference.utilization, "percent"),
        ),
        *_defaults_note(inference),
        _(
            "Time to first token = prefill + one decode step of waiting; time per output token "
            "at the batch used; the user's wait = TTFT + output tokens × TPOT (no queueing, no "
            "network)."
        ),
        _(
            "Accelerators at peak = copies at peak × accelerators per copy; copies = peak "
            "requests/s ÷ (target utilisation %(target)s × requests/s per copy), at least 1. "
            "Busy accelerator-seconds per request = accelerators per copy ÷ requests/s per copy.",
            target=number(inference.target_utilization, "plain"),
        ),
    ]
    if result.tpot_target_seconds is not None and result.tpot_seconds > result.tpot_target_seconds:
        notes.append(
            _(
                "The time-per-token target %(target)s s cannot be met by this replica even one "
                "request at a time.",
                target=_g(result.tpot_target_seconds),
            )
        )
    if result.ttft_target_seconds is not None and result.ttft_seconds > result.ttft_target_seconds:
        notes.append(
            _(
                "The first-token target %(target)s s cannot be met by this replica: its prefill "
                "alone takes longer.",
                target=_g(result.ttft_target_seconds),
            )
        )
    return tuple(notes)
