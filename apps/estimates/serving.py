"""Serving capacity of a language model: memory fit, replica size, KV cache, batching, latency.

Written once for floats and NumPy arrays alike, as the rest of the engine. Symbols follow
/work/shared/design/SERVING.md: W weights bytes, t tensor-parallel degree, p pipeline stages,
g = t · p accelerators per replica (one copy of the model), M accelerator memory in bytes
(GB = 10^9 bytes, as vendors quote it), u usable share of it, O per-accelerator overhead
(runtime, activation peak), S̄ = S_in + S_out / 2 the mean context while decoding.

Calibration (tests/unit/estimates/test_serving_calibration.py): with the defaults
(memory_efficiency 0.7, utilization 0.3, memory_utilization 0.9, 2 GiB overhead) the model's
output tokens/s per replica is within 20 % of TensorRT-LLM's published offline throughput on
H100 SXM in FP8 with an FP8 KV cache at 1000 input / 1000 output tokens for Llama 3.1 8B (TP1,
15,220 tok/s; model ~13,400), Llama 3.3 70B (TP2, 4,205; model ~4,200) and Llama 3.1 405B (TP8,
2,919; model ~2,900) (TensorRT-LLM docs/source/performance/perf-overview.md, v1.0, 2025). For
prefill-heavy loads (2048 in / 128 out) it reads low, about half the published figure, because
prefill achieves more of peak than the 0.3 used for decode: treat those figures as conservative.
"""

from dataclasses import dataclass

import numpy as np

from apps.estimates.formulas import Flag, Quantity, _unwrap

# Tensor-parallel degrees tried within one node; a replica past one node adds pipeline stages.
TENSOR_PARALLEL_DEGREES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
# The largest replica derived: this many pipeline stages (about one node each).
MAX_PIPELINE_STAGES = 16.0
GIB = 2.0**30
DEFAULT_OVERHEAD_BYTES = 2.0 * GIB
ALL_REDUCE_LATENCY_SECONDS = 5e-6  # one small all-reduce inside a node (NVLink class)
ACTIVATION_BYTES = 2.0  # bf16 activations exchanged by the all-reduces

LIMITED_BY = ("memory", "compute", "latency_target")
MEMORY, COMPUTE, LATENCY_TARGET = 0.0, 1.0, 2.0


@dataclass(frozen=True)
class ReplicaOption:
    """One replica size considered: what a copy of that size would give at the peak.

    `considered` is False where a point cannot run the size (its tensor-parallel degree does
    not divide the query heads or exceeds the node; more stages than the limit); `fits` is False
    there too. Where `fits` is False the other figures mean nothing.
    """

    considered: Flag
    accelerators_per_replica: Quantity
    tensor_parallel: Quantity
    pipeline_parallel: Quantity
    fits: Flag
    meets_targets: Flag
    batch_size: Quantity
    output_tokens_per_second: Quantity
    replicas_at_peak: Quantity
    peak_accelerators: Quantity


@dataclass(frozen=True)
class ServingFigures:
    """Serving figures of one replica and of the fleet at peak.

    Bytes, tokens, seconds and requests per second; the replica figures are per copy of the
    model. `limited_by` is an index into LIMITED_BY. Where `fits` is False every figure but
    the weights, the KV bytes per token and the usable memory means nothing (mask with `fits`).
    """

    fits: Flag
    meets_targets: Flag  # fits, and within the TTFT and TPOT targets given
    limited_by: Quantity
    weights_bytes: Quantity
    kv_cache_bytes_per_token: Quantity  # whole model, one token
    accelerators_per_replica: Quantity
    tensor_parallel: Quantity
    pipeline_parallel: Quantity
    memory_per_accelerator_bytes: Quantity  # weights share + overhead + KV at the batch used
    usable_memory_per_accelerator_bytes: Quantity  # M · u
    kv_cache_capacity_tokens: Quantity
    max_concurrent_requests: Quantity
    batch_size: Quantity
    output_tokens_per_second: Quantity
    requests_per_second: Quantity
    prefill_seconds: Quantity
    ttft_seconds: Quantity
    tpot_seconds: Quantity
    wait_seconds: Quantity  # TTFT + output tokens · TPOT
    replicas_at_peak: Quantity
    peak_accelerators: Quantity
    accelerator_seconds_per_request: Quantity  # busy: g / μ
    # The replica sizes considered, smallest first, when none was given (else empty).
    options: tuple[ReplicaOption, ...] = ()


# Memory


def weights_bytes(total_parameters: Quantity, bytes_per_parameter: Quantity) -> Quantity:
    """W = N_total · b_w: every parameter is held, a mixture of experts' inactive ones included."""
    return total_parameters * bytes_per_parameter


