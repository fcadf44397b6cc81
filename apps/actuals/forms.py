"""Forms of the plan-against-actual page: upload a bill, add a rule, enter a month by hand,
set the alert thresholds."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.actuals.kinds import kind_choices
from apps.actuals.models import validate_percentages


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Billing file"),
        help_text=_(
            "A FOCUS export (CSV, gzipped CSV or Parquet) or the plain CSV of the template."
        ),
    )
    source = forms.CharField(
        label=_("Source"),
        max_length=200,
        required=False,
        help_text=_(
            "Where the bill comes from. A new file from the same source for a billing period "
            "already imported replaces that period. Empty: the invoice issuer and account of a "
            "FOCUS export, “csv” for the plain CSV."
        ),
    )


class RuleForm(forms.Form):
    column = forms.CharField(
        label=_("Column"),
        max_length=200,
        help_text=_("A FOCUS column (ServiceName, SkuId, SubAccountName …) or Tags.<key>."),
    )
    value = forms.CharField(label=_("Value"), max_length=500, required=False)
    kind = forms.ChoiceField(label=_("Kind of line"), choices=kind_choices)


class ActualForm(forms.Form):
    month = forms.DateField(
        label=_("Month"),
        input_formats=["%Y-%m", "%Y-%m-%d"],
        help_text=_("YYYY-MM, for example 2026-03."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    kind = forms.ChoiceField(label=_("Kind of line"), choices=kind_choices)
    amount = forms.DecimalField(
        label=_("Amount"),
        max_digits=14,
        decimal_places=2,
        min_value=Decimal("-999999999999.99"),
        help_text=_("In the project's currency; replaces what was entered for that month."),
    )


class ThresholdsForm(forms.Form):
    percentages = forms.CharField(
        label=_("Alert thresholds (% of a fiscal year’s budget)"),
        max_length=100,
        help_text=_("Whole percentages separated by commas, at most five: 80, 100."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    on_actual = forms.BooleanField(label=_("Alert on actual spending"), required=False)
    on_forecast = forms.BooleanField(
        label=_("Alert on the forecast outturn (actual plus the plan for the months left)"),
        required=False,
    )

    def clean_percentages(self) -> list[int]:
        parts = [
            part.strip().removesuffix("%").strip()
            for part in self.cleaned_data["percentages"].split(",")
        ]
        parts = [part for part in parts if part]
        if not all(part.isdigit() for part in parts):
            raise forms.ValidationError(
                _("Write whole percentages separated by commas, such as 80, 100.")
            )
        percentages = sorted({int(part) for part in parts})
        validate_percentages(percentages)
        return percentages

    @classmethod
    def of(cls, thresholds) -> "ThresholdsForm":
        """The form showing the project's thresholds."""
        return cls(
            initial={
                "percentages": ", ".join(str(p) for p in thresholds.percentages),
                "on_actual": thresholds.on_actual,
                "on_forecast": thresholds.on_forecast,
            }
        )
