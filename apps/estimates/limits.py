"""Accepted range of every input number, and the plain-language message for a value outside it:
the Rule for one number, the two kinds of rule many inputs share (a share of 1, a whole number),
then every input's rule."""

from dataclasses import dataclass

import numpy as np

from apps.estimates.messages import Message, _, number


@dataclass(frozen=True)
class Rule:
    """The accepted range of one number, and the message shown when a value falls outside it.

    Upper bounds, and floors slightly above 0 for shares and divisors, are chosen so that no
    valid combination can overflow a float (1.8e308) or divide by zero; the worst case stays
    below about 1e300 (tests/unit/estimates/test_estimate_validation.py checks the extremes).
    """

    label: Message
    low: float
    high: float
    message: Message
    zero_allowed: bool = False  # 0 accepted below `low` (e.g. "no revenue")
    low_open: bool = False
    whole: bool = False

    def accepts(self, values: np.ndarray) -> bool:
        if values.size and not (self.zero_allowed or self.whole):
            # The smallest and the largest value decide, in two passes without a temporary
            # array (a NaN makes both NaN, which fails both comparisons, as it fails below).
            smallest, largest = values.min(), values.max()
            above = (smallest > self.low) if self.low_open else (smallest >= self.low)
            return bool(above and largest <= self.high)
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


def share_rule(label: Message, typical_low: float, typical_high: float) -> Rule:
    return Rule(
        label,
        0.001,
        1.0,
        _(
            "%(label)s must be more than 0 (at least 0.001) and at most 1 (typical "
            "%(typical_low)s–%(typical_high)s).",
            label=label,
            typical_low=number(typical_low, "plain"),
            typical_high=number(typical_high, "plain"),
        ),
    )


def whole_rule(label: Message, low: int, high: int) -> Rule:
    return Rule(
        label,
        float(low),
        float(high),
        _(
            "%(label)s must be a whole number from %(low)s to %(high)s.",
            label=label,
            low=number(low, "whole"),
            high=number(high, "whole"),
        ),
        whole=True,
    )


