"""The form that names a new API token."""

from django import forms

from apps.accounts.models import ApiToken


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ("name",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A field called "name" would otherwise be offered the person's own name by autofill.
        self.fields["name"].widget.attrs["autocomplete"] = "off"
