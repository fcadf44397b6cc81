"""Forms managers fill in: projects, and scenarios in the estimate request's shape."""

import copy
import math

from django import forms
from django.contrib.auth import get_user_model
from django.urls import get_script_prefix, reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from apps.api.estimate import kept_estimate
from apps.catalogue.models import PRECISIONS, Accelerator
from apps.catalogue.names import catalogue_name, full_name
from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import DEFAULT_ENERGY_PROFILE, Catalogue
from apps.catalogue.suggestions import unknown_slug_message
from apps.core.planning_dates import PlanningDateInput, PlanningDateValidator
from apps.estimates import EstimateInputError, EstimateResult
from apps.estimates.uncertainty import UncertaintyResult
from apps.exchange.rates import has_any_rate, no_rate_message
from apps.projects.api_methods import (
    API_NUMBER_FIELDS,
    add_api_fields,
    api_section_values,
    with_api_fields,
)
from apps.projects.budget_settings import BudgetSettingsFields, DecimalText
from apps.projects.currency import project_exchange
from apps.projects.field_terms import BUDGET_SETTINGS_TERMS, attach_terms
from apps.projects.form_sections import folded, timing_and_energy
from apps.projects.models import BUDGET_SETTINGS, Project
from apps.projects.range_inputs import (
    add_range_fields,
    collect_ranges,
    range_initial,
    range_pair,
    uncertainty_for,
)
from apps.projects.scenario_fields import (
    COMMITMENT_NUMBERS,
    COMMITMENT_PROVIDERS,
    COMMITMENT_YEARS,
    INFERENCE_METHODS,
    NUMBER_FIELDS,
    PRICING_MODES,
    PROVISIONING,
    SECTION_TITLES,
    TRAINING_METHODS,
)
from apps.projects.versions import Estimated
from apps.words.currencies import currency_choices
from apps.words.language import active_words
from apps.words.messages import error_texts, message_text
from apps.words.numbers import parse_number


class NumberField(forms.CharField):
    """A number typed as people type it in their language: 15,000 or 7e9 or 0.4 (in French
    15 000 or 0,4); finite, shown without noise. The form is first filled with machine values
    (15000, 0.4), which read back in every language; what the user typed is shown back as typed.
    """

    default_error_messages = {"invalid": _("Enter a number, for example 15,000 or 7e9.")}

    def __init__(self, *, scale: float = 1.0, integer: bool = False, **kwargs):
        self.scale = scale
        self.integer = integer
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            number = float(parse_number(text))
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if not math.isfinite(number):
            raise forms.ValidationError(_("Enter a finite number."), code="invalid")
        if self.integer:
            if not number.is_integer():
                raise forms.ValidationError(_("Enter a whole number."), code="invalid")
            return int(number)
        return number / self.scale

    def prepare_value(self, value):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return f"{value * self.scale:.10g}"
        return value

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "inputmode": "decimal", "autocomplete": "off"}