RULES = {
    "peak_flops_per_second": Rule(
        _("Peak FLOP/s"),
        1e9,
        1e21,
        _(
            "Peak FLOP/s must be between 1e9 (1 GFLOP/s) and 1e21 per accelerator "
            "(catalogue TFLOP/s × 10^12)."
        ),
    ),
    "memory_bandwidth_bytes_per_second": Rule(
        _("Memory bandwidth"),
        1e9,
        1e16,
        _("Memory bandwidth must be between 1e9 bytes/s (1 GB/s) and 1e16 bytes/s (10 PB/s)."),
    ),
    "power_watts": Rule(
        _("Power"), 0.0, 1e6, _("Power must be between 0 and 1,000,000 watts per accelerator.")
    ),
    "pue": Rule(
        _("PUE"),
        1.0,
        10.0,
        _(
            "PUE must be at least 1 (no facility overhead) and at most 10; "
            "typical data centres are 1.1–1.6."
        ),
    ),
    "kg_co2e_per_kwh": Rule(
        _("Grid carbon intensity"),
        0.0,
        10.0,
        _(
            "Grid carbon intensity must be between 0 and 10 kg CO2e per kWh "
            "(coal power is about 1)."
        ),
    ),
    "electricity_price_per_kwh": Rule(
        _("Electricity price"),
        0.0,
        1e6,
        _("Electricity price must be between 0 and 1,000,000 per kWh."),
    ),
    "price_per_accelerator_hour": Rule(
        _("Price per accelerator-hour"),
        0.0,
        1e7,
        _("Price per accelerator-hour must be between 0 and 10,000,000."),
    ),
    "purchase_price": Rule(
        _("Purchase price"),
        0.0,
        1e10,
        _("Purchase price must be between 0 and 10,000,000,000 per accelerator."),
    ),
    "lifetime_years": Rule(
        _("Lifetime"),
        0.01,
        50.0,
        _(
            "Lifetime must be more than 0 (at least 0.01 years) and at most 50 years; "
            "accelerators are usually written off over 3–5 years."
        ),
    ),
    "utilization_of_owned": share_rule(_("Utilisation of owned accelerators"), 0.5, 0.8),
    "parameters": Rule(
        _("Parameters"),
        0.0,
        1e15,
        _("Parameters must be between 0 and 1e15 (a thousand trillion)."),
    ),
    "tokens": Rule(_("Tokens"), 0.0, 1e17, _("Training tokens must be between 0 and 1e17.")),
    "flop_per_parameter_token": Rule(
        _("FLOP per parameter per token"),
        0.0,
        100.0,
        _(
            "FLOP per parameter per token must be between 0 and 100 "
            "(6 for full training, 8 with activation recomputation)."
        ),
    ),
    "runs": Rule(
        _("Runs"),
        1.0,
        1e4,
        _("Runs must be at least 1 and at most 10,000; count failed and experimental runs too."),
    ),
    "total_flop": Rule(_("Total FLOP"), 0.0, 1e32, _("Total FLOP must be between 0 and 1e32.")),
    "accelerator_hours": Rule(
        _("Accelerator-hours"), 0.0, 1e12, _("Accelerator-hours must be between 0 and 1e12.")
    ),
    "accelerator_count": Rule(
        _("Accelerator count"),
        1.0,
        1e7,
        _("Accelerator count must be at least 1 and at most 10 million."),
    ),
    "mfu": share_rule(_("MFU"), 0.14, 0.5),  # Llama 3.1 8B's to a well-tuned large run's
    "goodput": share_rule(_("Goodput"), 0.85, 1),
    "accelerator_seconds_per_request": Rule(
        _("Accelerator-seconds per request"),
        0.0,
        1e6,
        _("Accelerator-seconds per request must be between 0 and 1,000,000."),
    ),
    "input_tokens": Rule(
        _("Input tokens"), 0.0, 1e7, _("Input tokens per request must be between 0 and 10 million.")
    ),
    "output_tokens": Rule(
        _("Output tokens"),
        0.0,
        1e7,
        _("Output tokens per request must be between 0 and 10 million."),
    ),
    "reasoning_tokens": Rule(
        _("Reasoning tokens"),
        0.0,
        1e7,
        _("Reasoning tokens per request must be between 0 and 10 million."),
    ),
    "bytes_per_parameter": Rule(
        _("Bytes per parameter"),
        0.0,
        8.0,
        _("Bytes per parameter must be between 0 and 8 (2 for bf16, 1 for fp8 or int8)."),
    ),
    "utilization": share_rule(_("Serving utilisation of peak FLOP/s"), 0.1, 0.5),
    "latency_seconds": Rule(
        _("Latency"), 0.0, 1e6, _("Latency must be between 0 and 1,000,000 seconds per request.")
    ),
    "requests_per_month": Rule(
        _("Requests per month"), 0.0, 1e13, _("Requests per month must be between 0 and 1e13.")
    ),
    "monthly_growth": Rule(
        _("Monthly growth"),
        -1.0,
        10.0,
        _(
            "Monthly growth must be more than −1 (−100%%) and at most 10 (+1,000%% a month); "
            "0.05 means 5%% a month."
        ),
        low_open=True,
    ),
    "months": Rule(
        _("Horizon"),
        1.0,
        240.0,
        _("The horizon must be a whole number of months from 1 to 240 (20 years)."),
        whole=True,
    ),
    "peak_to_average": Rule(
        _("Peak-to-average ratio"),
        1.0,
        1000.0,
        _("Peak-to-average ratio must be at least 1 (steady demand) and at most 1,000."),
    ),
    "target_utilization": share_rule(_("Target utilisation"), 0.6, 0.8),
    "revenue_per_request": Rule(
        _("Revenue per request"),
        1e-6,
        1e7,
        _("Revenue per request must be 0 or between 0.000001 and 10,000,000."),
        zero_allowed=True,
    ),
    "flop": Rule(_("Threshold"), 0.0, 1e40, _("A threshold must be between 0 and 1e40 FLOP.")),
    # Serving a language model
    "memory_bytes": Rule(
        _("Accelerator memory"),
        1e8,
        1e13,
        _("Accelerator memory must be between 0.1 GB and 10,000 GB."),
    ),
    "accelerators_per_node": whole_rule(_("Accelerators per node"), 1, 1024),
    "interconnect_bytes_per_second": Rule(
        _("Interconnect bandwidth"),
        1e8,
        1e15,
        _("Interconnect bandwidth must be between 0.1 GB/s and 1,000,000 GB/s per accelerator."),
    ),
    "total_parameters": Rule(
        _("Total parameters"),
        1.0,
        1e15,
        _("Total parameters must be between 1 and 1e15 (all experts of a mixture included)."),
    ),
    "layers": whole_rule(_("Layers"), 1, 10_000),
    "kv_heads": whole_rule(_("KV heads"), 1, 10_000),
    "head_dim": whole_rule(_("Head dimension"), 1, 100_000),
    "query_heads": whole_rule(_("Query heads"), 1, 10_000),
    "hidden_size": whole_rule(_("Hidden size"), 1, 10_000_000),
    "kv_latent_width": whole_rule(_("Latent KV width"), 1, 10_000_000),
    "sliding_window": whole_rule(_("Sliding window"), 1, 100_000_000),
    "sliding_window_layers": whole_rule(_("Sliding-window layers"), 1, 10_000),
    "experts_total": whole_rule(_("Experts in total"), 1, 100_000),
    "experts_active": whole_rule(_("Active experts"), 1, 100_000),
    "kv_cache_bytes_per_token": Rule(
        _("KV cache bytes per token"),
        1.0,
        1e10,
        _(
            "KV cache bytes per token must be between 1 and 1e10 "
            "(Llama 3.1 8B in bf16 takes 131,072)."
        ),
    ),
    "kv_cache_bytes_per_element": Rule(
        _("KV cache bytes per element"),
        0.125,
        8.0,
        _("KV cache bytes per element must be between 0.125 and 8 (2 for bf16, 1 for fp8)."),
    ),
    "memory_utilization": share_rule(_("Usable share of accelerator memory"), 0.85, 0.95),
    "memory_efficiency": share_rule(_("Achieved share of memory bandwidth"), 0.55, 0.8),
    "overhead_bytes_per_accelerator": Rule(
        _("Memory overhead per accelerator"),
        0.0,
        1e13,
        _("Memory overhead per accelerator must be between 0 and 1e13 bytes."),
    ),
    "accelerators_per_replica": whole_rule(_("Accelerators per replica"), 1, 100_000),
    "ttft_target_seconds": Rule(
        _("Time-to-first-token target"),
        1e-4,
        1e5,
        _("The time-to-first-token target must be between 0.0001 and 100,000 seconds."),
    ),
    "tpot_target_seconds": Rule(
        _("Time-per-output-token target"),
        1e-5,
        1e3,
        _("The time-per-output-token target must be between 0.00001 and 1,000 seconds."),
    ),
}


