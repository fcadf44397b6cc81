"""The serving plan of one inference section: replica size, batch, speed and replicas at peak.

`plan` puts the formulas of apps.estimates.serving together for floats and arrays alike; it is
what the inference section calls when a language model's memory dimensions are known.
"""

import math
from dataclasses import dataclass, replace

import numpy as np

from apps.estimates import serving as s
from apps.estimates.formulas import Flag, Quantity, _unwrap

NAN = float("nan")


@dataclass(frozen=True)
class ServingModel:
    """Plain numbers of one model on one accelerator, as `plan` needs them (bytes, FLOP/s, s).

    kv_heads: inf when the KV cache splits over any tensor-parallel degree (an override without
    heads), 1 for latent attention (every rank keeps the whole latent). query_heads: NaN when
    unknown (no divisibility limit on t). layers: NaN when unknown (no all-reduce term, no limit
    on p). expert_share: k / E of the routed experts, None for a dense model.
    """

    total_parameters: Quantity
    active_parameters: Quantity
    bytes_per_parameter: Quantity
    kv_bytes_per_token: Quantity  # at the mean context S̄ (sliding windows counted at S̄)
    kv_heads: Quantity
    query_heads: Quantity
    layers: Quantity
    hidden_size: Quantity  # 0 when unknown: no activation bytes in the all-reduces
    attention_flop_per_token_squared: Quantity
    expert_share: Quantity | None
    input_tokens: Quantity
    output_tokens: Quantity
    memory_bytes: Quantity
    memory_utilization: Quantity
    overhead_bytes: Quantity
    accelerators_per_node: Quantity
    bandwidth: Quantity
    memory_efficiency: Quantity
    peak_flops: Quantity
    utilization: Quantity
    link_bytes_per_second: Quantity  # one direction; inf when unknown
    accelerators_per_replica: Quantity | None
    ttft_target_seconds: Quantity | None
    tpot_target_seconds: Quantity | None
    # KV bytes per token of a full-length sequence (S_in + S_out), what the fit needs; None:
    # the same as kv_bytes_per_token (no sliding window).
    kv_bytes_per_token_full: Quantity | None = None

    @property
    def kv_full(self) -> Quantity:
        return (
            self.kv_bytes_per_token
            if self.kv_bytes_per_token_full is None
            else (self.kv_bytes_per_token_full)
        )


def _divides(heads: Quantity, degree: float) -> Flag:
    # Unknown heads (NaN) put no limit on the degree.
    return np.isnan(heads) | (np.fmod(heads, degree) == 0)


def largest_tensor_parallel(accelerators_per_node: Quantity, query_heads: Quantity) -> Quantity:
    """The largest t in 1, 2, 4, … within one node that divides the query heads (at least 1)."""
    largest = 1.0
    for degree in s.TENSOR_PARALLEL_DEGREES[1:]:
        valid = (degree <= accelerators_per_node) & _divides(query_heads, degree)
        largest = np.where(valid, degree, largest)
    return _unwrap(np.asarray(largest))


def _replica_sizes(m: ServingModel, weights: Quantity, usable: Quantity) -> list[tuple]:
    """The replica sizes a deployment would run, as (t, p, considered), smallest first.

    Tensor parallel within one node at each degree that divides the query heads (p = 1); then
    whole nodes at the largest such degree, with the fewest pipeline stages that hold the model
    (at least 2) and twice as many, up to the stage limit. `considered` is False where a point
    cannot run the size; floats and arrays take the same steps.
    """
    sizes = []
    widest_node = np.max(m.accelerators_per_node)
    for degree in s.TENSOR_PARALLEL_DEGREES:
        if degree > widest_node:
            break
        sizes.append(
            (degree, 1.0, (degree <= m.accelerators_per_node) & _divides(m.query_heads, degree))
        )
    largest = largest_tensor_parallel(m.accelerators_per_node, m.query_heads)
    stages = s.pipeline_stages_needed(
        weights,
        m.kv_full,
        m.input_tokens + m.output_tokens,
        largest,
        s.kv_shards(largest, m.kv_heads),
        usable,
        m.overhead_bytes,
    )
    stage_limit = np.fmin(s.MAX_PIPELINE_STAGES, m.layers)  # fmin: NaN layers, no limit
    fewest = np.maximum(2.0, stages)
    for pipeline in (fewest, 2.0 * fewest):
        sizes.append((largest, pipeline, pipeline <= stage_limit))
    return sizes