class CatalogueChoiceField(forms.ChoiceField):
    """A choice of catalogue rows by slug; a slug the catalogue lacks (a saved scenario's row
    deleted since, or a hand-made request) is refused naming the closest ones."""

    def __init__(self, *args, unknown: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.unknown = unknown  # "No model %(slug)s in the catalogue.", translated lazily

    def validate(self, value) -> None:
        if value and not self.valid_value(value):
            known = [slug for slug, _label in self.choices if slug]
            message = str(self.unknown) % {"slug": repr(value)}
            raise forms.ValidationError(message_text(unknown_slug_message(message, value, known)))
        super().validate(value)


class PrecisionField(forms.ChoiceField):
    """A number format, offered as the chosen accelerator's published peaks (`offer`). A format
    the accelerator lacks, when it is the one chosen (a saved scenario, or the accelerator
    changed after it), stays in the list marked as not available, so the estimate refuses it at
    the field naming the accelerator's own formats rather than the form silently changing it."""

    def __init__(self, *, hint: str, **kwargs) -> None:
        super().__init__(choices=[(p, p.upper()) for p in PRECISIONS], **kwargs)
        self.hint = hint
        self.help_text = hint

    def offer(self, accelerator: Accelerator | None, chosen: str | None) -> None:
        """Offer `accelerator`'s precisions (every precision without an accelerator)."""
        if accelerator is None:
            self.choices = [(p, p.upper()) for p in PRECISIONS]
            self.help_text = self.hint
            return
        name = full_name(accelerator.vendor, accelerator.name)
        supported = accelerator.supported_precisions
        choices = [(p, p.upper()) for p in supported]
        if chosen in PRECISIONS and chosen not in supported:
            label = _("%(precision)s (not available on %(accelerator)s)")
            choices.append((chosen, label % {"precision": chosen.upper(), "accelerator": name}))
        self.choices = choices
        self.help_text = format_lazy(
            "{hint} {formats}",
            hint=self.hint,
            formats=_("%(accelerator)s computes in %(precisions)s.")
            % {"accelerator": name, "precisions": ", ".join(p.upper() for p in supported)},
        )


def _choice(label: str, choices, initial: str, hint: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label, choices=choices, initial=initial, help_text=hint, widget=forms.RadioSelect
    )


def catalogue_choices(catalogue: Catalogue) -> dict[str, list[tuple[str, str]]]:
    """The accelerators, language models and energy profiles as (slug, name) choices, in the
    active language."""
    return {
        "accelerators": [
            (a.slug, full_name(a.vendor, a.name)) for a in catalogue.accelerators.values()
        ],
        "models": [(m.slug, full_name(m.developer, m.name)) for m in catalogue.models.values()],
        "energy_profiles": [
            (p.slug, catalogue_name(p.name)) for p in catalogue.energy_profiles.values()
        ],
    }


def _fresh(field: forms.Field) -> forms.Field:
    """A field of its own for one form: its attributes and its widget's copied (Django's own
    deep copy of a form's fields also copies their error messages and validators, which no form
    changes)."""
    copied = object.__new__(type(field))
    copied.__dict__.update(field.__dict__)
    widget = copied.widget = object.__new__(type(field.widget))
    widget.__dict__.update(field.widget.__dict__)
    widget.attrs = dict(field.widget.attrs)
    return copied


class ScenarioForm(forms.Form):
    """All inputs of a scenario; `clean` also runs the estimate, so errors come from one place."""

    name = forms.CharField(
        label=_("Scenario name"),
        max_length=200,
        help_text=_("e.g. Pilot, 15,000 requests a month."),
    )
    training_enabled = forms.BooleanField(
        label=_("This scenario includes training or fine-tuning"), required=False, initial=True
    )
    training_method = _choice(
        _("How do you know the training compute?"), TRAINING_METHODS, "accelerator_hours"
    )
    training_accelerator = CatalogueChoiceField(
        label=_("Accelerator for training"),
        unknown=_("No accelerator %(slug)s in the catalogue."),
    )
    training_precision = PrecisionField(
        label=_("Number format"),
        initial="bf16",
        hint=_("BF16 is usual for training; the accelerator must support it."),
    )
    training_pricing_mode = _choice(_("Rent or own?"), PRICING_MODES, "rent")
    training_base_model = CatalogueChoiceField(
        label=_("Model being fine-tuned"),
        unknown=_("No model %(slug)s in the catalogue."),
        required=False,
        help_text=_(
            "For a fine-tune of a catalogue model: its published training compute is compared "
            "with yours under the EU guidelines' one-third rule."
        ),
    )
    inference_enabled = forms.BooleanField(
        label=_("This scenario includes serving requests"), required=False, initial=True
    )
    inference_method = _choice(
        _("How do you know the compute per request?"), INFERENCE_METHODS, "accelerator_seconds"
    )
    inference_model = CatalogueChoiceField(
        label=_("Language model"),
        unknown=_("No model %(slug)s in the catalogue."),
        required=False,
        help_text=_(
            "Its layers, attention heads and parameters set the memory and speed of serving. "
            "For your own model, leave this and give its dimensions below."
        ),
    )
    inference_accelerator = CatalogueChoiceField(
        label=_("Accelerator for serving"),
        unknown=_("No accelerator %(slug)s in the catalogue."),
    )
    inference_precision = PrecisionField(
        label=_("Number format"),
        initial="bf16",
        hint=_(
            "FP8 or INT8 halve the memory read per token where supported; FP4 halves it again, "
            "only on accelerators with an FP4 peak (B200, GB200, B300, MI355X…)."
        ),
    )
    inference_provisioning = _choice(_("How is capacity paid for?"), PROVISIONING, "pay_per_use")
    inference_commitment_years = forms.ChoiceField(
        label=_("Commitment term"),
        choices=COMMITMENT_YEARS,
        initial="1",
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "Only when committed: the capacity is paid for every month of the term, used or not."
        ),
    )
    inference_commitment_provider = forms.ChoiceField(
        label=_("Provider whose published discount to use"),
        choices=COMMITMENT_PROVIDERS,
        required=False,
        help_text=_(
            "Only when committed and no discount is given; the catalogue lists each "
            "provider's discounts with their sources."
        ),
    )
    inference_pricing_mode = _choice(_("Rent or own?"), PRICING_MODES, "rent")
    training_start = forms.DateField(
        label=_("Training starts"),
        required=False,
        widget=PlanningDateInput(),
        validators=[PlanningDateValidator()],
        help_text=_("For the budget; empty: the start of the planning period."),
    )
    service_start = forms.DateField(
        label=_("Service starts"),
        required=False,
        widget=PlanningDateInput(),
        validators=[PlanningDateValidator()],
        help_text=_("For the budget; empty: the first of the month after training ends."),
    )
    energy_profile = forms.ChoiceField(
        label=_("Data centre and electricity grid"),
        help_text=_("Sets the PUE and the grid’s carbon intensity for energy and emissions."),
    )
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        required=False,
        min_value=0,
        help_text="The saved version the form started from: a save based on an older one is "
        "refused, so nobody's save is silently overwritten.",
    )

    def __init__(self, *args, catalogue: Catalogue, project: Project | None = None, **kwargs):
        # Django's BaseForm deep-copies the declared fields for each form; this one shares the
        # fields made once per catalogue and language (scenario_fields), which no form changes,
        # and copies those it changes (the number formats), so it gives BaseForm none to copy.
        self.base_fields = {}
        super().__init__(*args, **kwargs)
        self.catalogue = catalogue
        self.project = project  # whose currency the figures are in (None: US dollars)
        self.exchange = None
        self.fields = dict(scenario_fields(catalogue))
        for section in ("training", "inference"):
            name = f"{section}_precision"
            self.fields[name] = _fresh(self.fields[name])
            self.offer_precisions(section)
        self.result: EstimateResult | None = None
        self.uncertainty: UncertaintyResult | None = None
        self.notes: dict[str, list[str]] = {}
        # The estimate worked out while validating, for a save to keep (apps.projects.versions).
        self.estimated: Estimated | None = None

    def _clean_fields(self) -> None:
        """Django's cleaning field by field, each value read from the data as its BoundField
        would read it but without making one: the live preview validates some 170 fields at
        every keystroke and draws none of them. (No field of this form is disabled or a file,
        and none has a clean_<name> method.)"""
        for name, field in self.fields.items():
            value = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            try:
                self.cleaned_data[name] = field.clean(value)
            except forms.ValidationError as error:
                self.add_error(name, error)

    def offer_precisions(self, section: str) -> None:
        """The section's number formats: those of the accelerator chosen (as typed, or as
        saved), and the one chosen."""
        slug = self._value(f"{section}_accelerator")
        accelerator = self.catalogue.accelerators.get(slug) if slug else None
        self.fields[f"{section}_precision"].offer(accelerator, self._value(f"{section}_precision"))

    def _value(self, name: str):
        """The field's value as typed, or as it starts (without drawing the field: its label
        and help text are read when it is first drawn)."""
        field = self.fields[name]
        if self.is_bound:
            return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
        return self.get_initial_for_field(field, name)

    def precision_item(self, section: str) -> dict:
        """The section's number format as sections() gives it to the template."""
        name = f"{section}_precision"
        return next(
            item
            for group in self.sections()
            for item in group["fields"]
            if item["field"].name == name
        )

    @classmethod
    def initial_from_request(cls, name: str, request: dict, version: int | None = None) -> dict:
        initial: dict = {
            "name": name,
            "energy_profile": request.get("energy_profile"),
            "version": version,
        }
        for section in ("training", "inference"):
            data = request.get(section)
            initial[f"{section}_enabled"] = bool(data)
            for key, value in (data or {}).items():
                initial[f"{section}_{key}"] = value
        initial.update(range_initial(request))
        return {key: value for key, value in initial.items() if value is not None}

    def timing(self) -> dict:
        """When training and the service start (Scenario.training_start, service_start)."""
        return {name: self.cleaned_data.get(name) for name in ("training_start", "service_start")}

    def to_request(self) -> dict:
        data = self.cleaned_data
        request: dict = {}
        for section in ("training", "inference"):
            if not data.get(f"{section}_enabled"):
                continue
            method = data.get(f"{section}_method")
            values = {"method": method}
            for key in ("accelerator", "precision", "pricing_mode", "provisioning"):
                value = data.get(f"{section}_{key}")
                if value:
                    values[key] = value
            committed = section == "inference" and values.get("provisioning") == "committed"
            if committed:
                values["commitment_years"] = int(data.get("inference_commitment_years") or 1)
                if data.get("inference_commitment_provider"):
                    values["commitment_provider"] = data["inference_commitment_provider"]
            if section == "inference" and method == "tokens" and data.get("inference_model"):
                values["model"] = data["inference_model"]
            if section == "training" and data.get("training_base_model"):
                values["base_model"] = data["training_base_model"]
            for spec in NUMBER_FIELDS:
                value = data.get(spec.field_name)
                if (
                    spec.section == section
                    and value is not None
                    and (not spec.methods or method in spec.methods)
                    and (committed or spec.name not in COMMITMENT_NUMBERS)
                ):
                    values[spec.name] = value
            request[section] = api_section_values(data, section, method, values)
        if data.get("energy_profile"):
            request["energy_profile"] = data["energy_profile"]
        return collect_ranges(data, request)[0]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if not cleaned.get("training_enabled") and not cleaned.get("inference_enabled"):
            raise forms.ValidationError(_("Include training, serving requests, or both."))
        request = self.to_request()
        range_errors = collect_ranges(cleaned, request)[1]
        try:
            if self.project is not None:
                self.exchange = project_exchange(self.project, self.catalogue)
            self.result, resolution = estimate_from_request(request, self.catalogue, self.exchange)
            self.notes = resolution.notes
        except EstimateInputError as error:
            for key, messages in error_texts(error.errors).items():
                field = key.replace(".", "_")
                for message in messages:
                    self.add_error(field if field in self.fields else None, message)
        else:
            self.uncertainty = uncertainty_for(self, request, self.catalogue)
            self.estimated = Estimated(
                inputs=request,
                catalogue_digest=self.catalogue.digest,
                kept=kept_estimate(self.result, self.notes, self.uncertainty, self.exchange),
            )
        for field, messages in error_texts(range_errors).items():
            for message in messages:
                self.add_error(field, message)
        return cleaned

    def sections(self) -> list[dict]:
        """The form's fields grouped for the template, in reading order, with their methods."""
        methods = {s.field_name: " ".join(s.methods) for s in NUMBER_FIELDS if s.methods}
        methods["inference_model"] = "tokens"
        groups = []
        for section in ("training", "inference"):
            names = [f"{section}_enabled", f"{section}_method"]
            if section == "inference":
                names.append("inference_model")
            names += [s.field_name for s in NUMBER_FIELDS if s.section == section and s.methods]
            names += [f"{section}_accelerator", f"{section}_precision"]
            names += [
                s.field_name
                for s in NUMBER_FIELDS
                if s.section == section and not s.methods and s.name not in COMMITMENT_NUMBERS
            ]
            if section == "inference":
                names += [
                    "inference_provisioning",
                    "inference_commitment_years",
                    "inference_commitment_provider",
                    *(f"inference_{name}" for name in COMMITMENT_NUMBERS),
                ]
            names.append(f"{section}_pricing_mode")
            if section == "training":
                names.append("training_base_model")
            groups.append(
                {
                    "key": section,
                    "title": SECTION_TITLES[section],
                    "fields": [{"field": self[n], "methods": methods.get(n, "")} for n in names],
                }
            )
        groups = with_api_fields(self, groups)
        for group in groups:
            for item in group["fields"]:
                name = item["field"].name
                item["range"] = range_pair(self, name)
                # The accelerator asks for its number formats when it changes (the template).
                if name == f"{group['key']}_accelerator":
                    item["precision_of"] = group["key"]
                item["precision"] = name == f"{group['key']}_precision"
        return groups

    def workspace(self) -> dict:
        """The sections as the scenario page folds them (apps.projects.form_sections)."""
        return {"sections": folded(self, self.sections()), "later": timing_and_energy(self)}