def kv_cache_bytes_per_token(
    layers: Quantity, kv_heads: Quantity, head_dim: Quantity, bytes_per_element: Quantity
) -> Quantity:
    """KV bytes of one token = L · 2 · n_kv · d_h · b_kv (a key and a value per KV head).

    Multi-head, grouped-query and multi-query attention differ only in n_kv.
    """
    return layers * 2.0 * kv_heads * head_dim * bytes_per_element


def kv_cache_bytes_per_token_latent(
    layers: Quantity, latent_width: Quantity, bytes_per_element: Quantity
) -> Quantity:
    """KV bytes of one token with multi-head latent attention = L · (d_c + d_r) · b_kv."""
    return layers * latent_width * bytes_per_element


def sliding_window_share(
    layers: Quantity, window_layers: Quantity, window: Quantity, tokens: Quantity
) -> Quantity:
    """Share of the full-attention KV cache a sequence of S tokens holds when L_w of the L
    layers keep only the last W tokens: 1 − (L_w / L) · (1 − min(S, W) / S).

    1 for S ≤ W (the window holds everything); towards 1 − L_w / L for long sequences.
    """
    return 1.0 - window_layers / layers * (1.0 - np.minimum(tokens, window) / tokens)


def kv_shards(tensor_parallel: Quantity, kv_heads: Quantity) -> Quantity:
    """Ways the KV cache splits across tensor-parallel ranks = min(t, n_kv).

    Past n_kv the heads are replicated: each rank keeps a whole head (max(n_kv / t, 1) heads).
    """
    return np.minimum(tensor_parallel, kv_heads)


def pipeline_stages_needed(
    weights: Quantity,
    kv_bytes_per_token: Quantity,
    tokens_per_sequence: Quantity,
    tensor_parallel: Quantity,
    shards: Quantity,
    usable_bytes: Quantity,
    overhead_bytes: Quantity,
) -> Quantity:
    """Smallest p with (W / t + S · kv / shards) / p + O ≤ M · u; inf when O leaves no room."""
    room = usable_bytes - overhead_bytes
    needed = weights / tensor_parallel + kv_bytes_per_token * tokens_per_sequence / shards
    return _unwrap(np.where(room > 0, np.ceil(np.divide(needed, room)), np.inf))


# Time


def weights_read_bytes(
    total_parameters: Quantity,
    active_parameters: Quantity,
    bytes_per_parameter: Quantity,
    expert_share: Quantity | None,
    batch: Quantity,
) -> Quantity:
    """Weight bytes one decode step reads for a batch of B tokens.

    Dense: all of W. Mixture of experts with routed-expert share k/E: the shared part plus each
    routed expert touched by at least one token, b_w · (N_tot − R · (1 − k/E)^B) with
    R = (N_tot − N_act) / (1 − k/E) the routed parameters (independent routing): N_act at B = 1,
    towards N_tot as B grows. Without k/E, all of W (the most a step can read).
    """
    if expert_share is None:
        return total_parameters * bytes_per_parameter
    untouched = 1.0 - expert_share
    routed = (total_parameters - active_parameters) / untouched
    return (total_parameters - routed * np.power(untouched, batch)) * bytes_per_parameter


@dataclass(frozen=True)
class StepCoefficients:
    """TPOT(B) = max(memory + memory_per_sequence · B, compute_per_sequence · B)
    + communication + communication_per_sequence · B, in seconds."""

    memory: Quantity
    memory_per_sequence: Quantity
    compute_per_sequence: Quantity
    communication: Quantity
    communication_per_sequence: Quantity


@dataclass(frozen=True)
class StepBases:
    """The decode step's terms for one copy on a single accelerator, in seconds (per sequence
    where named so); `step_coefficients` splits them over t and p."""

    weights_read: Quantity  # W_read / (BW · η_m)
    kv_read_per_sequence: Quantity  # S̄ · kv / (BW · η_m)
    compute_per_sequence: Quantity  # 2 · N_act / (F · η_c)
    all_reduces: Quantity  # 2 · L all-reduce latencies
    activations_per_sequence: Quantity  # 2 · L · hidden · activation bytes / link


