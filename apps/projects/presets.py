"""Starting points for a scenario, in the estimate request shape, with the reasoning behind them."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str | Promise
    summary: str | Promise
    inputs: dict


PRESETS = (
    Preset(
        slug="translation-assistant",
        name=_("Translation assistant (the worked example of the UN Learn AI glossary)"),
        # xgettext:no-python-format
        summary=_(
            "Fine-tuning uses 200 accelerator-hours; each translation about 2 accelerator-seconds; "
            "15,000 requests a month on rented H100s."
        ),
        inputs={
            "training": {
                "method": "accelerator_hours",
                "accelerator_hours": 200,
                "accelerator": "nvidia-h100-sxm",
                "accelerator_count": 8,
            },
            "inference": {
                "method": "accelerator_seconds",
                "accelerator_seconds_per_request": 2,
                "accelerator": "nvidia-h100-sxm",
                "requests_per_month": 15_000,
                "months": 12,
                "peak_to_average": 3,
            },
        },
    ),
    Preset(
        slug="fine-tune-7b",
        name=_("Fine-tune a 7B model and serve it on L4s"),
        # xgettext:no-python-format
        summary=_(
            "6 × 7 billion parameters × 2 billion tokens on eight A100s at 35% MFU, then "
            "100,000 requests a month of 500 input and 250 output tokens on L4s."
        ),
        inputs={
            "training": {
                "method": "parameters_tokens",
                "parameters": 7e9,
                "tokens": 2e9,
                "accelerator": "nvidia-a100-sxm-80gb",
                "accelerator_count": 8,
                "mfu": 0.35,
            },
            "inference": {
                "method": "tokens",
                "parameters": 7e9,
                "input_tokens": 500,
                "output_tokens": 250,
                "accelerator": "nvidia-l4",
                "requests_per_month": 100_000,
                "months": 12,
                "peak_to_average": 2,
            },
        },
    ),
    Preset(
        slug="pre-train-70b",
        name=_("Pre-train a 70B model"),
        # xgettext:no-python-format
        summary=_(
            "6 × 70 billion parameters × 15 trillion tokens (about 6.3 × 10²⁴ FLOP) on 2,048 "
            "H100s at 40% MFU and 90% goodput, then 10 million requests a month growing 5% a month."
        ),
        inputs={
            "training": {
                "method": "parameters_tokens",
                "parameters": 70e9,
                "tokens": 15e12,
                "accelerator": "nvidia-h100-sxm",
                "accelerator_count": 2048,
                "mfu": 0.4,
                "goodput": 0.9,
            },
            "inference": {
                "method": "tokens",
                "parameters": 70e9,
                "input_tokens": 1000,
                "output_tokens": 500,
                "accelerator": "nvidia-h100-sxm",
                "requests_per_month": 10_000_000,
                "monthly_growth": 0.05,
                "months": 24,
                "peak_to_average": 3,
            },
        },
    ),
    Preset(
        slug="chat-service-rented",
        name=_("Chat service on rented GPUs"),
        # xgettext:no-python-format
        summary=_(
            "No training: an open 8B model answers 2 million chats a month (800 tokens in, 400 "
            "out), growing 10% a month, on rented H100s kept always on, at $0.01 revenue a chat."
        ),
        inputs={
            "inference": {
                "method": "tokens",
                "parameters": 8e9,
                "input_tokens": 800,
                "output_tokens": 400,
                "accelerator": "nvidia-h100-sxm",
                "requests_per_month": 2_000_000,
                "monthly_growth": 0.1,
                "months": 24,
                "peak_to_average": 3,
                "provisioning": "always_on",
                "revenue_per_request": 0.01,
            },
        },
    ),
)
PRESETS_BY_SLUG = {preset.slug: preset for preset in PRESETS}
DEFAULT_PRESET = PRESETS[0]
