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
    input_tokens: Quantity  # all of them, the cached ones included (their KV is held)
    output_tokens: Quantity  # decoded: the visible output and the reasoning tokens
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
    cached_input_tokens: Quantity = 0.0  # of input_tokens, from a prefix cache: no prefill

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


def _derived_replica(m: ServingModel, weights: Quantity, usable: Quantity) -> tuple:
    """Smallest t within a node that fits, else the largest t and the fewest stages p that do.

    Every degree is tried on every point (np.where keeps the first that fits), so floats and
    arrays take the same steps.
    """
    full = m.input_tokens + m.output_tokens
    found, chosen, largest = False, NAN, 1.0
    widest_node = np.max(m.accelerators_per_node)
    for degree in s.TENSOR_PARALLEL_DEGREES:
        # Skipping a degree no point can take, or once every point has fitted, changes nothing.
        if degree > widest_node or np.all(found):
            break
        valid = (degree <= m.accelerators_per_node) & _divides(m.query_heads, degree)
        largest = np.where(valid, degree, largest)
        fits = valid & s.replica_fits(
            weights,
            m.kv_full,
            full,
            degree,
            1.0,
            s.kv_shards(degree, m.kv_heads),
            usable,
            m.overhead_bytes,
        )
        chosen = np.where(fits & np.logical_not(found), degree, chosen)
        found = found | fits
    stages = s.pipeline_stages_needed(
        weights,
        m.kv_full,
        full,
        largest,
        s.kv_shards(largest, m.kv_heads),
        usable,
        m.overhead_bytes,
    )
    stage_limit = np.fmin(s.MAX_PIPELINE_STAGES, m.layers)  # fmin: NaN layers, no limit
    tensor = np.where(found, chosen, largest)
    pipeline = np.where(found, 1.0, stages)
    return tensor, pipeline, found | (stages <= stage_limit)


def _fixed_replica(m: ServingModel, weights: Quantity, usable: Quantity) -> tuple:
    """The chosen g: t = g within a node, else the largest t and p = g / t. Does it fit?"""
    accelerators = m.accelerators_per_replica
    largest = largest_tensor_parallel(m.accelerators_per_node, m.query_heads)
    tensor = np.where(accelerators <= m.accelerators_per_node, accelerators, largest)
    pipeline = accelerators / tensor
    fits = s.replica_fits(
        weights,
        m.kv_full,
        m.input_tokens + m.output_tokens,
        tensor,
        pipeline,
        s.kv_shards(tensor, m.kv_heads),
        usable,
        m.overhead_bytes,
    )
    return tensor, pipeline, fits & np.logical_not(pipeline > m.layers)


def _seconds_per_token_allowed(m: ServingModel, ttft_prefill: Quantity) -> Quantity:
    """The TPOT the targets leave: the TPOT target, and the TTFT target less the prefill (a new
    request waits for the running decode step, then is prefilled); inf without targets."""
    allowed = math.inf
    if m.tpot_target_seconds is not None:
        allowed = m.tpot_target_seconds
    if m.ttft_target_seconds is not None:
        allowed = np.minimum(allowed, m.ttft_target_seconds - ttft_prefill)
    return allowed


def plan(m: ServingModel, arrival_rate_per_second: Quantity, target_utilization: Quantity):
    """Every serving figure of `m` at the peak arrival rate (requests/s), as
    apps.estimates.serving.ServingFigures. Where `fits` is False the replica figures mean
    nothing: read them through `fits` (masking them all here cost more than the plan itself)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _plan(m, arrival_rate_per_second, target_utilization)


def _plan(m: ServingModel, arrival_rate: Quantity, target_utilization: Quantity):
    weights = s.weights_bytes(m.total_parameters, m.bytes_per_parameter)
    usable = m.memory_bytes * m.memory_utilization
    if m.accelerators_per_replica is None:
        tensor, pipeline, fits = _derived_replica(m, weights, usable)
    else:
        tensor, pipeline, fits = _fixed_replica(m, weights, usable)
    accelerators = tensor * pipeline
    shards = s.kv_shards(tensor, m.kv_heads)
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
            m.cached_input_tokens,
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
