"""The scenario form as a workspace: the few inputs that matter most open, the rest folded under
"More assumptions" whose summary gives their values in one line, and ranges shown per section."""

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext

# The inputs a new manager changes first, shown open in each section; every other input of the
# section is folded under "More assumptions" (opened by itself when one of them has an error).
MAIN_FIELDS = frozenset(
    {
        "training_enabled",
        "training_method",
        "training_parameters",
        "training_tokens",
        "training_total_flop",
        "training_accelerator_hours",
        "training_price_per_million_training_tokens",
        "training_accelerator",
        "training_pricing_mode",
        "inference_enabled",
        "inference_method",
        "inference_accelerator_seconds_per_request",
        "inference_model",
        "inference_api_model",
        "inference_input_tokens",
        "inference_output_tokens",
        "inference_accelerator",
        "inference_requests_per_month",
        "inference_monthly_growth",
        "inference_provisioning",
        "inference_pricing_mode",
    }
)
SUMMARY_VALUES_SHOWN = 6  # a folded section's line names this many values, then "…"


def shown_value(field: BoundField) -> str:
    """The value a field holds as its widget draws it: a choice's label, a number as typed."""
    value = field.value()
    if value in (None, "", [], False):
        return ""
    if value is True:
        return gettext("yes")
    choices = dict((str(key), label) for key, label in getattr(field.field, "choices", ()))
    if choices:
        return str(choices.get(str(value), value))
    return str(field.field.prepare_value(value) if hasattr(field.field, "scale") else value)


def values_line(items: list[dict], method: str | None = None) -> str:
    """ "Label: value · Label: value …": the values folded away, those the method uses."""
    parts = []
    for item in items:
        methods = item.get("methods", "").split()
        if method and methods and method not in methods:
            continue
        text = shown_value(item["field"])
        if text:
            parts.append(f"{item['field'].label}: {text}")
    line = " · ".join(parts[:SUMMARY_VALUES_SHOWN])
    return f"{line} …" if len(parts) > SUMMARY_VALUES_SHOWN else line


def has_errors(items: list[dict]) -> bool:
    """Whether a field, or one end of its range, refuses what was typed."""
    for item in items:
        if item["field"].errors:
            return True
        pair = item.get("range")
        if pair and (pair["low"].errors or pair["high"].errors):
            return True
    return False


def has_range(items: list[dict]) -> bool:
    """Whether a range of these fields holds something (its disclosure is drawn open)."""
    return any(item.get("range") and item["range"]["disclosure"].open for item in items)


def folded(form: forms.Form, groups: list[dict]) -> list[dict]:
    """Each section's fields split into `main` (open) and `more` (folded, with `more_summary`
    and `more_open`), and whether its ranges are shown at first (`ranges_shown`)."""
    for group in groups:
        method = form[f"{group['key']}_method"].value()
        group["main"] = [i for i in group["fields"] if i["field"].name in MAIN_FIELDS]
        group["more"] = [i for i in group["fields"] if i["field"].name not in MAIN_FIELDS]
        group["more_summary"] = values_line(group["more"], method)
        # Open when one of its inputs refuses what was typed or holds a range: neither is hidden.
        group["more_open"] = has_errors(group["more"]) or has_range(group["more"])
        group["ranges_shown"] = has_range(group["fields"])
    return groups


def timing_and_energy(form: forms.Form) -> dict:
    """The folded "Timing and energy" section: its fields, values line and whether it opens."""
    items = [
        {"field": form[name]} for name in ("training_start", "service_start", "energy_profile")
    ]
    return {"fields": items, "summary": values_line(items), "open": has_errors(items)}
