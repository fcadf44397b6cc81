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


def _years_pattern(first: int, last: int) -> str:
    """The years from `first` to `last` as a regular expression: whole decades as `199\\d`."""
    parts, year = [], first
    while year <= last:
        if year % 10 == 0 and year + 9 <= last:
            parts.append(f"{year // 10}\\d")
            year += 10
        else:
            parts.append(str(year))
            year += 1
    return "|".join(parts)


# An ISO date (YYYY-MM-DD) within the range, for the OpenAPI schema beside its `format: date`,
# which says nothing of years: what the validator refuses, the schema refuses too.
PLANNING_DATE_PATTERN = (
    f"^(?:{_years_pattern(PLANNING_FIRST_DAY.year, PLANNING_LAST_DAY.year)})"
    "-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])$"
)


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
