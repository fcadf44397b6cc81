"""The scenario form's methods that go through a vendor's API: inference by an external model API
priced per token (`external_api`) and fine-tuning through a vendor's API (`api_fine_tune`).

Kept apart from the form so that the form only calls in: `add_api_fields` adds the method
choices and fields (the form adds API_NUMBER_FIELDS with its other numbers), `api_section_values`
builds the request's section for these methods, and `with_api_fields` places the fields in the
form's sections, marks which fields each method uses (so the page shows only those), and where
the data warning goes (beside the method chosen).
"""

import functools
import json

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from apps.apiprices.loading import PRICES_FILE
from apps.apiprices.models import PriceTier
from apps.estimates.external_api import (
    API_FINE_TUNE_NUMBERS,
    EXTERNAL_API_NUMBERS,
    SHARED_NUMBERS,
)
from apps.projects.scenario_fields import INFERENCE_METHODS, TRAINING_METHODS, FieldSpec

EXTERNAL_API, API_FINE_TUNE = "external_api", "api_fine_tune"
API_METHODS = {"inference": EXTERNAL_API, "training": API_FINE_TUNE}
METHOD_LABELS = {
    EXTERNAL_API: _("Through an external model API, priced per token"),
    API_FINE_TUNE: _("Fine-tuning through a vendor's API, priced per training token"),
}
# First-party providers whose current models are suggested as the API model is typed; any other
# slug of the price catalogue may be typed too.
SUGGESTED_PROVIDERS = ("openai", "anthropic", "google", "mistral")
DATALIST_ID = "api-model-suggestions"
OTHER_METHODS = {"training": TRAINING_METHODS, "inference": INFERENCE_METHODS}
TIER_CHOICES = [
    (PriceTier.STANDARD, _("Standard price")),
    (PriceTier.OFF_PEAK, _("Off-peak discount")),
    (PriceTier.LONG_PROMPT, _("Long-prompt price")),
]

I, T = "inference", "training"  # noqa: E741
API_NUMBER_FIELDS = (
    FieldSpec(
        I,
        "price_per_million_input_tokens",
        _("Input price (USD per million tokens)"),
        _("Leave empty for the price catalogue's price of the model, in force today."),
        methods=(EXTERNAL_API,),
    ),
    FieldSpec(
        I,
        "price_per_million_cached_input_tokens",
        _("Cached input price (USD per million tokens)"),
        _("Leave empty for the catalogue's price, or the input price where none is published."),
        methods=(EXTERNAL_API,),
    ),
    FieldSpec(
        I,
        "price_per_million_output_tokens",
        _("Output price (USD per million tokens)"),
        _("Leave empty for the catalogue's price; reasoning tokens are billed at it too."),
        methods=(EXTERNAL_API,),
    ),
    FieldSpec(
        I,
        "batch_discount",
        _("Batch discount (%)"),
        _(
            "Share taken off for requests sent in batches, answered within hours; 50% at "
            "most providers that offer it, 0 for answers needed at once."
        ),
        0.0,
        scale=100,
        methods=(EXTERNAL_API,),
    ),
    FieldSpec(
        T,
        "epochs",
        _("Epochs"),
        _("Passes over the training tokens; usually 1–4."),
        1,
        methods=(API_FINE_TUNE,),
    ),
    FieldSpec(
        T,
        "price_per_million_training_tokens",
        _("Training price (USD per million tokens)"),
        _(
            "The vendor's fine-tuning price, from its pricing page: price catalogues do not "
            "list it."
        ),
        methods=(API_FINE_TUNE,),
    ),
)
# Fields of the other methods that the API methods use too, by the request's field name.
SHARED = {
    method: tuple(name for name in numbers if name in SHARED_NUMBERS)
    for method, numbers in (
        (EXTERNAL_API, EXTERNAL_API_NUMBERS),
        (API_FINE_TUNE, API_FINE_TUNE_NUMBERS),
    )
}
# Where the new fields go in each section: after the field named here.
PLACE_AFTER = {
    "inference_api_model": "inference_reasoning_tokens",
    "inference_api_price_tier": "inference_api_model",
    "inference_price_per_million_input_tokens": "inference_api_price_tier",
    "inference_price_per_million_cached_input_tokens": "inference_price_per_million_input_tokens",
    "inference_price_per_million_output_tokens": "inference_price_per_million_cached_input_tokens",
    "inference_batch_discount": "inference_price_per_million_output_tokens",
    "training_epochs": "training_tokens",
    "training_price_per_million_training_tokens": "training_epochs",
}