def step_bases(
    weights_read: Quantity,
    kv_bytes_per_token: Quantity,
    mean_context_tokens: Quantity,
    active_parameters: Quantity,
    layers: Quantity,
    hidden_size: Quantity,
    bandwidth: Quantity,
    memory_efficiency: Quantity,
    peak_flops: Quantity,
    utilization: Quantity,
    link_bytes_per_second: Quantity,
) -> StepBases:
    """The decode step of B sequences on one accelerator: reading the weights and each
    sequence's KV cache at the achieved bandwidth, 2 · N_act FLOP a sequence at the achieved
    FLOP/s; and what tensor parallelism would add, two all-reduces per layer (a latency each
    plus the sequence's activations over the link)."""
    effective_bandwidth = bandwidth * memory_efficiency
    return StepBases(
        weights_read=weights_read / effective_bandwidth,
        kv_read_per_sequence=mean_context_tokens * kv_bytes_per_token / effective_bandwidth,
        compute_per_sequence=2.0 * active_parameters / (peak_flops * utilization),
        all_reduces=2.0 * layers * ALL_REDUCE_LATENCY_SECONDS,
        activations_per_sequence=2.0
        * layers
        * hidden_size
        * ACTIVATION_BYTES
        / link_bytes_per_second,
    )


def step_coefficients(
    bases: StepBases, tensor_parallel: Quantity, pipeline_parallel: Quantity, shards: Quantity
) -> StepCoefficients:
    """Coefficients of the time per output token on the roofline, for B sequences decoding.

    With p stages the batch runs as p micro-batches of B / p, one per stage: a token waits p
    stage steps, so the weights term is W_read / t, the KV term B · S̄ · kv / (p · shards), and
    the compute term 2 · N_act · B / (t · p · F · η_c). Tensor parallelism adds two all-reduces
    per layer: a latency each plus the micro-batch's activations over the link (ring, 2(t−1)/t).
    """
    ring = 2.0 * (tensor_parallel - 1.0) / tensor_parallel
    return StepCoefficients(
        memory=bases.weights_read / tensor_parallel,
        memory_per_sequence=bases.kv_read_per_sequence / (pipeline_parallel * shards),
        compute_per_sequence=bases.compute_per_sequence / (tensor_parallel * pipeline_parallel),
        # (t > 1) is 0 or 1: no all-reduce without tensor parallelism (the ring term is 0 too).
        communication=(tensor_parallel > 1) * bases.all_reduces,
        communication_per_sequence=ring * bases.activations_per_sequence / pipeline_parallel,
    )


def time_per_output_token(step: StepCoefficients, batch: Quantity) -> Quantity:
    """TPOT(B) in seconds: the slower of reading (weights + KV) and computing, plus all-reduces."""
    reading = step.memory + step.memory_per_sequence * batch
    computing = step.compute_per_sequence * batch
    return (
        np.maximum(reading, computing)
        + step.communication
        + step.communication_per_sequence * batch
    )


def largest_batch_within(step: StepCoefficients, seconds_per_token: Quantity) -> Quantity:
    """The largest B (fractional) with TPOT(B) ≤ the given seconds; below 1 when none qualifies."""
    room = seconds_per_token - step.communication
    by_memory = (room - step.memory) / (step.memory_per_sequence + step.communication_per_sequence)
    by_compute = room / (step.compute_per_sequence + step.communication_per_sequence)
    return np.minimum(by_memory, by_compute)


def prefill_seconds(
    active_parameters: Quantity,
    input_tokens: Quantity,
    attention_flop_per_token_squared: Quantity,
    weights: Quantity,
    peak_flops: Quantity,
    utilization: Quantity,
    bandwidth: Quantity,
    memory_efficiency: Quantity,
) -> Quantity:
    """T_pf on one accelerator = max((2 · N_act · S_in + a · S_in²) / (F · η_c), W / (BW · η_m)).

    a = 2 · L · n_h · d_h, the causal attention's FLOP per squared input token (0 when the query
    heads are unknown). On n accelerators it takes T_pf / n: n = t for the time a request waits
    (its stages run one after another), n = g for the replica's busy time (the stages work on
    different requests).
    """
    flop = (
        2.0 * active_parameters * input_tokens
        + attention_flop_per_token_squared * input_tokens * input_tokens
    )
    return np.maximum(flop / (peak_flops * utilization), weights / (bandwidth * memory_efficiency))


def output_tokens_per_second(
    decode_tokens_per_second: Quantity, output_tokens: Quantity, busy_prefill_seconds: Quantity
) -> Quantity:
    """X = D · S_out / (S_out + D · T_pf): prefill and decode share the replica's time."""
    return (
        decode_tokens_per_second
        * output_tokens
        / (output_tokens + decode_tokens_per_second * busy_prefill_seconds)
    )


def replicas_needed(
    arrival_rate_per_second: Quantity, requests_per_second: Quantity, target_utilization: Quantity
) -> Quantity:
    """R = max(1, ceil(λ_peak / (ρ · μ))): at least one copy of the model stays up."""
    return np.maximum(
        1.0, np.ceil(arrival_rate_per_second / (target_utilization * requests_per_second))
    )
