"""The form that creates a share link."""

from django import forms

from apps.sharing.models import (
    DEFAULT_EXPIRY_DAYS,
    EXPIRY_DAYS_VALIDATORS,
    MAX_EXPIRY_DAYS,
    ShareLink,
)


class ShareLinkForm(forms.Form):
    label = forms.CharField(
        max_length=ShareLink._meta.get_field("label").max_length,
        help_text=ShareLink._meta.get_field("label").help_text,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    expires_in_days = forms.IntegerField(
        label="Days until the link expires",
        initial=DEFAULT_EXPIRY_DAYS,
        validators=EXPIRY_DAYS_VALIDATORS,
        help_text=f"{DEFAULT_EXPIRY_DAYS} unless you change it; at most {MAX_EXPIRY_DAYS}.",
        widget=forms.NumberInput(attrs={"min": 1, "max": MAX_EXPIRY_DAYS}),
    )