# The scenario form's fields as each form starts, made once per catalogue (by its digest),
# language and address prefix: the live preview builds the form at every keystroke, and making
# its some 170 fields again (the catalogue's rows named, the labels and hints looked up in the
# language) took longer than working out the estimate.
_FIELDS: dict[tuple, dict[str, forms.Field]] = {}
_FIELDS_KEPT = 16


def scenario_fields(catalogue: Catalogue) -> dict[str, forms.Field]:
    """The scenario form's fields for `catalogue` in the active language, shared by the forms:
    a form changes none of them but its own copy (_fresh) of one
    (tests/integration/test_scenario_form_fields_shared.py)."""
    key = (catalogue.digest, *active_words(), get_script_prefix())
    fields = _FIELDS.get(key) if catalogue.digest else None
    if fields is None:
        fields = _made_fields(catalogue)
        if catalogue.digest:  # a catalogue read in part has none: its fields are not kept
            if len(_FIELDS) >= _FIELDS_KEPT:
                _FIELDS.clear()
            _FIELDS[key] = fields
    return fields


def _made_fields(catalogue: Catalogue) -> dict[str, forms.Field]:
    """The declared fields, the numbers, the API methods' fields and the ranges' Low and High
    (with the seed), the catalogue's rows as choices, each field's glossary term, and the labels
    and hints in the active language (a form reads every hint as it validates: `help_text or ""`
    in each BoundField)."""
    holder = forms.Form()
    holder.fields = copy.deepcopy(ScenarioForm.base_fields)
    for spec in (*NUMBER_FIELDS, *API_NUMBER_FIELDS):
        holder.fields[spec.field_name] = NumberField(
            label=spec.label,
            help_text=spec.hint,
            scale=spec.scale,
            integer=spec.integer,
            initial=spec.default,
        )
    add_api_fields(holder)
    add_range_fields(holder, NumberField)
    names = catalogue_choices(catalogue)
    for section in ("training", "inference"):
        field = holder.fields[f"{section}_accelerator"]
        field.choices = [("", _("No accelerator")), *names["accelerators"]]
        field.required = False
        field.initial = "nvidia-h100-sxm"
        field.widget.attrs.update(
            {
                # With JavaScript, the number formats follow the accelerator chosen.
                "hx-get": reverse("scenario-precisions", args=[section]),
                "hx-trigger": "change",
                "hx-include": f"#id_{section}_precision",
                "hx-target": f"#id_{section}_precision_choices",
                "hx-swap": "outerHTML",
                "hx-sync": "this:replace",
            }
        )
    holder.fields["inference_model"].choices = [
        ("", _("My own model (give its dimensions below)")),
        *names["models"],
    ]
    holder.fields["training_base_model"].choices = [
        ("", _("None: not a fine-tune of a catalogue model")),
        *names["models"],
    ]
    holder.fields["energy_profile"].choices = names["energy_profiles"]
    holder.fields["energy_profile"].initial = DEFAULT_ENERGY_PROFILE
    attach_terms(holder)
    for field in holder.fields.values():
        if field.label is not None:
            field.label = str(field.label)
        field.help_text = str(field.help_text)
    return holder.fields


