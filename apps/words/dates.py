"""Dates and times in the active language by Babel (CLDR): "1 December 2026", "1 déc. 2026"."""

from datetime import date, datetime

from babel.dates import format_date, format_skeleton, format_time, get_datetime_format
from django.utils import timezone

# The locale is read through the module (numbers.number_locale()), so that numbers and dates
# follow the one place that decides it, and a test that pins it pins both.
from apps.words import numbers


def _local(moment: date) -> date:
    """A datetime in the current time zone (as Django's `date` filter shows it); a date as is."""
    if isinstance(moment, datetime) and timezone.is_aware(moment):
        return timezone.localtime(moment)
    return moment


def date_text(day: date, width: str = "long") -> str:
    """A date in words, as the locale writes it: "1 December 2026"; "1 décembre 2026";
    `width` "medium": "1 Dec 2026"; "1 déc. 2026". A datetime gives its local date."""
    day = _local(day)
    day = day.date() if isinstance(day, datetime) else day
    return format_date(day, format=width, locale=numbers.number_locale())


def datetime_text(moment: datetime, width: str = "medium") -> str:
    """A date and the time to the minute, in the current time zone, as the locale joins them:
    "1 Dec 2026, 14:30"; "1 déc. 2026, 14:30"; `width` "long": "1 December 2026, 14:30"."""
    moment = _local(moment)
    locale = numbers.number_locale()
    pattern = get_datetime_format(width, locale=locale).replace("'", "")
    time_part = format_time(moment, format="short", locale=locale)
    date_part = format_date(moment.date(), format=width, locale=locale)
    return pattern.replace("{0}", time_part).replace("{1}", date_part)


def month_text(day: date, width: str = "long") -> str:
    """A month and its year: "December 2026"; "décembre 2026"; `width` "medium": "Dec 2026"."""
    skeleton = "yMMMM" if width == "long" else "yMMM"
    return format_skeleton(skeleton, _local(day), locale=numbers.number_locale())
