"""The form that names a new API token, and the preferences form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import EMAIL_CHOICES, ApiToken, Preferences


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ("name",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A field called "name" would otherwise be offered the person's own name by autofill.
        self.fields["name"].widget.attrs["autocomplete"] = "off"


class PreferencesForm(forms.ModelForm):
    """The language of the pages and the emails, and which emails to receive."""

    class Meta:
        model = Preferences
        fields = ("language", *EMAIL_CHOICES)
        labels = {"language": _("Language")}
        help_texts = {
            "language": _("Of the pages and of the emails we send you."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            ("", _("Follow my browser")),
            *self.fields["language"].choices[1:],
        ]

    @property
    def email_fields(self) -> list:
        return [self[name] for name in EMAIL_CHOICES]
