"""Every number a person types, in every form, is read in the page's language: in French with a
decimal comma and the digits grouped by a narrow no-break space, a no-break space or a plain
space (apps/words/numbers.parse_number). Each form's numeric fields are found by kind,
so a new one that reads only "1234.5" fails here (pages: test_locale_numbers.py)."""

import pytest
from django import forms
from django.utils import translation

from apps.budget.forms import CostLineForm
from apps.catalogue.snapshot import Catalogue
from apps.projects.forms import NumberField, ProjectForm, ScenarioForm
from apps.projects.quick_start import QuickStartForm
from apps.sharing.forms import ShareLinkForm
from apps.sweeps.forms import VariedInputForm
from tests.factories import make_manager

pytestmark = pytest.mark.django_db

SPACES = {"U+202F": "\u202f", "U+00A0": "\u00a0", "space": " "}
NUMERIC = (forms.IntegerField, forms.FloatField, forms.DecimalField, NumberField)
# Numeric fields nobody types digits into as text: hidden machine values, and a number of days
# (1 to 90) in the browser's own number input, which sends machine digits in every language.
NOT_TYPED = {("ScenarioForm", "version"), ("ShareLinkForm", "expires_in_days")}


def _forms() -> list[forms.BaseForm]:
    owner = make_manager("maria")
    return [
        ScenarioForm(catalogue=Catalogue.load()),
        CostLineForm(),
        ProjectForm(owner=owner),
        QuickStartForm(),
        VariedInputForm(scenario_inputs={}),
        ShareLinkForm(),
    ]


def _typed(form: forms.BaseForm) -> dict[str, forms.Field]:
    return {
        name: field
        for name, field in form.fields.items()
        if isinstance(field, NUMERIC)
        and not field.widget.is_hidden
        and (type(form).__name__, name) not in NOT_TYPED
    }


def _read(field: forms.Field, text: str) -> float:
    """What the field reads `text` as, in the units a person types (a scaled field's raw)."""
    value = field.to_python(text)
    return float(value) * getattr(field, "scale", 1)


@pytest.mark.parametrize("space", SPACES.values(), ids=SPACES)
def test_every_numeric_field_of_every_form_reads_french_numbers(space):
    checked = 0
    with translation.override("fr"):
        for form in _forms():
            for name, field in _typed(form).items():
                assert _read(field, f"1{space}234") == pytest.approx(1234), name
                if not getattr(field, "integer", False):
                    assert _read(field, f"1{space}234,5") == pytest.approx(1234.5), name
                    assert _read(field, "0,25") == pytest.approx(0.25), name
                checked += 1
    # the scenario's inputs and their ranges, the cost line's amounts, the budget settings,
    # a sweep's start, stop and steps
    assert checked >= 90


def test_a_field_that_reads_only_machine_numbers_would_be_found():
    class Plain(forms.Form):
        amount = forms.DecimalField()

    (field,) = _typed(Plain()).values()
    with translation.override("fr"), pytest.raises(forms.ValidationError):
        _read(field, "1\u202f234,5")
