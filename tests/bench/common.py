"""What the benchmarks of `make bench` share: the repository on the import path, and printing."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PYTHON = sys.executable

# The ranged estimate the ranges and options benchmarks time: a 7B model trained on 2T tokens on
# 1,024 H100s and served on the same rented H100s (one price for both), with 90 % ranges on five
# inputs: training tokens, its utilisation, the accelerator-hour price, the demand and its growth.
RANGED_ESTIMATE = {
    "training": {
        "method": "parameters_tokens",
        "parameters": 7e9,
        "tokens": 2e12,
        "accelerator": "nvidia-h100-sxm",
        "accelerator_count": 1024,
        "price_per_accelerator_hour": 2.5,
    },
    "inference": {
        "method": "tokens",
        "parameters": 7e9,
        "input_tokens": 500,
        "output_tokens": 300,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 3e7,
        "monthly_growth": 0.05,
        "months": 24,
        "price_per_accelerator_hour": 2.5,
    },
    "ranges": {
        "training.tokens": {"low": 1e12, "high": 4e12},
        "training.mfu": {"low": 0.25, "high": 0.55},
        "training.price_per_accelerator_hour": {"low": 1.8, "high": 4.0},
        "inference.requests_per_month": {"low": 5e6, "high": 1e8},
        "inference.monthly_growth": {"low": -0.02, "high": 0.12},
    },
}


def say(text: str = "") -> None:
    print(text, flush=True)


def fmt_seconds(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"
