"""A number's range behind a disclosure: whether it is drawn open, and what its summary says."""

from collections.abc import Callable
from dataclasses import dataclass, replace

from django import forms
from django.forms import BoundField
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from apps.words import formatting
from apps.words.formatting import Figure
from apps.words.numbers import percent_text
from apps.words.templatetags.figures import figure_html

CURRENCY = "USD"  # the form's prices are in US dollars, as their labels say

# A counted unit is written once, after the high end: "between 100 and 400 accelerator-hours".
COUNTED_UNITS = {
    "training_tokens": "tokens",
    "training_accelerator_hours": "accelerator-hours",
    "training_accelerator_count": "accelerators",
    "inference_accelerator_seconds_per_request": "accelerator-seconds",
    "inference_input_tokens": "tokens",
    "inference_output_tokens": "tokens",
    "inference_cached_input_tokens": "tokens",
    "inference_reasoning_tokens": "tokens",
    "inference_requests_per_month": "requests",
}
MONEY = frozenset(
    {
        "training_price_per_accelerator_hour",
        "training_purchase_price",
        "training_price_per_million_training_tokens",
        "inference_price_per_accelerator_hour",
        "inference_purchase_price",
        "inference_revenue_per_request",
        "inference_price_per_million_input_tokens",
        "inference_price_per_million_cached_input_tokens",
        "inference_price_per_million_output_tokens",
    }
)
SECONDS = frozenset(
    {"inference_ttft_target_seconds", "inference_tpot_target_seconds", "inference_latency_seconds"}
)
FLOP = frozenset({"training_total_flop"})


@dataclass(frozen=True)
class Disclosure:
    open: bool
    summary: SafeString


def _percent(share: float) -> Figure:
    """A share as a percentage with its digits ("0.5%"), not rounded to a whole percent as
    result figures are: a range's ends are what was typed."""
    shown = formatting.number(share * 100)
    return replace(
        shown, text=percent_text(shown.text), aria=percent_text(shown.aria), exact=repr(share)
    )


def _money(value: float) -> Figure:
    return formatting.money(value, CURRENCY)


def _written(field_name: str, field: forms.Field) -> Callable[[float], Figure]:
    if field_name in MONEY:
        return _money
    if field_name in SECONDS:
        return formatting.seconds
    if field_name in FLOP:
        return formatting.flop
    if getattr(field, "scale", 1) == 100:
        return _percent
    return formatting.number


def _ends(field_name: str, field: forms.Field, low: float, high: float) -> tuple[Figure, Figure]:
    """The two ends as the summary writes them, in the input's unit."""
    if unit := COUNTED_UNITS.get(field_name):
        return formatting.number(low), formatting.count(high, unit)
    written = _written(field_name, field)
    return written(low), written(high)


def _typed(end: BoundField) -> tuple[bool, float | None]:
    """Whether an end holds anything, and its value in the stored unit if it reads as a number
    (the text typed, or the initial value as the input shows it)."""
    value = end.value()
    if value is None or not str(value).strip():
        return False, None
    try:
        return True, end.field.to_python(value)
    except forms.ValidationError:
        return True, None


def disclosure(field: BoundField, low: BoundField, high: BoundField) -> Disclosure:
    """The disclosure of `field`'s range: open when either end holds something, when the range
    has an error, or when "Use a typical range" was just asked for this field (filled in, or
    why not beside the field), so that a closed one never hides a value."""
    (low_given, low_value), (high_given, high_value) = _typed(low), _typed(high)
    form = field.form
    typical_asked = form.is_bound and form.data.get("typical_range") == field.name
    is_open = bool(low_given or high_given or low.errors or high.errors or typical_asked)
    label = field.label
    if low_value is not None and high_value is not None:
        low_figure, high_figure = _ends(field.name, field.field, low_value, high_value)
        summary = format_html(
            gettext(
                'Range<span class="visually-hidden"> for {label}</span>: between {low} and {high}'
            ),
            label=label,
            low=figure_html(low_figure),
            high=figure_html(high_figure),
        )
    elif low_given or high_given:
        summary = format_html(
            gettext('Range<span class="visually-hidden"> for {label}</span>: not complete'),
            label=label,
        )
    else:
        summary = format_html(
            gettext(
                'Add a range<span class="visually-hidden"> for {label}</span> '
                "({share} sure between … and …)"
            ),
            label=label,
            share=percent_text("90"),
        )
    return Disclosure(open=is_open, summary=summary)
