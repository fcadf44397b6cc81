"""The plain numbers a language model's serving plan needs (apps.estimates.serving_plan), from an
inference input: its KV cache per token (given, MLA or attention heads, sliding windows), its
attention and experts, and the accelerator's memory, bandwidth and links."""

import math

from apps.estimates.formulas import Quantity, decoded_tokens
from apps.estimates.inputs import InferenceInput
from apps.estimates.section_figures import NAN, number, optional
from apps.estimates.serving import kv_cache_bytes_per_token as kv_bytes_per_token
from apps.estimates.serving import kv_cache_bytes_per_token_latent, sliding_window_share
from apps.estimates.serving_plan import ServingModel


def _kv_cache(inference: InferenceInput) -> tuple[Quantity, Quantity]:
    """KV bytes per token (given, MLA or attention heads), and the heads it splits over."""
    layers, element = optional(inference.layers), number(inference.kv_cache_bytes_per_element)
    if inference.kv_latent_width is not None:
        computed = (
            None
            if layers is None
            else kv_cache_bytes_per_token_latent(layers, number(inference.kv_latent_width), element)
        )
        heads = 1.0  # one latent per token, kept whole by every tensor-parallel rank
    elif inference.kv_heads is not None:
        heads = number(inference.kv_heads)
        computed = (
            None
            if layers is None or inference.head_dim is None
            else kv_bytes_per_token(layers, heads, number(inference.head_dim), element)
        )
    else:
        computed, heads = None, math.inf
    given = optional(inference.kv_cache_bytes_per_token)
    return (computed if given is None else given), heads


def _windowed(inference: InferenceInput, kv: Quantity, tokens: Quantity) -> Quantity:
    """KV bytes per token of a sequence of `tokens` once its sliding-window layers keep only
    their window; `kv` unchanged without a window, or when the KV per token was given."""
    if (
        inference.sliding_window is None
        or inference.sliding_window_layers is None
        or inference.kv_cache_bytes_per_token is not None
        or inference.kv_latent_width is not None
        or inference.layers is None
    ):
        return kv
    return kv * sliding_window_share(
        number(inference.layers),
        number(inference.sliding_window_layers),
        number(inference.sliding_window),
        tokens,
    )


def serving_model(inference: InferenceInput) -> ServingModel:
    """The plain numbers `plan` needs, from an inference input that serves a language model."""
    hardware = inference.hardware
    kv, kv_heads = _kv_cache(inference)
    input_tokens = number(inference.input_tokens)
    # Reasoning tokens are decoded like the visible output: the serving plan counts both.
    output_tokens = decoded_tokens(
        number(inference.output_tokens), number(inference.reasoning_tokens)
    )
    kv_full = _windowed(inference, kv, input_tokens + output_tokens)
    kv = _windowed(inference, kv, input_tokens + output_tokens / 2.0)
    active = number(inference.parameters)
    layers = NAN if inference.layers is None else number(inference.layers)
    query_heads = NAN if inference.query_heads is None else number(inference.query_heads)
    head_dim = optional(inference.head_dim)
    attention = (
        0.0
        if inference.query_heads is None or head_dim is None or inference.layers is None
        else 2.0 * layers * query_heads * head_dim
    )
    hidden = optional(inference.hidden_size)
    if hidden is None:
        hidden = 0.0 if attention == 0.0 else query_heads * head_dim
    link = optional(hardware.interconnect_bytes_per_second)
    expert_share = (
        None
        if inference.experts_total is None
        else number(inference.experts_active) / number(inference.experts_total)
    )
    return ServingModel(
        total_parameters=active
        if inference.total_parameters is None
        else number(inference.total_parameters),
        active_parameters=active,
        bytes_per_parameter=number(inference.bytes_per_parameter),
        kv_bytes_per_token=kv,
        kv_heads=kv_heads,
        query_heads=query_heads,
        layers=layers,
        hidden_size=hidden,
        attention_flop_per_token_squared=attention,
        expert_share=expert_share,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        memory_bytes=number(hardware.memory_bytes),
        memory_utilization=number(inference.memory_utilization),
        overhead_bytes=number(inference.overhead_bytes_per_accelerator),
        accelerators_per_node=number(hardware.accelerators_per_node),
        bandwidth=number(hardware.memory_bandwidth_bytes_per_second),
        memory_efficiency=number(inference.memory_efficiency),
        peak_flops=number(hardware.peak_flops_per_second),
        utilization=number(inference.utilization),
        # Quoted for both directions; an all-reduce ring sends one way on each link.
        link_bytes_per_second=math.inf if link is None else link / 2.0,
        accelerators_per_replica=optional(inference.accelerators_per_replica),
        ttft_target_seconds=optional(inference.ttft_target_seconds),
        tpot_target_seconds=optional(inference.tpot_target_seconds),
        kv_bytes_per_token_full=kv_full,
        cached_input_tokens=number(inference.cached_input_tokens),
    )
