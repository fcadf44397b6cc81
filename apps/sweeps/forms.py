"""The sweep page's form: up to three inputs with their ranges, accelerators and models."""

import math
import re

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.projects.field_terms import SWEEP_INPUT_TERMS, SWEEP_TERMS, attach_terms
from apps.projects.forms import NumberField
from apps.sweeps.definition import (
    MAX_POINTS,
    SECTIONS,
    DefinitionError,
    over_limit_message,
    points_text,
)
from apps.sweeps.inputs import SECTION_LABELS, SWEEPABLE

INPUT_ROWS = 3
KIND_CHOICES = (
    ("linear", _("Linear range: evenly spaced from start to stop")),
    ("log", _("Logarithmic range: each step multiplies by the same factor")),
    ("list", _("List of values")),
)


def input_choices(request: dict) -> list:
    """The inputs this scenario uses, grouped by section, after a "not varied" choice."""
    groups: dict[str, list] = {}
    for path, spec in SWEEPABLE.items():
        if spec.unused_by(request) is None:
            groups.setdefault(spec.section_label, []).append((path, spec.field_label))
    return [("", _("Not varied")), *groups.items()]


def _parse_values(text: str) -> list[float]:
    """Values separated by semicolons, or by spaces when there is no semicolon (a space may
    group digits, "1 234,5", so a list with such values needs semicolons)."""
    field = NumberField()
    separator = r";" if ";" in text else r"\s+"
    return [field.clean(part) for part in re.split(separator, text.strip()) if part.strip()]


