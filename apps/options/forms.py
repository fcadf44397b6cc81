"""Forms of the decision page: which options to compare (GET), and the option to use (POST)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.estimates.options import OPTION_KEYS
from apps.options.services import chosen_options

OPTION_LABELS = {
    "external_api": _("External model API"),
    "rent_pay_per_use": _("Self-host on rented accelerators, pay per use"),
    "rent_always_on": _("Self-host on rented accelerators, always on"),
    "own": _("Self-host on owned accelerators"),
    "fine_tune": _("Fine-tune an open model, then host it"),
    "build": _("Pre-train a model, then host it"),
}
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
        label=_("API model"),
        required=False,
        max_length=200,
        help_text=_("Its slug in the API price catalogue, e.g. openai-gpt-4o-mini."),
    )

    accelerator = forms.ChoiceField(
        label=_("Accelerator for self-hosting"),
        required=False,
        help_text=_("Empty: the scenario's own accelerator."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from apps.catalogue.resolve import Catalogue

        self.fields["accelerator"].choices = [
            ("", _("The scenario's accelerator")),
            *((a.slug, f"{a.vendor} {a.name}") for a in Catalogue.load().accelerators.values()),
        ]

    def choices(self) -> list[dict] | None:
        """The options API's choices; None for the default options."""
        return chosen_options(
            self.cleaned_data.get("options"),
            self.cleaned_data.get("api_model"),
            self.cleaned_data.get("accelerator"),
        )


class UseOptionForm(forms.Form):
    key = forms.ChoiceField(choices=[(key, key) for key in OPTION_KEYS])
    api_model = forms.SlugField(required=False, max_length=200)

    accelerator = forms.SlugField(required=False, max_length=200)

    def choice(self) -> dict:
        choice = {"key": self.cleaned_data["key"]}
        if choice["key"] == "external_api" and self.cleaned_data.get("api_model"):
            choice["api_model"] = self.cleaned_data["api_model"]
        if choice["key"] != "external_api" and self.cleaned_data.get("accelerator"):
            choice["accelerator"] = self.cleaned_data["accelerator"]
        return choice
