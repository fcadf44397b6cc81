"""Forms of the decision page: which options to compare (GET), and the option to use (POST)."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apps.catalogue.names import full_name
from apps.catalogue.snapshot import Catalogue
from apps.estimates.options import OPTION_KEYS
from apps.options.services import chosen_options, default_choices
from apps.projects.api_methods import TIER_CHOICES
from apps.projects.field_terms import OPTIONS_TERMS, attach_terms

TRAINS = ("fine_tune", "build")
TRAINING_ROUTES = (
    ("", _("As in the scenario")),
    ("rent", _("On rented accelerators")),
    ("own", _("On owned accelerators")),
)


def with_training_route(choices: list[dict], training: dict | None, route: str) -> list[dict]:
    """The choices with the scenario's training run on rented or owned accelerators (`route`)
    for the options that train; unchanged when no route is chosen."""
    if not route or not training:
        return choices
    routed = {**training, "pricing_mode": route}
    return [{**c, "training": routed} if c["key"] in TRAINS else c for c in choices]


OPTION_LABELS = {
    "external_api": _("External model API"),
    "rent_pay_per_use": _("Self-host on rented accelerators, pay per use"),
    "rent_always_on": _("Self-host on rented accelerators, always on"),
    "rent_committed": _("Self-host on rented accelerators, committed for a term"),
    "own": _("Self-host on owned accelerators"),
    "fine_tune": _("Fine-tune an open model, then host it"),
    "build": _("Pre-train a model, then host it"),
}


def option_label(key: str) -> str:
    return str(OPTION_LABELS[key])


FLAG_LABELS = {
    "data_leaves_organisation": _("Data leaves the organisation"),
    "lock_in": _("Lock-in to the provider's model and prices"),
    "hardware_lead_time": _("Lead time to buy hardware"),
}


class OptionsForm(forms.Form):
    options = forms.MultipleChoiceField(
        label=_("Options to compare"),
        choices=[(key, OPTION_LABELS[key]) for key in OPTION_KEYS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("None ticked: every option the scenario allows."),
    )
    api_model = forms.SlugField(
        label=pgettext_lazy("form field", "API model"),
        required=False,
        max_length=200,
        help_text=_("Its slug in the API price catalogue, e.g. openai-gpt-4o-mini."),
    )

    api_price_tier = forms.ChoiceField(
        label=_("Price tier of the external API"),
        required=False,
        choices=[("", _("As in the scenario (else the standard price)")), *TIER_CHOICES],
        help_text=_(
            "The standard price is the one in force; an off-peak discount (DeepSeek, at night) "
            "or a long-prompt price (Gemini, above 200,000 tokens) applies only to traffic that "
            "qualifies. The API prices page lists each model's tiers."
        ),
    )
    accelerator = forms.ChoiceField(
        label=_("Accelerator for self-hosting"),
        required=False,
        help_text=_("Empty: the scenario's own accelerator."),
    )
    training_route = forms.ChoiceField(
        label=_("Training route for fine-tuning and pre-training"),
        choices=TRAINING_ROUTES,
        required=False,
        help_text=_("Where the scenario's training runs in the options that train."),
    )

    def __init__(self, *args, training: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.training = training
        attach_terms(self, OPTIONS_TERMS)
        self.fields["accelerator"].choices = [
            ("", _("The scenario's accelerator")),
            *(
                (a.slug, full_name(a.vendor, a.name))
                for a in Catalogue.load().accelerators.values()
            ),
        ]

    def clean_training_route(self) -> str:
        route = self.cleaned_data.get("training_route", "")
        if route and not self.training:
            raise forms.ValidationError(
                _("This scenario trains nothing: give its training first, or leave this empty.")
            )
        if route and self.training.get("method") == "api_fine_tune":
            raise forms.ValidationError(
                _("The scenario fine-tunes through a vendor's API, which uses no accelerators.")
            )
        return route

    def choices(self) -> list[dict] | None:
        """The options API's choices; None for the default options."""
        choices = chosen_options(
            self.cleaned_data.get("options"),
            self.cleaned_data.get("api_model"),
            self.cleaned_data.get("accelerator"),
            self.cleaned_data.get("api_price_tier"),
        )
        route = self.cleaned_data.get("training_route", "")
        if not route:
            return choices
        if choices is None:
            choices = default_choices({"training": self.training})
        return with_training_route(choices, self.training, route)


class UseOptionForm(forms.Form):
    key = forms.ChoiceField(choices=[(key, key) for key in OPTION_KEYS])
    api_model = forms.SlugField(required=False, max_length=200)
    api_price_tier = forms.ChoiceField(choices=TIER_CHOICES, required=False)

    accelerator = forms.SlugField(required=False, max_length=200)
    training_route = forms.ChoiceField(choices=TRAINING_ROUTES, required=False)

    def __init__(self, *args, training: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.training = training

    def choice(self) -> dict:
        choice = {"key": self.cleaned_data["key"]}
        if choice["key"] == "external_api" and self.cleaned_data.get("api_model"):
            choice["api_model"] = self.cleaned_data["api_model"]
        if choice["key"] == "external_api" and self.cleaned_data.get("api_price_tier"):
            choice["api_price_tier"] = self.cleaned_data["api_price_tier"]
        if choice["key"] != "external_api" and self.cleaned_data.get("accelerator"):
            choice["accelerator"] = self.cleaned_data["accelerator"]
        route = self.cleaned_data.get("training_route", "")
        return with_training_route([choice], self.training, route)[0]
