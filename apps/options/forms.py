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
from apps.projects.forms import NumberField
from apps.projects.scenario_fields import COMMITMENT_PROVIDERS, COMMITMENT_YEARS
from apps.words import formatting

# The terms of the option committed for a term, as the page's form and "Use this option" send
# them: (field, its value in the choice).
COMMITMENT_FIELDS = ("commitment_years", "upfront_share", "commitment_discount")


def commitment_choice(data: dict) -> dict:
    """The terms of the option committed for a term from a form's cleaned data."""
    commitment = {
        name: data.get(name) for name in COMMITMENT_FIELDS if data.get(name) not in (None, "")
    }
    if "commitment_years" in commitment:
        commitment["commitment_years"] = int(commitment["commitment_years"])
    if data.get("commitment_provider"):
        commitment["commitment_provider"] = data["commitment_provider"]
    return commitment


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
    commitment_years = forms.ChoiceField(
        label=_("Commitment term"),
        choices=[("", _("As in the scenario (else 1 year)")), *COMMITMENT_YEARS],
        required=False,
        help_text=_("For the option committed for a term: every month of it is paid."),
    )
    upfront_share = NumberField(
        label=_("Share of each term paid upfront (%)"),
        scale=100,
        help_text=_("0% pays each term monthly, 100% all at its start. Empty: 0%."),
    )
    commitment_provider = forms.ChoiceField(
        label=_("Provider whose published discount to use"),
        choices=COMMITMENT_PROVIDERS,
        required=False,
        help_text=_("When no discount is given below."),
    )
    commitment_discount = NumberField(
        label=_("Commitment discount against on demand (%)"),
        scale=100,
        help_text=_("Your offer's; empty: the provider's published one, else the median."),
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

    def clean_upfront_share(self) -> float | None:
        return _share(self.cleaned_data.get("upfront_share"), 1.0)

    def clean_commitment_discount(self) -> float | None:
        return _share(self.cleaned_data.get("commitment_discount"), 0.99)

    def choices(self) -> list[dict] | None:
        """The options API's choices; None for the default options."""
        choices = chosen_options(
            self.cleaned_data.get("options"),
            self.cleaned_data.get("api_model"),
            self.cleaned_data.get("accelerator"),
            self.cleaned_data.get("api_price_tier"),
            commitment_choice(self.cleaned_data),
        )
        route = self.cleaned_data.get("training_route", "")
        if not route:
            return choices
        if choices is None:
            choices = default_choices({"training": self.training})
        return with_training_route(choices, self.training, route)


def _share(value: float | None, highest: float) -> float | None:
    """A share typed in percent, refused outside 0 to `highest`."""
    if value is not None and not 0 <= value <= highest:
        raise forms.ValidationError(
            _("Enter a percentage from 0 to %(highest)s.")
            % {"highest": formatting.percent(highest).text}
        )
    return value


class UseOptionForm(forms.Form):
    key = forms.ChoiceField(choices=[(key, key) for key in OPTION_KEYS])
    api_model = forms.SlugField(required=False, max_length=200)
    api_price_tier = forms.ChoiceField(choices=TIER_CHOICES, required=False)
    commitment_years = forms.ChoiceField(choices=COMMITMENT_YEARS, required=False)
    upfront_share = forms.FloatField(required=False, min_value=0, max_value=1)
    commitment_provider = forms.ChoiceField(choices=COMMITMENT_PROVIDERS, required=False)
    commitment_discount = forms.FloatField(required=False, min_value=0, max_value=0.99)

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
        if choice["key"] == "rent_committed":
            choice.update(commitment_choice(self.cleaned_data))
        route = self.cleaned_data.get("training_route", "")
        return with_training_route([choice], self.training, route)[0]
