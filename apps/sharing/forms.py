"""The form that creates a share link."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from apps.sharing.models import (
    DEFAULT_EXPIRY_DAYS,
    EXPIRY_DAYS_VALIDATORS,
    MAX_EXPIRY_DAYS,
    ShareLink,
)


class ShareLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Label"),
        max_length=ShareLink._meta.get_field("label").max_length,
        help_text=_(
            "Who or what the link is for, for example “Board meeting, 12 March”. "
            "Only the project’s team sees it."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    expires_in_days = forms.IntegerField(
        label=_("Days until the link expires"),
        initial=DEFAULT_EXPIRY_DAYS,
        validators=EXPIRY_DAYS_VALIDATORS,
        help_text=format_lazy(
            _("{default} unless you change it; at most {most}."),
            default=DEFAULT_EXPIRY_DAYS,
            most=MAX_EXPIRY_DAYS,
        ),
        widget=forms.NumberInput(attrs={"min": 1, "max": MAX_EXPIRY_DAYS}),
    )
