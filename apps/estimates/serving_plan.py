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
    whole nodes at the largest such degree, in the fewest pipeline stages that hold the model
    (at least two), within the stage limit. `considered` is False where a point cannot run the
    size; floats and arrays take the same steps.
    """
    sizes = []
    widest_node = np.max(m.accelerators_per_node)
    for degree in s.TENSOR_PARALLEL_DEGREES:
        if degree > widest_node:
            break
        runs = (degree <= m.accelerators_per_node) & _divides(m.query_heads, degree)
        sizes.append((degree, 1.0, runs))
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
    sizes.append((largest, fewest, fewest <= stage_limit))
    return sizes


def _fixed_replica(m: ServingModel) -> tuple:
    """The chosen g: t = g within a node, else the largest t and p = g / t; can it run?"""
    accelerators = m.accelerators_per_replica
    largest = largest_tensor_parallel(m.accelerators_per_node, m.query_heads)
    tensor = np.where(accelerators <= m.accelerators_per_node, accelerators, largest)
    pipeline = accelerators / tensor
    return tensor, pipeline, np.logical_not(pipeline > m.layers)


@dataclass(frozen=True)
class _Base:
    """What no replica size changes, worked out once per plan."""

    weights: Quantity  # bytes
    usable: Quantity  # bytes per accelerator
    mean_context: Quantity  # S̄, tokens
    full_request_kv: Quantity  # KV bytes of one full-length request
    prefill: Quantity  # seconds on one accelerator
    step: s.StepBases


def _base(m: ServingModel) -> _Base:
    weights = s.weights_bytes(m.total_parameters, m.bytes_per_parameter)
    mean_context = m.input_tokens + m.output_tokens / 2.0
    return _Base(
        weights=weights,
        usable=m.memory_bytes * m.memory_utilization,
        mean_context=mean_context,
        full_request_kv=m.kv_full * (m.input_tokens + m.output_tokens),
        prefill=s.prefill_seconds(
            m.active_parameters,
            m.input_tokens,
            m.attention_flop_per_token_squared,
            weights,
            m.peak_flops,
            m.utilization,
            m.bandwidth,
            m.memory_efficiency,
        ),
        step=s.step_bases(
            weights,  # a dense model reads all its weights each step; see _weights_read
            m.kv_bytes_per_token,
            mean_context,
            m.active_parameters,
            np.where(np.isnan(m.layers), 0.0, m.layers),
            m.hidden_size,
            m.bandwidth,
            m.memory_efficiency,
            m.peak_flops,
            m.utilization,
            m.link_bytes_per_second,
        ),
    )


def _weights_read(m: ServingModel, base: _Base, batch: Quantity) -> s.StepBases:
    """The step's bases with the weights a mixture of experts reads at batch B (dense: as is)."""
    if m.expert_share is None:
        return base.step
    read = s.weights_read_bytes(
        m.total_parameters, m.active_parameters, m.bytes_per_parameter, m.expert_share, batch
    )
    return replace(base.step, weights_read=read / (m.bandwidth * m.memory_efficiency))


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


@dataclass(frozen=True)
class _Served:
    """One replica size at the peak: what choosing needs, and what the figures are made of."""

    tensor: Quantity
    pipeline: Quantity
    accelerators: Quantity
    fits: Flag
    meets_targets: Flag
    kv_per_accelerator: Quantity  # bytes per token
    capacity: Quantity
    by_memory: Quantity
    by_target: Quantity
    batch: Quantity
    step: s.StepCoefficients
    ttft_prefill: Quantity
    ttft: Quantity
    tpot: Quantity
    tokens_per_second: Quantity
    requests_per_second: Quantity
    replicas: Quantity
    peak_accelerators: Quantity


def _serve(
    m: ServingModel,
    base: _Base,
    tensor: Quantity,
    pipeline: Quantity,
    considered: Flag,
    arrival_rate: Quantity,
    target_utilization: Quantity,
) -> _Served:
    accelerators = tensor * pipeline
    shards = s.kv_shards(tensor, m.kv_heads)
    kv_split = pipeline * shards
    weights_share = base.weights / accelerators
    # W / (t · p) + O + one full-length request's KV share ≤ M · u, on every accelerator.
    room = base.usable - weights_share - m.overhead_bytes
    fits = considered & (base.full_request_kv / kv_split <= room)
    kv_per_accelerator = m.kv_bytes_per_token / kv_split
    capacity = np.floor(room / kv_per_accelerator)
    by_memory = np.floor(capacity / base.mean_context)
    ttft_prefill = base.prefill / tensor
    # A mixture of experts reads most at the largest batch: solving the targets there is safe.
    widest = s.step_coefficients(_weights_read(m, base, by_memory), tensor, pipeline, shards)
    by_target = np.floor(
        s.largest_batch_within(widest, _seconds_per_token_allowed(m, ttft_prefill))
    )
    batch = np.maximum(1.0, np.minimum(by_memory, by_target))
    step = widest
    if m.expert_share is not None:
        step = s.step_coefficients(_weights_read(m, base, batch), tensor, pipeline, shards)
        step = replace(widest, memory=step.memory)
    tpot = s.time_per_output_token(step, batch)
    ttft = ttft_prefill + tpot
    tokens_per_second = s.output_tokens_per_second(
        batch / tpot, m.output_tokens, base.prefill / accelerators
    )
    requests_per_second = tokens_per_second / m.output_tokens
    replicas = s.replicas_needed(arrival_rate, requests_per_second, target_utilization)
    return _Served(
        tensor=tensor,
        pipeline=pipeline,
        accelerators=accelerators,
        fits=fits,
        meets_targets=fits & _meets_targets(m, ttft, tpot),
        kv_per_accelerator=kv_per_accelerator,
        capacity=capacity,
        by_memory=by_memory,
        by_target=by_target,
        batch=batch,
        step=step,
        ttft_prefill=ttft_prefill,
        ttft=ttft,
        tpot=tpot,
        tokens_per_second=tokens_per_second,
        requests_per_second=requests_per_second,
        replicas=replicas,
        peak_accelerators=replicas * accelerators,
    )


