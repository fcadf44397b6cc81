"""A scenario's stored inputs in the scenario form's words, for its exports.

Each input gets the form's label (its unit in it: "Growth per month (%)"), its value on the form's
scale (percent for a share), names for catalogue slugs and words for choices, the value as text
for people (numbers by Babel) and the form's hint. The stored request (JSON) keeps its keys and
values as they are; only CSV, XLSX and PDF read these words.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext, gettext_lazy

from apps.catalogue.names import catalogue_name, full_name
from apps.catalogue.resolve import Catalogue
from apps.exports.figures import Value
from apps.projects.forms import ScenarioForm
from apps.projects.input_choices import INPUT_CHOICES, INPUT_NUMBERS
from apps.projects.scenario_fields import SECTION_TITLES
from apps.words.numbers import exact_text, percent_value_text

# Inputs the API takes that the form does not show, labelled as the form would.
_API_ONLY = {
    "utilization_of_owned": gettext_lazy("Busy share of an owned accelerator's lifetime (%)"),
    "pue": gettext_lazy("Power usage effectiveness (PUE)"),
    "electricity_price_per_kwh": gettext_lazy("Electricity price (USD per kWh)"),
    "api_model": gettext_lazy("API model"),
}
_SHARES = {"utilization_of_owned"}  # API-only inputs that are shares, shown in percent
_SETTINGS = {
    "samples": gettext_lazy("Monte Carlo samples"),
    "seed": gettext_lazy("Seed of the random draws"),
}
# xgettext:no-python-format
RANGE_MEANING = gettext_lazy("The input's 90 % range: its 5th and 95th percentiles.")


@dataclass(frozen=True)
class InputRow:
    section: str  # the form's section title; "(all)" for the scenario's whole
    label: str  # the form's label, with its unit
    value: Value  # a number on the form's scale, or words
    text: str  # the value for people, numbers as the language writes them
    meaning: str  # the form's hint
    field: str  # the input's path in the stored request: "inputs.training.tokens"


def _section_title(section: str) -> str:
    return str(SECTION_TITLES[section]) if section in SECTION_TITLES else gettext("(all)")


def _scale(section: str, key: str) -> float:
    spec = INPUT_NUMBERS.get((section, key))
    if spec is not None:
        return spec.scale
    return 100.0 if key in _SHARES else 1.0


def _label(section: str, key: str) -> str:
    spec = INPUT_NUMBERS.get((section, key))
    if spec is not None:
        return str(spec.label)
    form_field = ScenarioForm.base_fields.get(f"{section}_{key}" if section else key)
    if form_field is not None:
        return str(form_field.label)
    return str(_API_ONLY.get(key, key))


def _meaning(section: str, key: str) -> str:
    spec = INPUT_NUMBERS.get((section, key))
    if spec is not None:
        return str(spec.hint)
    form_field = ScenarioForm.base_fields.get(f"{section}_{key}" if section else key)
    return str(form_field.help_text) if form_field is not None else ""


def _number(value: float, scale: float) -> float | int:
    """The value as the form shows it: 0.4 at scale 100 is 40, without float noise."""
    if scale == 1:
        return value
    shown = float(format(value * scale, ".10g"))
    return int(shown) if shown.is_integer() else shown


def _number_text(value: float | int, scale: float) -> str:
    if scale == 100:
        return percent_value_text(Decimal(format(value, ".10g")))
    return exact_text(format(value, ".10g"))


def _words(section: str, key: str, value: object, catalogue: Catalogue) -> str | None:
    """A choice's or a catalogue slug's words; None for a number."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if (section, key) in INPUT_CHOICES:
        return str(INPUT_CHOICES[section, key].get(value, value))
    if key == "accelerator" and value in catalogue.accelerators:
        accelerator = catalogue.accelerators[value]
        return full_name(accelerator.vendor, accelerator.name)
    if key == "model" and value in catalogue.models:
        model = catalogue.models[value]
        return full_name(model.developer, model.name)
    if key == "energy_profile" and value in catalogue.energy_profiles:
        return catalogue_name(catalogue.energy_profiles[value].name)
    if key == "precision":
        return str(value).upper()
    if isinstance(value, int | float):
        return None
    return str(value)


def _row(section: str, key: str, value: object, catalogue: Catalogue) -> InputRow:
    words = _words(section, key, value, catalogue)
    if words is None:
        shown = _number(value, _scale(section, key))
        value_shown: Value = shown
        text = _number_text(value, _scale(section, key))
    else:
        value_shown = text = words
    return InputRow(
        _section_title(section),
        _label(section, key),
        value_shown,
        text,
        _meaning(section, key),
        ".".join(filter(None, ("inputs", section, key))),
    )


def _range(path: str, interval: dict) -> InputRow:
    section, _dot, key = path.rpartition(".")
    scale = _scale(section, key)
    text = gettext("between %(low)s and %(high)s") % {
        "low": _number_text(interval["low"], scale),
        "high": _number_text(interval["high"], scale),
    }
    label = gettext("%(input)s: range") % {"input": _label(section, key)}
    return InputRow(
        _section_title(section), label, text, text, str(RANGE_MEANING), f"inputs.ranges.{path}"
    )


def _settings(settings: dict) -> Iterator[InputRow]:
    for key, value in settings.items():
        label = str(_SETTINGS.get(key, key))
        field = f"inputs.uncertainty.{key}"
        yield InputRow(_section_title(""), label, value, exact_text(str(value)), "", field)


def input_rows(inputs: dict, catalogue: Catalogue | None = None) -> list[InputRow]:
    """A scenario's stored inputs, one row per input, in the form's words and order of keys."""
    catalogue = catalogue or Catalogue.load()
    rows = []
    for key, value in inputs.items():
        if key == "ranges":
            rows += [_range(path, interval) for path, interval in value.items()]
        elif key == "uncertainty":
            rows += _settings(value)
        elif isinstance(value, dict):
            rows += [_row(key, name, item, catalogue) for name, item in value.items()]
        else:
            rows.append(_row("", key, value, catalogue))
    return rows
