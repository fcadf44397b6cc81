"""The filters of the administrators' audit log page."""

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.audit.models import Action, AuditEventQuerySet


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Action"), choices=[("", _("Every action")), *Action.choices], required=False
    )
    actor = forms.CharField(label=_("Who (username)"), max_length=150, required=False, strip=True)
    project = forms.IntegerField(
        label=_("Project number"), min_value=1, max_value=999_999_999_999_999_999, required=False
    )

    def filter(self, events: AuditEventQuerySet) -> AuditEventQuerySet:
        """The events the valid filters keep (all of them when the form is not valid)."""
        if not self.is_valid():
            return events
        data = self.cleaned_data
        if data["action"]:
            events = events.filter(action_name=data["action"])
        if data["actor"]:
            events = events.filter(actor_name__iexact=data["actor"])
        if data["project"]:
            events = events.filter(project_id=data["project"])
        return events
