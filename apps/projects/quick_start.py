"""The quick start: a new project from five plain questions, each defaulting to its starting
point's sourced figures; the budget settings, unit, classification and collaborators come later,
on the project's settings page."""

import copy

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.core.planning_dates import PlanningDateInput, PlanningDateValidator
from apps.projects.forms import NumberField
from apps.projects.presets import PRESETS, PRESETS_BY_SLUG, Preset

AS_PRESET = ""
BUILD_CHOICES = [
    (AS_PRESET, _("As the starting point has it")),
    ("none", _("Use a model as it is, or through an external API: no training")),
    ("fine_tune", _("Fine-tune an open model on our data")),
    ("train", _("Train a model of our own from scratch")),
]
RUNS_ON_CHOICES = [
    (AS_PRESET, _("As the starting point has it")),
    ("external_api", _("An external model API, priced per token")),
    ("rent", _("Rented accelerators")),
    ("own", _("Accelerators we buy and own")),
]
# The training of "fine-tune" and "train", from the starting points that describe them.
TRAINING_FROM = {"fine_tune": "fine-tune-7b", "train": "pre-train-70b"}
# An external API's model and prompt sizes when the starting point does not count tokens: a
# small current model of the price catalogue (genai-prices), and the prompt and answer of the
# translation assistant's worked example (1,000 tokens in, 500 out).
API_MODEL = "openai-gpt-4o-mini"
API_TOKENS = {"input_tokens": 1000, "output_tokens": 500}
MONTHS_TO_A_YEAR = 12  # "in a year" is month 13: twelve months of growth after the first

# "My own": no starting point of ours, only the general figures a plan cannot go without, each
# from a named source, for the manager to replace. Everything else is the engine's default (12
# months, no growth, no peak above the average: apps.estimates.inputs), which the scenario page
# shows at its fields; a training comes only from "How is it built?", as the starting point that
# describes it has it.
OWN = "own"
OWN_SOURCES = {
    "inference.accelerator_seconds_per_request": _(
        "the worked example of the UN Learn AI glossary (about 2 accelerator-seconds an answer)"
    ),
    "inference.requests_per_month": _(
        "the same worked example (15,000 requests a month), when you gave no figure of your own"
    ),
    "inference.accelerator": _(
        "the scenario form's default accelerator, the NVIDIA H100 SXM, at the catalogue's median "
        "rental price"
    ),
}
OWN_PRESET = Preset(
    slug=OWN,
    name=_("My own system"),
    summary=_(
        "starts from general figures, each with its source, for you to replace with your own on "
        "the scenario page — 2 accelerator-seconds an answer and 15,000 requests a month (the "
        "worked example of the UN Learn AI glossary), on rented NVIDIA H100 SXM accelerators at "
        "the catalogue's median rental price, over the planner's default 12 months with no "
        "growth; no training unless you choose one below."
    ),
    inputs={
        "inference": {
            "method": "accelerator_seconds",
            "accelerator_seconds_per_request": 2,
            "accelerator": "nvidia-h100-sxm",
            "requests_per_month": 15_000,
        },
    },
)
QUICK_STARTS = (*PRESETS, OWN_PRESET)
QUICK_STARTS_BY_SLUG = {preset.slug: preset for preset in QUICK_STARTS}