class VariedInputForm(forms.Form):
    field = forms.ChoiceField(label=_("Input to vary"), required=False)
    kind = forms.ChoiceField(label=_("Range or list"), choices=KIND_CHOICES, initial="linear")
    start = NumberField(label=_("Start"), help_text=_("For a range: the first value."))
    stop = NumberField(label=_("Stop"), help_text=_("For a range: the last value."))
    steps = NumberField(
        label=_("Steps"),
        integer=True,
        help_text=_("For a range: how many values, start and stop too."),
    )
    values = forms.CharField(
        label=_("List of values"),
        required=False,
        help_text=_("For a list: separated by spaces or semicolons, e.g. 12; 24; 36."),
    )

    def __init__(self, *args, scenario_inputs: dict, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["field"].choices = input_choices(scenario_inputs)
        attach_terms(self, SWEEP_INPUT_TERMS)

    def clean_values(self) -> list[float]:
        try:
            return _parse_values(self.cleaned_data["values"])
        except forms.ValidationError:
            raise forms.ValidationError(
                _("Enter numbers separated by spaces or semicolons, e.g. 12; 24; 36.")
            ) from None

    def item(self) -> dict | None:
        """This row in the definition's shape (API units: percentages as shares); None if unused."""
        data = self.cleaned_data
        spec = SWEEPABLE.get(data.get("field") or "")
        if spec is None:
            return None
        item = {"field": spec.path, "kind": data["kind"]}
        if data["kind"] == "list":
            return {**item, "values": [value / spec.scale for value in data["values"]]}
        for name in ("start", "stop"):
            if data.get(name) is not None:
                item[name] = data[name] / spec.scale
        if data.get("steps") is not None:
            item["steps"] = data["steps"]
        return item


class BaseVariedInputFormSet(forms.BaseFormSet):
    def items(self) -> list[tuple[int, dict]]:
        """(row number, item) of the rows that vary an input."""
        rows = [(row, form.item()) for row, form in enumerate(self.forms) if form.is_valid()]
        return [(row, item) for row, item in rows if item is not None]


VariedInputFormSet = forms.formset_factory(
    VariedInputForm,
    formset=BaseVariedInputFormSet,
    extra=INPUT_ROWS,
    max_num=INPUT_ROWS,
    validate_max=True,
)


class SweepForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the sweep"),
        required=False,
        max_length=200,
        help_text=_("Optional; named after what it varies if you leave it empty."),
    )
    accelerators = forms.MultipleChoiceField(
        label=_("Accelerators to compare"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Optional. Each one multiplies the points; none keeps the scenario’s own."),
    )
    accelerator_sections = forms.MultipleChoiceField(
        label=_("Use the accelerators ticked for"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    models = forms.MultipleChoiceField(
        label=_("Language models to compare"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Optional, for a scenario serving a language model by tokens. Each model brings "
            "its own layers, attention heads and parameters, and multiplies the points."
        ),
    )

    def __init__(
        self, *args, scenario_inputs: dict, accelerators: list, models: list = (), **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["accelerators"].choices = [(a.slug, str(a)) for a in accelerators]
        self.fields["models"].choices = [(m.slug, m.developer_and_name) for m in models]
        present = [s for s in SECTIONS if scenario_inputs.get(s)]
        self.fields["accelerator_sections"].choices = [(s, SECTION_LABELS[s]) for s in present]
        self.fields["accelerator_sections"].initial = present
        attach_terms(self, SWEEP_TERMS)


class SweepDefinitionForm:
    """The sweep form and its rows of inputs together, in the definition's shape."""

    def __init__(
        self, data, *, scenario_inputs: dict, accelerators: list, models: list = ()
    ) -> None:
        self.sweep = SweepForm(
            data, scenario_inputs=scenario_inputs, accelerators=accelerators, models=models
        )
        self.inputs = VariedInputFormSet(
            data, prefix="inputs", form_kwargs={"scenario_inputs": scenario_inputs}
        )
        self._rows: list[int] = []

    def is_valid(self) -> bool:
        return self.sweep.is_valid() & self.inputs.is_valid()

    def definition(self) -> dict:
        rows = self.inputs.items()
        self._rows = [row for row, _ in rows]
        data = self.sweep.cleaned_data if self.sweep.is_valid() else {}
        definition = {
            "inputs": [item for _, item in rows],
            "accelerators": data.get("accelerators", []),
        }
        if definition["accelerators"]:
            definition["accelerator_sections"] = data.get("accelerator_sections", [])
        if data.get("models"):
            definition["models"] = data["models"]
        return definition

    def add_errors(self, error: DefinitionError) -> None:
        """Put each message of a DefinitionError beside the field it is about."""
        for key, messages in error.errors.items():
            head, _, rest = key.partition(".")
            if head == "inputs" and rest:
                position, _, name = rest.partition(".")
                form = self.inputs.forms[self._rows[int(position)]]
                for message in messages:
                    form.add_error(name or None, message)
                continue
            field = head if head in self.sweep.fields else None
            for message in messages:
                self.sweep.add_error(field, message)

    @property
    def errors(self) -> list[tuple[str, str, str]]:
        """(field id, label, message) of every error, for the summary at the top of the page."""
        found = [
            (self.sweep[name].id_for_label if name != "__all__" else "", "", message)
            for name, messages in self.sweep.errors.items()
            for message in messages
        ]
        for form in self.inputs.forms:
            for name, messages in form.errors.items():
                field = form[name] if name != "__all__" else form["field"]
                label = "" if name == "__all__" else form.fields[name].label
                found += [(field.id_for_label, label, message) for message in messages]
        return [(fid, label or self._label(fid), message) for fid, label, message in found]

    def _label(self, field_id: str) -> str:
        names = {self.sweep[n].id_for_label: f.label for n, f in self.sweep.fields.items()}
        return names.get(field_id, "")


def point_count(data, *, scenario_inputs: dict) -> dict:
    """How many points the form as typed makes, before it is complete or valid."""
    inputs = VariedInputFormSet(
        data, prefix="inputs", form_kwargs={"scenario_inputs": scenario_inputs}
    )
    lengths, unfinished = [], False
    for form in inputs.forms:
        form.is_valid()
        cleaned = form.cleaned_data
        if not cleaned.get("field"):
            continue
        if cleaned.get("kind") == "list":
            length = len(cleaned.get("values") or []) or None
        else:
            steps = cleaned.get("steps")
            length = steps if steps is not None and steps >= 1 else None
        unfinished |= length is None
        lengths.append(length or 0)
    models = len(data.getlist("models"))
    if models:
        lengths.insert(0, models)
    accelerators = len(data.getlist("accelerators"))
    if accelerators:
        lengths.insert(0, accelerators)
    total = math.prod(lengths) if lengths and not unfinished else None
    return {
        "total": total,
        "text": points_text(lengths) if total else "",
        "over_limit": over_limit_message(lengths) if total and total > MAX_POINTS else "",
        "unfinished": unfinished,
        "empty": not lengths,
    }
