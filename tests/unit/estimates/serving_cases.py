"""Language models and accelerators for the serving tests, with figures from their configs."""

from dataclasses import replace

from apps.estimates import EstimateInput, Hardware, InferenceInput, Pricing

# H100 SXM: 80 GB, 3.35 TB/s, 989 TFLOP/s dense bf16 (1,979 fp8), 8 per HGX node, NVLink 900 GB/s.
H100 = Hardware(
    peak_flops_per_second=989e12,
    memory_bandwidth_bytes_per_second=3.35e12,
    power_watts=700.0,
    memory_bytes=80e9,
    accelerators_per_node=8,
    interconnect_bytes_per_second=900e9,
)
H100_FP8 = replace(H100, peak_flops_per_second=1979e12)

# (total parameters, layers, query heads, KV heads, head dimension, hidden size)
LLAMA_31_8B = {
    "parameters": 8.03e9,
    "layers": 32,
    "query_heads": 32,
    "kv_heads": 8,
    "head_dim": 128,
    "hidden_size": 4096,
}
LLAMA_33_70B = {
    "parameters": 70.6e9,
    "layers": 80,
    "query_heads": 64,
    "kv_heads": 8,
    "head_dim": 128,
    "hidden_size": 8192,
}
LLAMA_31_405B = {
    "parameters": 405.9e9,
    "layers": 126,
    "query_heads": 128,
    "kv_heads": 8,
    "head_dim": 128,
    "hidden_size": 16384,
}
# DeepSeek-V3: 671 B in total, 37 B active; MLA latent 512 + rope 64; 256 routed experts, 8 active.
DEEPSEEK_V3 = {
    "parameters": 37e9,
    "total_parameters": 671e9,
    "layers": 61,
    "query_heads": 128,
    "head_dim": 192,
    "hidden_size": 7168,
    "kv_latent_width": 576,
    "experts_total": 256,
    "experts_active": 8,
}


def serving_input(
    model: dict,
    hardware: Hardware = H100,
    *,
    input_tokens: float = 1000,
    output_tokens: float = 1000,
    bytes_per_parameter: float = 2.0,
    **overrides,
) -> EstimateInput:
    return EstimateInput(
        inference=InferenceInput(
            method="tokens",
            hardware=hardware,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            bytes_per_parameter=bytes_per_parameter,
            **{
                "requests_per_month": 10_000_000,
                "pricing": Pricing(price_per_accelerator_hour=2.5),
                **model,
                **overrides,
            },
        )
    )
