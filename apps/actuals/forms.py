"""Forms of the plan-against-actual page: upload a bill, add a rule, enter a month by hand."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.actuals.kinds import kind_choices


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Billing file"),
        help_text=_("A FOCUS export (CSV or gzipped CSV) or the plain CSV of the template."),
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