def _fixed_replica(m: ServingModel) -> tuple:
    """The chosen g: t = g within a node, else the largest t and p = g / t; can it run?"""
    accelerators = m.accelerators_per_replica
    largest = largest_tensor_parallel(m.accelerators_per_node, m.query_heads)
    tensor = np.where(accelerators <= m.accelerators_per_node, accelerators, largest)
    pipeline = accelerators / tensor
    return tensor, pipeline, np.logical_not(pipeline > m.layers)


def _seconds_per_token_allowed(m: ServingModel, ttft_prefill: Quantity) -> Quantity:
    """The TPOT the targets leave: the TPOT target, and the TTFT target less the prefill (a new
    request waits for the running decode step, then is prefilled); inf without targets."""
    allowed = math.inf
    if m.tpot_target_seconds is not None:
        allowed = m.tpot_target_seconds
    if m.ttft_target_seconds is not None:
        allowed = np.minimum(allowed, m.ttft_target_seconds - ttft_prefill)
    return allowed


def _meets_targets(m: ServingModel, ttft: Quantity, tpot: Quantity) -> Flag:
    meets = True
    if m.tpot_target_seconds is not None:
        meets = tpot <= m.tpot_target_seconds
    if m.ttft_target_seconds is not None:
        meets = meets & (ttft <= m.ttft_target_seconds)
    return meets