class ApiModelInput(forms.TextInput):
    """A text input for the API model's slug, suggesting the current models of the main
    providers as it is typed (a datalist: any other slug of the catalogue may be typed)."""

    def __init__(self, suggestions=(), attrs=None):
        super().__init__({"list": DATALIST_ID, "autocomplete": "off", **(attrs or {})})
        self.suggestions = suggestions

    def render(self, name, value, attrs=None, renderer=None):
        options = format_html_join(
            "",
            '<option value="{}">{}</option>',
            ((slug, label) for slug, label in self.suggestions),
        )
        return format_html(
            '{}<datalist id="{}">{}</datalist>',
            super().render(name, value, attrs, renderer),
            DATALIST_ID,
            options,
        )


@functools.cache
def api_model_suggestions() -> tuple[tuple[str, str], ...]:
    """(slug, "Provider Model") of the main providers' models that are not deprecated, read
    once from the vendored price catalogue (the file the catalogue's rows are loaded from, so
    the page asks the database nothing for them)."""
    data = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    return tuple(
        (model["slug"], f"{provider['name']} {model['name']}")
        for provider in sorted(data["providers"], key=lambda p: p["provider"])
        if provider["provider"] in SUGGESTED_PROVIDERS
        for model in sorted(provider["models"], key=lambda m: m["name"])
        if not model.get("deprecated")
    )


def add_api_fields(form: forms.Form) -> None:
    """The API methods' choices, model and price tier on a scenario form (their numbers are
    API_NUMBER_FIELDS)."""
    for section, method in API_METHODS.items():
        field = form.fields[f"{section}_method"]
        field.choices = [*field.choices, (method, METHOD_LABELS[method])]
    form.fields["inference_api_model"] = forms.SlugField(
        label=_("API model"),
        required=False,
        max_length=200,
        widget=ApiModelInput(api_model_suggestions()),
        help_text=_(
            "Its name in the API price catalogue, e.g. openai-gpt-4o-mini (see the API prices "
            "page); its prices in force today are used unless you give your own below."
        ),
    )
    form.fields["inference_api_price_tier"] = forms.ChoiceField(
        label=_("Price tier"),
        required=False,
        choices=TIER_CHOICES,
        initial=PriceTier.STANDARD,
        help_text=_(
            "The standard price is the one in force. Some providers offer others: an off-peak "
            "discount for requests sent at night (DeepSeek), or a higher price for prompts above "
            "a length (Gemini above 200,000 tokens). The API prices page lists each model's "
            "tiers."
        ),
    )


def read_by_api_method(spec: FieldSpec, method: str) -> bool | None:
    """Whether the API method `method` reads the number of `spec` (one of its own, or one it
    shares with the other methods); None when `method` is not an API method."""
    if method not in SHARED:
        return None
    return spec.name in SHARED[method] or spec.methods == (method,)


def api_section_values(data: dict, section: str, method: str, values: dict) -> dict:
    """The request's section for an API method, from the form's cleaned data (only the fields
    the method uses); for any other method, `values` as they are."""
    if method != API_METHODS[section]:
        return values
    names = [*SHARED[method], *(s.name for s in API_NUMBER_FIELDS if s.section == section)]
    if section == "inference":
        names.append("api_model")
    api = {"method": method}
    for name in names:
        value = data.get(f"{section}_{name}")
        if value is not None and value != "":
            api[name] = value
    tier = data.get(f"{section}_api_price_tier")
    if section == "inference" and tier and tier != PriceTier.STANDARD:
        api["api_price_tier"] = tier
    return api


def with_api_fields(form: forms.Form, groups: list[dict]) -> list[dict]:
    """The form's sections with the API methods' fields in place, each field marked with the
    methods that use it, and the data warning beside the method choice (`api_warning`)."""
    for group in groups:
        section = group["key"]
        method = API_METHODS[section]
        shared = {f"{section}_{name}" for name in SHARED[method]}
        others = " ".join(value for value, _label in OTHER_METHODS[section])
        for item in group["fields"]:
            name = item["field"].name
            if name in (f"{section}_enabled", f"{section}_method"):
                item["api_warning"] = method if name == f"{section}_method" else ""
                continue
            if name in shared:  # used by every method, or by these and the API's
                item["methods"] = item["methods"] and f"{item['methods']} {method}"
            elif not item["methods"]:
                item["methods"] = others
        for spec_name in [n for n in PLACE_AFTER if n.startswith(f"{section}_")]:
            after = PLACE_AFTER[spec_name]
            names = [item["field"].name for item in group["fields"]]
            index = names.index(after) + 1 if after in names else len(names)
            group["fields"].insert(index, {"field": form[spec_name], "methods": method})
    return groups
