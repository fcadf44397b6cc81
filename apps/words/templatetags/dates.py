"""`{% load dates %}`: dates and times as the page's language writes them, by Babel (CLDR),
instead of Django's `date` filter with a pattern written for English ("j M Y, H:i").

`{{ d|day }}` 1 December 2026 · `{{ d|short_day }}` 1 Dec 2026 · `{{ t|moment }}` 1 Dec 2026,
14:30 · `{{ t|long_moment }}` 1 December 2026, 14:30 · `{{ d|month }}` December 2026 ·
`{{ d|short_month }}` Dec 2026; in French "1 décembre 2026", "1 déc. 2026, 14:30". Times are in
the current time zone. Nothing (None, "") gives "", as Django's filter does. Machine values stay
`|date:"c"` and `|date:"Y-m-d"`.
"""

from collections.abc import Callable
from datetime import date

from django import template

from apps.words.dates import date_text, datetime_text, month_text

register = template.Library()


def _or_empty(write: Callable[[date], str]) -> Callable[[date | None], str]:
    def filter_(value: date | None) -> str:
        return write(value) if isinstance(value, date) else ""

    return filter_


register.filter("day", _or_empty(date_text))
register.filter("short_day", _or_empty(lambda value: date_text(value, "medium")))
register.filter("moment", _or_empty(datetime_text))
register.filter("long_moment", _or_empty(lambda value: datetime_text(value, "long")))
register.filter("month", _or_empty(month_text))
register.filter("short_month", _or_empty(lambda value: month_text(value, "medium")))
