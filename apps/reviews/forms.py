"""Forms of the review: the queue's filters, comments, and returning or clearing a project."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from apps.budget.fiscal_labels import fiscal_year_text
from apps.reviews.selectors import FISCAL_YEAR_SORT

STATUSES = [
    ("submitted", gettext_lazy("Submitted for review")),
    ("returned", gettext_lazy("Returned for changes")),
    ("cleared", gettext_lazy("Cleared")),
    ("all", gettext_lazy("Any status")),
]
SORT_LABELS = {
    "submitted": gettext_lazy("Submitted, oldest first"),
    "-submitted": gettext_lazy("Submitted, newest first"),
    "-total_cost": gettext_lazy("Budget total, highest first"),
    "total_cost": gettext_lazy("Budget total, lowest first"),
}


def fiscal_year_sorts(labels: list[str]) -> list[tuple[str, str]]:
    """The sorts by each fiscal year's budget total, highest first then lowest first."""
    choices = []
    for label in labels:
        year = {"year": fiscal_year_text(label)}  # the label itself stays the key
        choices.append((f"-{FISCAL_YEAR_SORT}{label}", gettext("%(year)s, highest first") % year))
        choices.append((f"{FISCAL_YEAR_SORT}{label}", gettext("%(year)s, lowest first") % year))
    return choices


DATE_INPUT = forms.DateInput(attrs={"type": "date"})


class QueueFilterForm(forms.Form):
    """The queue's filters, sent by GET; the queue shows what awaits review unless told."""

    DEFAULTS = {"status": "submitted", "sort": "submitted"}

    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=STATUSES, required=False)
    unit = forms.ChoiceField(label=gettext_lazy("Organisational unit"), required=False)
    submitted_from = forms.DateField(
        label=gettext_lazy("Submitted on or after"), required=False, widget=DATE_INPUT
    )
    submitted_to = forms.DateField(
        label=gettext_lazy("Submitted on or before"), required=False, widget=DATE_INPUT
    )
    sort = forms.ChoiceField(
        label=gettext_lazy("Sort by"), choices=list(SORT_LABELS.items()), required=False
    )

    def __init__(self, data, *, units: list[str], fiscal_years: list[str] = ()):
        super().__init__({**self.DEFAULTS, **data.dict()})
        self.fields["unit"].choices = [
            ("", gettext("All units")),
            *((unit, unit) for unit in units),
        ]
        self.fields["sort"].choices = [*SORT_LABELS.items(), *fiscal_year_sorts(fiscal_years)]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("submitted_from"), cleaned.get("submitted_to")
        if start and end and end < start:
            self.add_error("submitted_to", gettext("This date is before the first one."))
        return cleaned

    def filters(self) -> dict:
        """Keyword arguments of `review_queue`: the valid filters; the defaults for the others."""
        cleaned = getattr(self, "cleaned_data", {})
        status = cleaned.get("status") or self.DEFAULTS["status"]
        sort = cleaned.get("sort") or self.DEFAULTS["sort"]
        return {
            "status": "" if status == "all" else status,
            "unit": cleaned.get("unit", ""),
            "submitted_from": cleaned.get("submitted_from"),
            "submitted_to": cleaned.get("submitted_to"),
            "sort": sort,
        }


class CommentForm(forms.Form):
    body = forms.CharField(
        label=gettext_lazy("Your comment"),
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("The front office and the project’s managers all read it."),
    )


class ReturnForm(forms.Form):
    """On the review page beside ClearForm: its own ids, though both have a `comment`."""

    comment = forms.CharField(
        label=gettext_lazy("What needs to change"),
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            "Required: the managers see it on their project, and can change it and submit it again."
        ),
        error_messages={
            "required": gettext_lazy("Say what needs to change before returning the project.")
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, auto_id="return_%s", **kwargs)


class ClearForm(forms.Form):
    comment = forms.CharField(
        label=gettext_lazy("Note (optional)"),
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Clearing ends the review; the project then stays as it is."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, auto_id="clear_%s", **kwargs)
