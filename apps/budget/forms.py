"""Forms for cost lines and the project's budget settings, with percentages typed as people do."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.budget.line_templates import LINE_TEMPLATES
from apps.budget.models import AMOUNT_DIGITS, AMOUNT_PLACES, CostLine, Kind
from apps.core.planning_dates import PlanningDateInput
from apps.projects.field_terms import COST_LINE_TERMS, attach_terms
from apps.projects.locale_numbers import typed_decimal
from apps.projects.models import BUDGET_SETTINGS, FiscalYearLabel

MONTH_CHOICES = [
    (1, _("January")),
    (2, _("February")),
    (3, _("March")),
    (4, _("April")),
    (5, _("May")),
    (6, _("June")),
    (7, _("July")),
    (8, _("August")),
    (9, _("September")),
    (10, _("October")),
    (11, _("November")),
    (12, _("December")),
]


class PercentField(forms.DecimalField):
    """A rate typed as a percentage (3.5) and kept as a fraction (0.035)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("min_value", Decimal(0))
        kwargs.setdefault("max_value", Decimal(100))
        kwargs.setdefault("decimal_places", 4)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "step": "any"})

    def to_python(self, value):
        return typed_decimal(value, self.error_messages["invalid"])

    def clean(self, value):
        percent = super().clean(value)
        return None if percent is None else percent / 100

    def prepare_value(self, value):
        if isinstance(value, Decimal):
            return f"{(value * 100).normalize():f}"
        return value


class DecimalText(forms.DecimalField):
    """A decimal typed with thousands separators (15,000.50) and shown without trailing zeros."""

    default_error_messages = {"invalid": _("Enter a number, for example 15,000 or 2.5.")}

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        return typed_decimal(value, self.error_messages["invalid"])

    def prepare_value(self, value):
        if isinstance(value, Decimal):
            return f"{value.normalize():f}"
        return value


class VersionForm(forms.Form):
    """The scenario's version a page was shown with, sent back by a change made from it (a
    cost line's Delete button), so that a change based on an older version is refused."""

    version = forms.IntegerField(required=False, min_value=0)


class CostLineForm(forms.ModelForm):
    """A cost line, started from its kind's template; the model's `full_clean` checks it.

    `version` carries the scenario's version the form was opened on: a save after someone else
    saved the scenario is refused, as on the scenario's own form."""

    quantity = DecimalText(
        label=_("Quantity"),
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        min_value=Decimal(0),
        help_text=_("How many units, e.g. 1.5 FTE or 20 TB."),
    )
    unit_price = DecimalText(
        label=_("Unit price"),
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        min_value=Decimal(0),
        help_text=_("Per unit, in the project's currency; per month or year if it recurs."),
    )
    annual_escalation = PercentField(
        label=_("Annual escalation (%)"),
        required=False,
        initial=Decimal(0),
        help_text=_("How much the unit price rises each year, e.g. 3 for 3 %."),
    )

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        required=False,
        min_value=0,
    )

    class Meta:
        model = CostLine
        fields = [
            "kind", "name", "quantity", "unit", "unit_price", "recurrence", "start", "end",
            "annual_escalation", "budget_class", "category", "basis",
        ]  # fmt: skip
        widgets = {
            "kind": forms.HiddenInput,
            "start": PlanningDateInput(),
            "end": PlanningDateInput(),
            "basis": forms.Textarea(attrs={"rows": 2}),
        }
        labels = {"budget_class": _("Class"), "basis": _("Basis and source")}

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "cost-line-%s")  # unique beside the scenario form's ids
        super().__init__(*args, **kwargs)
        self.fields["budget_class"].choices = [
            ("", _("By the capitalisation threshold")),
            *self.fields["budget_class"].choices[1:],
        ]
        attach_terms(self, COST_LINE_TERMS)

    @classmethod
    def for_kind(cls, kind: str, **kwargs) -> "CostLineForm":
        """An empty form prefilled from the kind's template (Other when the kind is unknown)."""
        template = LINE_TEMPLATES.get(kind, LINE_TEMPLATES[Kind.OTHER])
        initial = {
            "kind": template.kind,
            "name": template.name,
            "unit": template.unit,
            "recurrence": template.recurrence,
            "category": template.category,
            "basis": template.basis,
            **kwargs.pop("initial", {}),
        }
        return cls(initial=initial, **kwargs)

    def line_fields(self) -> dict:
        """The cleaned line's own fields (not the version it was based on)."""
        return {name: value for name, value in self.cleaned_data.items() if name != "version"}

    def clean_annual_escalation(self) -> Decimal:
        return self.cleaned_data["annual_escalation"] or Decimal(0)


class BudgetSettingsFields(forms.ModelForm):
    """The project's budget settings, for the project form: rates as percentages; a setting
    left empty (or not sent, as by an older form) takes its default."""

    fiscal_year_start_month = forms.TypedChoiceField(
        label=_("The fiscal year starts in"),
        choices=MONTH_CHOICES,
        coerce=int,
        initial=1,
        required=False,
    )
    fiscal_year_label = forms.ChoiceField(
        label=_("Fiscal years are named"),
        choices=FiscalYearLabel.choices,
        initial=FiscalYearLabel.END_YEAR,
        required=False,
        widget=forms.RadioSelect,
    )
    capitalisation_threshold = DecimalText(
        label=_("Capitalisation threshold"),
        max_digits=14,
        decimal_places=2,
        min_value=Decimal(0),
        required=False,
        help_text=_(
            "In the project's currency: a line of at least this much is capital expenditure "
            "unless its class is set. Empty: 5,000."
        ),
    )
    discount_rate = PercentField(
        label=_("Discount rate (% a year, real)"),
        required=False,
        help_text=_("For the net present value. Empty: 3.5, the UK Green Book's real rate."),
    )
    contingency_capex = PercentField(
        label=_("Contingency on capex (%)"),
        required=False,
        help_text=_("Added to capital expenditure, as its own row. Empty: 0."),
    )
    contingency_opex = PercentField(
        label=_("Contingency on opex (%)"),
        required=False,
        help_text=_("Added to operating expenditure, as its own row. Empty: 0."),
    )
    indirect_rate = PercentField(
        label=_("Indirect support costs (%)"),
        required=False,
        help_text=_("A percentage of the direct costs and contingency, e.g. 7. Empty: 0."),
    )

    def clean(self) -> dict:
        cleaned = super().clean()
        model = self._meta.model
        for name in BUDGET_SETTINGS:
            if name in self.fields and cleaned.get(name) in (None, ""):
                cleaned[name] = model._meta.get_field(name).get_default()
        return cleaned
