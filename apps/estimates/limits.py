"""Accepted range of every input number, and the plain-language message for a value outside it."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Rule:
    """The accepted range of one number, and the message shown when a value falls outside it.

    Upper bounds, and floors slightly above 0 for shares and divisors, are chosen so that no
    valid combination can overflow a float (1.8e308) or divide by zero; the worst case stays
    below about 1e300 (tests/unit/estimates/test_estimate_validation.py checks the extremes).
    """

    label: str
    low: float
    high: float
    message: str
    zero_allowed: bool = False  # 0 accepted below `low` (e.g. "no revenue")
    low_open: bool = False
    whole: bool = False

    def accepts(self, values: np.ndarray) -> bool:
        in_range = (values > self.low) if self.low_open else (values >= self.low)
        accepted = in_range & (values <= self.high)
        if self.zero_allowed:
            accepted |= values == 0
        if self.whole:
            accepted &= values == np.floor(values)
        # One np.all per rule keeps validation cheap on million-point sweeps.
        return bool(np.all(accepted))

    def accepts_number(self, value: float) -> bool:
        """`accepts` for one float, without the cost of an array (NaN and infinities fail)."""
        in_range = (value > self.low) if self.low_open else (value >= self.low)
        accepted = in_range and value <= self.high
        if self.zero_allowed:
            accepted = accepted or value == 0
        if self.whole:
            accepted = accepted and value.is_integer()
        return accepted


def _share(label: str, typical: str) -> Rule:
    return Rule(
        label,
        0.001,
        1.0,
        f"{label} must be more than 0 (at least 0.001) and at most 1 (typical {typical}).",
    )


def _whole(label: str, low: int, high: int) -> Rule:
    return Rule(
        label,
        float(low),
        float(high),
        f"{label} must be a whole number from {low:,} to {high:,}.",
        whole=True,
    )


RULES = {
    "peak_flops_per_second": Rule(
        "Peak FLOP/s",
        1e9,
        1e21,
        "Peak FLOP/s must be between 1e9 (1 GFLOP/s) and 1e21 per accelerator "
        "(catalogue TFLOP/s × 10^12).",
    ),
    "memory_bandwidth_bytes_per_second": Rule(
        "Memory bandwidth",
        1e9,
        1e16,
        "Memory bandwidth must be between 1e9 bytes/s (1 GB/s) and 1e16 bytes/s (10 PB/s).",
    ),
    "power_watts": Rule(
        "Power", 0.0, 1e6, "Power must be between 0 and 1,000,000 watts per accelerator."
    ),
    "pue": Rule(
        "PUE",
        1.0,
        10.0,
        "PUE must be at least 1 (no facility overhead) and at most 10; "
        "typical data centres are 1.1–1.6.",
    ),
    "kg_co2e_per_kwh": Rule(
        "Grid carbon intensity",
        0.0,
        10.0,
        "Grid carbon intensity must be between 0 and 10 kg CO2e per kWh (coal power is about 1).",
    ),
    "electricity_price_per_kwh": Rule(
        "Electricity price", 0.0, 1e6, "Electricity price must be between 0 and 1,000,000 per kWh."
    ),
    "price_per_accelerator_hour": Rule(
        "Price per accelerator-hour",
        0.0,
        1e7,
        "Price per accelerator-hour must be between 0 and 10,000,000.",
    ),
    "purchase_price": Rule(
        "Purchase price",
        0.0,
        1e10,
        "Purchase price must be between 0 and 10,000,000,000 per accelerator.",
    ),
    "lifetime_years": Rule(
        "Lifetime",
        0.01,
        50.0,
        "Lifetime must be more than 0 (at least 0.01 years) and at most 50 years; "
        "accelerators are usually written off over 3–5 years.",
    ),
    "utilization_of_owned": _share("Utilisation of owned accelerators", "0.5–0.8"),
    "parameters": Rule(
        "Parameters", 0.0, 1e15, "Parameters must be between 0 and 1e15 (a thousand trillion)."
    ),
    "tokens": Rule("Tokens", 0.0, 1e17, "Training tokens must be between 0 and 1e17."),
    "flop_per_parameter_token": Rule(
        "FLOP per parameter per token",
        0.0,
        100.0,
        "FLOP per parameter per token must be between 0 and 100 "
        "(6 for full training, 8 with activation recomputation).",
    ),
    "runs": Rule(
        "Runs",
        1.0,
        1e4,
        "Runs must be at least 1 and at most 10,000; count failed and experimental runs too.",
    ),
    "total_flop": Rule("Total FLOP", 0.0, 1e32, "Total FLOP must be between 0 and 1e32."),
    "accelerator_hours": Rule(
        "Accelerator-hours", 0.0, 1e12, "Accelerator-hours must be between 0 and 1e12."
    ),
    "accelerator_count": Rule(
        "Accelerator count",
        1.0,
        1e7,
        "Accelerator count must be at least 1 and at most 10 million.",
    ),
    "mfu": _share("MFU", "0.3–0.5"),
    "goodput": _share("Goodput", "0.85–1"),
    "accelerator_seconds_per_request": Rule(
        "Accelerator-seconds per request",
        0.0,
        1e6,
        "Accelerator-seconds per request must be between 0 and 1,000,000.",
    ),
    "input_tokens": Rule(
        "Input tokens", 0.0, 1e7, "Input tokens per request must be between 0 and 10 million."
    ),
    "output_tokens": Rule(
        "Output tokens", 0.0, 1e7, "Output tokens per request must be between 0 and 10 million."
    ),
    "bytes_per_parameter": Rule(
        "Bytes per parameter",
        0.0,
        8.0,
        "Bytes per parameter must be between 0 and 8 (2 for bf16, 1 for fp8 or int8).",
    ),
    "utilization": _share("Serving utilisation of peak FLOP/s", "0.1–0.5"),
    "latency_seconds": Rule(
        "Latency", 0.0, 1e6, "Latency must be between 0 and 1,000,000 seconds per request."
    ),
    "requests_per_month": Rule(
        "Requests per month", 0.0, 1e13, "Requests per month must be between 0 and 1e13."
    ),
    "monthly_growth": Rule(
        "Monthly growth",
        -1.0,
        10.0,
        "Monthly growth must be more than −1 (−100%) and at most 10 (+1,000% a month); "
        "0.05 means 5% a month.",
        low_open=True,
    ),
    "months": Rule(
        "Horizon",
        1.0,
        240.0,
        "The horizon must be a whole number of months from 1 to 240 (20 years).",
        whole=True,
    ),
    "peak_to_average": Rule(
        "Peak-to-average ratio",
        1.0,
        1000.0,
        "Peak-to-average ratio must be at least 1 (steady demand) and at most 1,000.",
    ),
    "target_utilization": _share("Target utilisation", "0.6–0.8"),
    "revenue_per_request": Rule(
        "Revenue per request",
        1e-6,
        1e7,
        "Revenue per request must be 0 or between 0.000001 and 10,000,000.",
        zero_allowed=True,
    ),
    "flop": Rule("Threshold", 0.0, 1e40, "A threshold must be between 0 and 1e40 FLOP."),
    # Serving a language model
    "memory_bytes": Rule(
        "Accelerator memory",
        1e8,
        1e13,
        "Accelerator memory must be between 0.1 GB and 10,000 GB.",
    ),
    "accelerators_per_node": _whole("Accelerators per node", 1, 1024),
    "interconnect_bytes_per_second": Rule(
        "Interconnect bandwidth",
        1e8,
        1e15,
        "Interconnect bandwidth must be between 0.1 GB/s and 1,000,000 GB/s per accelerator.",
    ),
    "total_parameters": Rule(
        "Total parameters",
        1.0,
        1e15,
        "Total parameters must be between 1 and 1e15 (all experts of a mixture included).",
    ),
    "layers": _whole("Layers", 1, 10_000),
    "kv_heads": _whole("KV heads", 1, 10_000),
    "head_dim": _whole("Head dimension", 1, 100_000),
    "query_heads": _whole("Query heads", 1, 10_000),
    "hidden_size": _whole("Hidden size", 1, 10_000_000),
    "kv_latent_width": _whole("Latent KV width", 1, 10_000_000),
    "sliding_window": _whole("Sliding window", 1, 100_000_000),
    "sliding_window_layers": _whole("Sliding-window layers", 1, 10_000),
    "experts_total": _whole("Experts in total", 1, 100_000),
    "experts_active": _whole("Active experts", 1, 100_000),
    "kv_cache_bytes_per_token": Rule(
        "KV cache bytes per token",
        1.0,
        1e10,
        "KV cache bytes per token must be between 1 and 1e10 (Llama 3.1 8B in bf16 takes 131,072).",
    ),
    "kv_cache_bytes_per_element": Rule(
        "KV cache bytes per element",
        0.125,
        8.0,
        "KV cache bytes per element must be between 0.125 and 8 (2 for bf16, 1 for fp8).",
    ),
    "memory_utilization": _share("Usable share of accelerator memory", "0.85–0.95"),
    "memory_efficiency": _share("Achieved share of memory bandwidth", "0.55–0.8"),
    "overhead_bytes_per_accelerator": Rule(
        "Memory overhead per accelerator",
        0.0,
        1e13,
        "Memory overhead per accelerator must be between 0 and 1e13 bytes.",
    ),
    "accelerators_per_replica": _whole("Accelerators per replica", 1, 100_000),
    "ttft_target_seconds": Rule(
        "Time-to-first-token target",
        1e-4,
        1e5,
        "The time-to-first-token target must be between 0.0001 and 100,000 seconds.",
    ),
    "tpot_target_seconds": Rule(
        "Time-per-output-token target",
        1e-5,
        1e3,
        "The time-per-output-token target must be between 0.00001 and 1,000 seconds.",
    ),
}


# Fields that may be None; every other number must be given.
OPTIONAL = frozenset(
    {
        "memory_bandwidth_bytes_per_second",
        "power_watts",
        "kg_co2e_per_kwh",
        "electricity_price_per_kwh",
        "price_per_accelerator_hour",
        "purchase_price",
        "parameters",
        "tokens",
        "total_flop",
        "accelerator_hours",
        "accelerator_seconds_per_request",
        "input_tokens",
        "output_tokens",
        "latency_seconds",
        "revenue_per_request",
        "memory_bytes",
        "accelerators_per_node",
        "interconnect_bytes_per_second",
        "total_parameters",
        "layers",
        "kv_heads",
        "head_dim",
        "query_heads",
        "hidden_size",
        "kv_latent_width",
        "sliding_window",
        "sliding_window_layers",
        "experts_total",
        "experts_active",
        "kv_cache_bytes_per_token",
        "accelerators_per_replica",
        "ttft_target_seconds",
        "tpot_target_seconds",
    }
)


# External model APIs priced per token, and fine-tuning through a vendor's API (issue 12).
RULES.update(
    {
        "cached_input_tokens": Rule(
            "Cached input tokens",
            0.0,
            1e7,
            "Cached input tokens per request must be between 0 and 10 million.",
        ),
        "price_per_million_input_tokens": Rule(
            "Price per million input tokens",
            0.0,
            1e6,
            "Price per million input tokens must be between 0 and 1,000,000.",
        ),
        "price_per_million_cached_input_tokens": Rule(
            "Price per million cached input tokens",
            0.0,
            1e6,
            "Price per million cached input tokens must be between 0 and 1,000,000.",
        ),
        "price_per_million_output_tokens": Rule(
            "Price per million output tokens",
            0.0,
            1e6,
            "Price per million output tokens must be between 0 and 1,000,000.",
        ),
        "batch_discount": Rule(
            "Batch discount",
            0.0,
            1.0,
            "Batch discount is the share taken off, from 0 (none) to 1; 0.5 means half price.",
        ),
        "epochs": Rule(
            "Epochs", 0.001, 1e4, "Epochs must be more than 0 (at least 0.001) and at most 10,000."
        ),
        "price_per_million_training_tokens": Rule(
            "Price per million training tokens",
            0.0,
            1e6,
            "Price per million training tokens must be between 0 and 1,000,000.",
        ),
    }
)
OPTIONAL = OPTIONAL | {
    "price_per_million_input_tokens",
    "price_per_million_cached_input_tokens",
    "price_per_million_output_tokens",
    "price_per_million_training_tokens",
}