class ProjectForm(BudgetSettingsFields):
    collaborators = forms.CharField(
        label=_("Collaborators"),
        required=False,
        help_text=_("Usernames of colleagues who may edit this project, separated by commas."),
    )

    currency = forms.ChoiceField(
        label=_("Currency"),
        choices=currency_choices,
        initial="USD",
        help_text=_(
            "Every amount of the project is in it; catalogue prices in US dollars are converted."
        ),
    )

    class Meta:
        model = Project
        fields = [
            "title",
            "unit",
            "description",
            "currency",
            "rate_table",
            "rate_date",
            "rate_low",
            "rate_high",
            "classification",
            "period_start",
            "period_end",
            *BUDGET_SETTINGS,
        ]
        # The rate's range is typed as people type numbers in their language (1 234,5 in French).
        field_classes = {"rate_low": DecimalText, "rate_high": DecimalText}
        widgets = {
            "rate_date": PlanningDateInput(),
            "period_start": PlanningDateInput(),
            "period_end": PlanningDateInput(),
            "description": forms.Textarea(attrs={"rows": 3}),
        }
        labels = {
            "title": _("Title"),
            "description": _("Description"),
            "currency": _("Currency"),
            "rate_table": _("Exchange rates"),
            "rate_date": _("Exchange rate date"),
            "rate_low": _("Exchange rate range (90 %), low end: 1 US dollar in the currency"),
            "rate_high": _("Exchange rate range (90 %), high end: 1 US dollar in the currency"),
            "period_start": _("Period start"),
            "period_end": _("Period end"),
        }
        help_texts = {
            "title": _("What the AI system is for, e.g. Translation assistant."),
            "unit": _("The department, section or team that owns the workplan."),
            "classification": _("The most sensitive data the system will process."),
            "rate_table": _(
                "Your organisation's own rates; left empty, the European Central Bank's."
            ),
            "rate_date": _(
                "The day whose rate converts prices; left empty, the date of the prices."
            ),
            "rate_low": _(
                "Optional: give both ends (nine chances in ten the rate lies between them) and "
                "the ranges' percentiles show what a currency swing does to the budget. Leave "
                "both empty to keep the rate fixed."
            ),
        }

    def __init__(self, *args, owner=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.owner = owner
        attach_terms(self, BUDGET_SETTINGS_TERMS)
        self.fields["rate_table"].empty_label = _("The ECB's euro reference rates")
        if self.instance.pk:
            self.initial["collaborators"] = ", ".join(
                self.instance.collaborators.values_list("username", flat=True)
            )

    def clean_collaborators(self):
        names = {n.strip() for n in self.cleaned_data["collaborators"].split(",") if n.strip()}
        users = list(get_user_model().objects.filter(username__in=names, is_active=True))
        missing = names - {u.username for u in users}
        if missing:
            raise forms.ValidationError(
                _("No active user named %(names)s.") % {"names": ", ".join(sorted(missing))}
            )
        return [u for u in users if u != self.owner]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("period_start"), cleaned.get("period_end")
        if start and end and end < start:
            self.add_error("period_end", _("The end of the planning period is before its start."))
        currency = cleaned.get("currency")
        if currency and not has_any_rate(currency, cleaned.get("rate_table")):
            self.add_error("currency", no_rate_message(currency))
        return cleaned


class NewBaselineForm(forms.Form):
    """Which of a project's other scenarios becomes its baseline when the baseline is deleted."""

    new_baseline = forms.ModelChoiceField(
        label=_("Which scenario becomes the baseline?"),
        queryset=None,
        widget=forms.RadioSelect,
        empty_label=None,
        error_messages={"required": _("Choose the scenario that becomes the baseline.")},
    )

    def __init__(self, *args, scenarios, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_baseline"].queryset = scenarios