def plan(m: ServingModel, arrival_rate_per_second: Quantity, target_utilization: Quantity):
    """Every serving figure of `m` at the peak arrival rate (requests/s), as
    apps.estimates.serving.ServingFigures, for the given replica size or else the one chosen
    among the sizes a deployment would run (`_choose`). Where `fits` is False the replica
    figures mean nothing: read them through `fits` (masking them all here cost more than the
    plan itself)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        base = _base(m)

        def serve(tensor: Quantity, pipeline: Quantity, considered: Flag) -> _Served:
            return _serve(
                m, base, tensor, pipeline, considered, arrival_rate_per_second, target_utilization
            )

        if m.accelerators_per_replica is not None:
            return _figures(m, base, serve(*_fixed_replica(m)))
        sizes = _replica_sizes(m, base.weights, base.usable)
        options = [serve(*size) for size in sizes]
        tensor, pipeline = _choose(options)
        chosen = serve(tensor, pipeline, True)
        fits = options[0].fits
        for option in options[1:]:
            fits = fits | option.fits
        chosen = replace(chosen, fits=fits, meets_targets=chosen.meets_targets & fits)
        considered = [runs for *_, runs in sizes]
        return replace(_figures(m, base, chosen), options=_options(options, considered))


def _choose(options: list[_Served]) -> tuple[Quantity, Quantity]:
    """(t, p) of the size with the fewest accelerators at peak among those that fit and meet
    the latency targets; if none meets them, among those that fit. Ties keep the smaller (the
    options come smallest first)."""
    first = options[0]
    tensor, pipeline = first.tensor, first.pipeline
    meets, peak = first.meets_targets, np.where(first.fits, first.peak_accelerators, np.inf)
    for option in options[1:]:
        option_peak = np.where(option.fits, option.peak_accelerators, np.inf)
        better = (option.meets_targets & np.logical_not(meets)) | (
            (option.meets_targets == meets) & (option_peak < peak)
        )
        tensor = np.where(better, option.tensor, tensor)
        pipeline = np.where(better, option.pipeline, pipeline)
        meets = meets | option.meets_targets
        peak = np.where(better, option_peak, peak)
    return _unwrap(np.asarray(tensor)), _unwrap(np.asarray(pipeline))


def _options(options: list[_Served], considered: list[Flag]) -> tuple[s.ReplicaOption, ...]:
    def known(value: Quantity) -> Quantity:
        return _unwrap(np.asarray(value, dtype=np.float64))

    return tuple(
        s.ReplicaOption(
            considered=_unwrap(np.asarray(runs)),
            accelerators_per_replica=known(option.accelerators),
            tensor_parallel=known(option.tensor),
            pipeline_parallel=known(option.pipeline),
            fits=_unwrap(np.asarray(option.fits)),
            meets_targets=_unwrap(np.asarray(option.meets_targets)),
            batch_size=known(option.batch),
            output_tokens_per_second=known(option.tokens_per_second),
            replicas_at_peak=known(option.replicas),
            peak_accelerators=known(option.peak_accelerators),
        )
        for option, runs in zip(options, considered, strict=True)
    )


def _figures(m: ServingModel, base: _Base, served: _Served) -> s.ServingFigures:
    step, batch = served.step, served.batch
    compute_bound = step.compute_per_sequence * batch >= step.memory + (
        step.memory_per_sequence * batch
    )
    limited_by = np.where(
        served.by_target < served.by_memory,
        s.LATENCY_TARGET,
        np.where(compute_bound, s.COMPUTE, s.MEMORY),
    )

    def known(value: Quantity) -> Quantity:
        return _unwrap(np.asarray(value, dtype=np.float64))

    return s.ServingFigures(
        fits=_unwrap(np.asarray(served.fits)),
        meets_targets=_unwrap(np.asarray(served.meets_targets)),
        limited_by=known(limited_by),
        weights_bytes=known(base.weights),
        kv_cache_bytes_per_token=known(m.kv_bytes_per_token),
        accelerators_per_replica=known(served.accelerators),
        tensor_parallel=known(served.tensor),
        pipeline_parallel=known(served.pipeline),
        memory_per_accelerator_bytes=known(
            base.weights / served.accelerators
            + m.overhead_bytes
            + batch * base.mean_context * served.kv_per_accelerator
        ),
        usable_memory_per_accelerator_bytes=known(base.usable),
        kv_cache_capacity_tokens=known(served.capacity),
        max_concurrent_requests=known(served.by_memory),
        batch_size=known(batch),
        output_tokens_per_second=known(served.tokens_per_second),
        requests_per_second=known(served.requests_per_second),
        prefill_seconds=known(served.ttft_prefill),
        ttft_seconds=known(served.ttft),
        tpot_seconds=known(served.tpot),
        wait_seconds=known(served.ttft + m.output_tokens * served.tpot),
        replicas_at_peak=known(served.replicas),
        peak_accelerators=known(served.peak_accelerators),
        accelerator_seconds_per_request=known(served.accelerators / served.requests_per_second),
    )