class QuickStartForm(forms.Form):
    """What the system does, how it is built, its demand now and in a year, where it runs, and the
    planning period; empty answers keep the starting point's figures."""

    preset = forms.ChoiceField(
        label=_("What will the system do?"),
        choices=[(p.slug, p.name) for p in QUICK_STARTS],
        initial=PRESETS[0].slug,
        widget=forms.RadioSelect,
        help_text=_("The first scenario starts from these figures; you can change every one."),
    )
    build = forms.ChoiceField(
        label=_("How is it built?"),
        choices=BUILD_CHOICES,
        initial=AS_PRESET,
        required=False,
        widget=forms.RadioSelect,
    )
    requests_per_month = NumberField(
        integer=True,
        label=_("Requests in the first month"),
        required=False,
        help_text=_("Empty: the starting point's figure (15,000 for the translation assistant)."),
    )
    requests_in_a_year = NumberField(
        integer=True,
        label=_("Requests a month in a year"),
        required=False,
        help_text=_("Empty: the starting point's growth. Sets the growth per month."),
    )
    runs_on = forms.ChoiceField(
        label=_("Where does it run?"),
        choices=RUNS_ON_CHOICES,
        initial=AS_PRESET,
        required=False,
        widget=forms.RadioSelect,
    )
    period_start = forms.DateField(
        label=_("Planning period starts"),
        required=False,
        widget=PlanningDateInput(),
        validators=[PlanningDateValidator()],
        help_text=_("Empty: this month."),
    )
    period_end = forms.DateField(
        label=_("Planning period ends"),
        required=False,
        widget=PlanningDateInput(),
        validators=[PlanningDateValidator()],
        help_text=_("Empty: the last month of the service."),
    )

    def clean(self):
        cleaned = super().clean()
        for name in ("requests_per_month", "requests_in_a_year"):
            if cleaned.get(name) is not None and cleaned[name] < 1:
                self.add_error(name, _("Enter at least one request a month."))
        start, end = cleaned.get("period_start"), cleaned.get("period_end")
        if start and end and end < start:
            self.add_error("period_end", _("The end of the planning period is before its start."))
        return cleaned

    @property
    def chosen_preset(self) -> Preset:
        return QUICK_STARTS_BY_SLUG[self.cleaned_data["preset"]]

    @property
    def is_own(self) -> bool:
        """Whether the manager starts from general figures to replace ("my own")."""
        return self.cleaned_data["preset"] == OWN

    def project_fields(self) -> dict:
        """The new project's title (its starting point's name, changed on its settings page)
        and planning period."""
        return {
            "title": str(self.chosen_preset.name)[:200],
            "period_start": self.cleaned_data.get("period_start"),
            "period_end": self.cleaned_data.get("period_end"),
        }

    def inputs(self) -> dict:
        """The first scenario's inputs: the starting point's, changed by the answers given."""
        data = self.cleaned_data
        inputs = copy.deepcopy(self.chosen_preset.inputs)
        build = data.get("build") or AS_PRESET
        if build == "none":
            inputs.pop("training", None)
        elif build in TRAINING_FROM:
            inputs["training"] = copy.deepcopy(PRESETS_BY_SLUG[TRAINING_FROM[build]].inputs)[
                "training"
            ]
        inference = inputs.get("inference")
        if inference is not None:
            _demand(inference, data.get("requests_per_month"), data.get("requests_in_a_year"))
            inputs["inference"] = _runs_on(inference, data.get("runs_on") or AS_PRESET)
        if data.get("runs_on") in ("rent", "own") and "training" in inputs:
            inputs["training"]["pricing_mode"] = data["runs_on"]
        return inputs


def _demand(inference: dict, start: int | None, in_a_year: int | None) -> None:
    """Requests in the first month, and the monthly growth that reaches `in_a_year` twelve
    months later."""
    if start:
        inference["requests_per_month"] = start
    if in_a_year:
        first = inference["requests_per_month"]
        inference["monthly_growth"] = round((in_a_year / first) ** (1 / MONTHS_TO_A_YEAR) - 1, 6)


def _runs_on(inference: dict, runs_on: str) -> dict:
    """The inference section served where the answer says."""
    if runs_on in ("rent", "own"):
        return {**inference, "pricing_mode": runs_on}
    if runs_on != "external_api":
        return inference
    kept = ("requests_per_month", "monthly_growth", "months", "peak_to_average")
    tokens = {key: inference[key] for key in API_TOKENS if key in inference} or API_TOKENS
    return {
        "method": "external_api",
        "api_model": API_MODEL,
        **tokens,
        **{key: inference[key] for key in kept if key in inference},
    }