def plan(m: ServingModel, arrival_rate_per_second: Quantity, target_utilization: Quantity):
    """Every serving figure of `m` at the peak arrival rate (requests/s), as
    apps.estimates.serving.ServingFigures, for the given replica size or else the one chosen
    (`choose`). Where `fits` is False the replica figures mean nothing: read them through
    `fits` (masking them all here cost more than the plan itself)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        weights = s.weights_bytes(m.total_parameters, m.bytes_per_parameter)
        usable = m.memory_bytes * m.memory_utilization

        def at(tensor: Quantity, pipeline: Quantity, considered: Flag) -> s.ServingFigures:
            return _figures(
                m,
                weights,
                usable,
                tensor,
                pipeline,
                considered,
                arrival_rate_per_second,
                target_utilization,
            )

        if m.accelerators_per_replica is not None:
            return at(*_fixed_replica(m))
        sizes = _replica_sizes(m, weights, usable)
        return choose([at(*size) for size in sizes], [considered for *_, considered in sizes])


def _better(option: s.ServingFigures, best: s.ServingFigures) -> Flag:
    """Does `option` beat `best`: it meets the targets where `best` does not, or as well and
    with fewer accelerators at peak (a tie keeps `best`, the smaller replica)."""
    meets, best_meets = option.fits & option.meets_targets, best.fits & best.meets_targets
    peak = np.where(option.fits, option.peak_accelerators, np.inf)
    best_peak = np.where(best.fits, best.peak_accelerators, np.inf)
    return (meets & np.logical_not(best_meets)) | ((meets == best_meets) & (peak < best_peak))


def choose(options: list[s.ServingFigures], considered: list[Flag]) -> s.ServingFigures:
    """Of the replica sizes considered (smallest first), the one with the fewest accelerators
    at peak among those that fit and meet the latency targets; if none meets them, among those
    that fit (ties: the smaller replica). Its figures, with every option in `options`."""
    best = options[0]
    for option in options[1:]:
        best = _pick(_better(option, best), option, best)
    summary = tuple(
        s.ReplicaOption(
            considered=_unwrap(np.asarray(runs)),
            accelerators_per_replica=option.accelerators_per_replica,
            tensor_parallel=option.tensor_parallel,
            pipeline_parallel=option.pipeline_parallel,
            fits=option.fits,
            meets_targets=option.meets_targets,
            batch_size=option.batch_size,
            output_tokens_per_second=option.output_tokens_per_second,
            replicas_at_peak=option.replicas_at_peak,
            peak_accelerators=option.peak_accelerators,
        )
        for option, runs in zip(options, considered, strict=True)
    )
    fits = options[0].fits
    for option in options[1:]:
        fits = fits | option.fits
    return replace(best, fits=_unwrap(np.asarray(fits)), options=summary)


def _pick(condition: Flag, option: s.ServingFigures, best: s.ServingFigures) -> s.ServingFigures:
    if not isinstance(condition, np.ndarray):
        return option if condition else best
    return s.ServingFigures(
        **{
            name: _unwrap(np.where(condition, getattr(option, name), getattr(best, name)))
            for name in s.PLAN_FIGURES
        }
    )


def _figures(
    m: ServingModel,
    weights: Quantity,
    usable: Quantity,
    tensor: Quantity,
    pipeline: Quantity,
    considered: Flag,
    arrival_rate: Quantity,
    target_utilization: Quantity,
) -> s.ServingFigures:
    accelerators = tensor * pipeline
    shards = s.kv_shards(tensor, m.kv_heads)
    fits = considered & s.replica_fits(
        weights,
        m.kv_full,
        m.input_tokens + m.output_tokens,
        tensor,
        pipeline,
        shards,
        usable,
        m.overhead_bytes,
    )
    kv_per_accelerator = m.kv_bytes_per_token / (pipeline * shards)  # bytes per token
    room = usable - weights / accelerators - m.overhead_bytes
    capacity = np.floor(room / kv_per_accelerator)
    mean_context = m.input_tokens + m.output_tokens / 2.0
    by_memory = np.floor(capacity / mean_context)

    def step_at(batch: Quantity) -> s.StepCoefficients:
        return s.step_coefficients(
            s.weights_read_bytes(
                m.total_parameters,
                m.active_parameters,
                m.bytes_per_parameter,
                m.expert_share,
                batch,
            ),
            m.kv_bytes_per_token,
            mean_context,
            m.active_parameters,
            tensor,
            pipeline,
            shards,
            np.where(np.isnan(m.layers), 0.0, m.layers),
            m.hidden_size,
            m.bandwidth,
            m.memory_efficiency,
            m.peak_flops,
            m.utilization,
            m.link_bytes_per_second,
        )

    def prefill(over: Quantity) -> Quantity:
        return s.prefill_seconds(
            m.active_parameters,
            m.input_tokens,
            m.attention_flop_per_token_squared,
            weights,
            over,
            m.peak_flops,
            m.utilization,
            m.bandwidth,
            m.memory_efficiency,
        )

    ttft_prefill, busy_prefill = prefill(tensor), prefill(accelerators)
    # A mixture of experts reads most at the largest batch: solving the targets there is safe.
    widest = step_at(by_memory)
    by_target = np.floor(
        s.largest_batch_within(widest, _seconds_per_token_allowed(m, ttft_prefill))
    )
    batch = np.maximum(1.0, np.minimum(by_memory, by_target))
    step = widest if m.expert_share is None else replace(widest, memory=step_at(batch).memory)
    tpot = s.time_per_output_token(step, batch)
    compute_bound = step.compute_per_sequence * batch >= step.memory + (
        step.memory_per_sequence * batch
    )
    limited_by = np.where(
        by_target < by_memory, s.LATENCY_TARGET, np.where(compute_bound, s.COMPUTE, s.MEMORY)
    )
    decode_rate = batch / tpot
    tokens_per_second = s.output_tokens_per_second(decode_rate, m.output_tokens, busy_prefill)
    requests_per_second = tokens_per_second / m.output_tokens
    ttft = ttft_prefill + tpot
    replicas = s.replicas_needed(arrival_rate, requests_per_second, target_utilization)

    def known(value: Quantity) -> Quantity:
        return _unwrap(np.asarray(value, dtype=np.float64))

    return s.ServingFigures(
        fits=_unwrap(np.asarray(fits)),
        meets_targets=_unwrap(np.asarray(fits & _meets_targets(m, ttft, tpot))),
        limited_by=known(limited_by),
        weights_bytes=_unwrap(np.asarray(weights, dtype=np.float64)),
        kv_cache_bytes_per_token=_unwrap(np.asarray(m.kv_bytes_per_token, dtype=np.float64)),
        accelerators_per_replica=known(accelerators),
        tensor_parallel=known(tensor),
        pipeline_parallel=known(pipeline),
        memory_per_accelerator_bytes=known(
            weights / accelerators + m.overhead_bytes + batch * mean_context * kv_per_accelerator
        ),
        usable_memory_per_accelerator_bytes=_unwrap(np.asarray(usable, dtype=np.float64)),
        kv_cache_capacity_tokens=known(capacity),
        max_concurrent_requests=known(by_memory),
        batch_size=known(batch),
        output_tokens_per_second=known(tokens_per_second),
        requests_per_second=known(requests_per_second),
        prefill_seconds=known(ttft_prefill),
        ttft_seconds=known(ttft),
        tpot_seconds=known(tpot),
        wait_seconds=known(ttft + m.output_tokens * tpot),
        replicas_at_peak=known(replicas),
        peak_accelerators=known(replicas * accelerators),
        accelerator_seconds_per_request=known(accelerators / requests_per_second),
    )
