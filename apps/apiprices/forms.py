"""The filters of the API price page, sent by GET."""

import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.apiprices.models import ApiModel


class PriceFilterForm(forms.Form):
    provider = forms.ChoiceField(label=_("Provider"), required=False)
    model = forms.CharField(
        label=_("Model identifier"),
        required=False,
        max_length=160,
        help_text=_("Exactly as the provider names it, e.g. gpt-4o."),
    )
    at = forms.DateField(
        label=_("Prices in force on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: today."),
    )

    def __init__(self, data) -> None:
        super().__init__(data)
        providers = ApiModel.objects.order_by("provider_name").values_list(
            "provider", "provider_name"
        )
        self.fields["provider"].choices = [("", _("All providers")), *providers.distinct()]

    def filters(self) -> dict:
        """Keyword arguments of `models_priced_on` (and `prices_in_force`): the valid filters, today
        by default."""
        cleaned = getattr(self, "cleaned_data", {})
        return {
            "day": cleaned.get("at") or datetime.date.today(),
            "provider": cleaned.get("provider", ""),
            "model": cleaned.get("model", ""),
        }
