"""The one rule every date a user types must follow: within the years anyone plans for.

A plan's dates run from 1990 to 2100. Beyond, the budget's month arithmetic would leave the
calendar Python can count in (year 9999), so a far date is refused at its field, in the API and
the forms alike, with a message written for people.
"""

from datetime import date

from django import forms
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

PLANNING_FIRST_DAY = date(1990, 1, 1)
PLANNING_LAST_DAY = date(2100, 12, 31)


def planning_range_words() -> dict[str, str]:
    """The range's first and last day as the reader writes dates: {"first", "last"}."""
    return {
        "first": date_format(PLANNING_FIRST_DAY, "DATE_FORMAT"),
        "last": date_format(PLANNING_LAST_DAY, "DATE_FORMAT"),
    }


@deconstructible
class PlanningDateValidator:
    """Refuses a date before PLANNING_FIRST_DAY or after PLANNING_LAST_DAY."""

    message = _("Enter a date from %(first)s to %(last)s.")
    code = "outside_planning_range"

    def __call__(self, value: date) -> None:
        if value is not None and not PLANNING_FIRST_DAY <= value <= PLANNING_LAST_DAY:
            raise ValidationError(self.message % planning_range_words(), code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlanningDateValidator)

    def __hash__(self) -> int:
        return hash(PlanningDateValidator)


class PlanningDateField(serializers.DateField):
    """An API date within the planning range; the schema gives its bounds in words."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("validators", []).append(PlanningDateValidator())
        help_text = kwargs.get("help_text", "")
        kwargs["help_text"] = (
            f"{help_text} From {PLANNING_FIRST_DAY.isoformat()} to {PLANNING_LAST_DAY.isoformat()}."
        ).strip()
        super().__init__(**kwargs)


class PlanningDateInput(forms.DateInput):
    """A date picker that offers only the planning range (the field's validator still checks)."""

    def __init__(self, attrs: dict | None = None) -> None:
        bounds = {
            "type": "date",
            "min": PLANNING_FIRST_DAY.isoformat(),
            "max": PLANNING_LAST_DAY.isoformat(),
        }
        super().__init__(attrs={**bounds, **(attrs or {})}, format="%Y-%m-%d")