# The numbers an estimate request gives of the language model served and its targets.
REQUEST_SERVING_NUMBERS = (
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
    "kv_cache_bytes_per_element",
    "memory_utilization",
    "memory_efficiency",
    "accelerators_per_replica",
    "ttft_target_seconds",
    "tpot_target_seconds",
)

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
        # Of the served model, all but the three that have a default.
        *REQUEST_SERVING_NUMBERS,
    }
    - {"kv_cache_bytes_per_element", "memory_utilization", "memory_efficiency"}
)


# External model APIs priced per token, and fine-tuning through a vendor's API (issue 12).
RULES.update(
    {
        "cached_input_tokens": Rule(
            _("Cached input tokens"),
            0.0,
            1e7,
            _("Cached input tokens per request must be between 0 and 10 million."),
        ),
        "price_per_million_input_tokens": Rule(
            _("Price per million input tokens"),
            0.0,
            1e6,
            _("Price per million input tokens must be between 0 and 1,000,000."),
        ),
        "price_per_million_cached_input_tokens": Rule(
            _("Price per million cached input tokens"),
            0.0,
            1e6,
            _("Price per million cached input tokens must be between 0 and 1,000,000."),
        ),
        "price_per_million_output_tokens": Rule(
            _("Price per million output tokens"),
            0.0,
            1e6,
            _("Price per million output tokens must be between 0 and 1,000,000."),
        ),
        "batch_discount": Rule(
            _("Batch discount"),
            0.0,
            1.0,
            _("Batch discount is the share taken off, from 0 (none) to 1; 0.5 means half price."),
        ),
        "epochs": Rule(
            _("Epochs"),
            0.001,
            1e4,
            _("Epochs must be more than 0 (at least 0.001) and at most 10,000."),
        ),
        "price_per_million_training_tokens": Rule(
            _("Price per million training tokens"),
            0.0,
            1e6,
            _("Price per million training tokens must be between 0 and 1,000,000."),
        ),
    }
)
# Rented capacity bought on commitment (issue 23).
RULES.update(
    {
        "commitment_years": Rule(
            _("Commitment term"),
            1.0,
            3.0,
            _("The commitment term is 1 or 3 years."),
            whole=True,
        ),
        "upfront_share": Rule(
            _("Upfront share"),
            0.0,
            1.0,
            _(
                "The upfront share is the part of each term paid at its start, from 0 (all "
                "monthly) to 1 (all upfront)."
            ),
        ),
        "commitment_discount": Rule(
            _("Commitment discount"),
            0.0,
            0.99,
            _(
                "The commitment discount is the share taken off the on-demand price, from 0 to "
                "0.99; 0.4 means 40 %% off."
            ),
        ),
        "committed_accelerators": whole_rule(_("Committed accelerators"), 0, 1_000_000),
    }
)
OPTIONAL = OPTIONAL | {
    "commitment_discount",
    "committed_accelerators",
    "price_per_million_input_tokens",
    "price_per_million_cached_input_tokens",
    "price_per_million_output_tokens",
    "price_per_million_training_tokens",
}
