"""The cost line form, with amounts typed as people do."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.budget.fiscal_labels import fiscal_year_text
from apps.budget.line_templates import LINE_TEMPLATES
from apps.budget.models import AMOUNT_DIGITS, AMOUNT_PLACES, CostLine, Kind
from apps.core.planning_dates import PlanningDateInput
from apps.exchange.rates import has_any_rate, no_rate_message
from apps.projects.budget_settings import DecimalText, PercentField
from apps.projects.field_terms import COST_LINE_TERMS, attach_terms
from apps.projects.models import RATE_DIGITS, RATE_MIN, RATE_PLACES, fiscal_year_rates_record
from apps.words.currencies import currency_choices


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
        help_text=_("Per unit, in the line's currency; per month or year if it recurs."),
    )
    currency = forms.ChoiceField(
        label=_("Currency of the unit price"),
        required=False,
        help_text=_(
            "Leave it to the project's currency, or choose the one the price is quoted in: it "
            "is converted at the project's exchange rate, which the budget shows beside it."
        ),
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
            "kind", "name", "quantity", "unit", "unit_price", "currency", "recurrence", "start",
            "end", "annual_escalation", "budget_class", "category", "basis",
        ]  # fmt: skip
        widgets = {
            "kind": forms.HiddenInput,
            "start": PlanningDateInput(),
            "end": PlanningDateInput(),
            "basis": forms.Textarea(attrs={"rows": 2}),
        }
        labels = {"budget_class": _("Class"), "basis": _("Basis and source")}

    def __init__(self, *args, project=None, **kwargs) -> None:
        kwargs.setdefault("auto_id", "cost-line-%s")  # unique beside the scenario form's ids
        super().__init__(*args, **kwargs)
        self.project = project
        own = project.currency if project is not None else ""
        self.fields["currency"].choices = [
            ("", _("The project's currency (%(currency)s)") % {"currency": own} if own else "—"),
            *(choice for choice in currency_choices() if choice[0] != own),
        ]
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

    def clean_currency(self) -> str:
        currency = self.cleaned_data.get("currency") or ""
        if self.project is None or currency in ("", self.project.currency):
            return ""
        if not has_any_rate(currency, self.project.rate_table):
            raise forms.ValidationError(no_rate_message(currency))
        return currency

    def clean_annual_escalation(self) -> Decimal:
        return self.cleaned_data["annual_escalation"] or Decimal(0)


class FiscalYearRatesForm(forms.Form):
    """A rate of its own for some of the project's fiscal years: one field per year of the
    budget, labelled in the reader's words, left empty for the rate date's rate."""

    def __init__(self, *args, labels: list[str], project, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.labels = dict(zip((f"year_{i}" for i in range(len(labels))), labels, strict=True))
        given = project.fiscal_year_rates or {}
        for name, label in self.labels.items():
            self.fields[name] = DecimalText(
                label=_("1 US dollar in %(currency)s in %(year)s")
                % {"currency": project.currency, "year": fiscal_year_text(label)},
                max_digits=RATE_DIGITS,
                decimal_places=RATE_PLACES,
                min_value=RATE_MIN,
                error_messages={"min_value": _("An exchange rate must be more than 0.")},
                required=False,
                initial=Decimal(given[label]) if label in given else None,
            )

    def rates(self, project) -> dict[str, str]:
        """The project's rates by fiscal year label, these years' as given (others kept)."""
        kept = {
            label: rate
            for label, rate in (project.fiscal_year_rates or {}).items()
            if label not in self.labels.values()
        }
        given = {
            label: self.cleaned_data[name]
            for name, label in self.labels.items()
            if self.cleaned_data.get(name) is not None
        }
        return fiscal_year_rates_record(project.currency, {**kept, **given})
