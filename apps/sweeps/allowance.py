"""How many sweeps and points one person may start: running sweeps at once, points a day."""

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from apps.sweeps.definition import DefinitionError, points_text
from apps.sweeps.models import Sweep
from apps.words.numbers import decimal_text

DAY = timedelta(days=1)
# A running sweep has no known end: try again after about what a chunk or two of it takes.
ACTIVE_RETRY_AFTER_SECONDS = 30


class SweepLimitReached(Exception):
    """The person has reached a limit that time lifts: answered 429 with Retry-After."""

    def __init__(self, message: str, retry_after_seconds: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after_seconds = retry_after_seconds


def sweep_allowance_check(*, user, points: int) -> None:
    """Raise SweepLimitReached when `user` may not start a sweep of `points` now, or
    DefinitionError when no wait would let them (more points than a whole day's allowance).

    Call it inside the transaction that stores the sweep: the user's row is locked (on
    PostgreSQL; SQLite's write lock already serialises), so two requests cannot both take the
    last of an allowance.
    """
    per_day = settings.SWEEP_MAX_POINTS_PER_DAY
    if points > per_day:
        message = gettext(
            "A sweep may have at most %(points)s, your allowance for a day: vary fewer values."
        ) % {"points": points_text([per_day])}
        raise DefinitionError({"non_field_errors": [message]})
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    mine = Sweep.objects.filter(created_by=user)
    most_active = settings.SWEEP_MAX_ACTIVE_PER_USER
    if mine.filter(status__in=Sweep.ACTIVE).count() >= most_active:
        message = ngettext(
            "You have %(count)s sweep queued or running, as many as one person may: wait for it "
            "to finish, or cancel it, then try again in %(seconds)s seconds.",
            "You have %(count)s sweeps queued or running, as many as one person may: wait for "
            "one to finish, or cancel one, then try again in %(seconds)s seconds.",
            most_active,
        ) % {
            "count": decimal_text(most_active),
            "seconds": decimal_text(ACTIVE_RETRY_AFTER_SECONDS),
        }
        raise SweepLimitReached(message, ACTIVE_RETRY_AFTER_SECONDS)
    now = timezone.now()
    today = list(
        mine.filter(created_at__gt=now - DAY)
        .order_by("created_at")
        .values_list("created_at", "total_points")
    )
    excess = sum(total for _, total in today) + points - per_day
    if excess > 0:
        wait = _wait(today, excess, now)
        raise SweepLimitReached(_daily_message(per_day, wait), wait)


def _wait(today: list, excess: int, now) -> int:
    """Seconds until enough of the day's oldest sweeps leave the 24 hours to make room."""
    for created_at, total in today:
        excess -= total
        if excess <= 0:
            return max(1, math.ceil((created_at + DAY - now).total_seconds()))
    return math.ceil(DAY.total_seconds())


def _daily_message(per_day: int, wait_seconds: int) -> str:
    hours = math.ceil(wait_seconds / 3600)
    return ngettext(
        "Sweeps of %(points)s in 24 hours are as many as one person may start: this one would "
        "pass that. Try again in %(hours)s hour, or vary fewer values.",
        "Sweeps of %(points)s in 24 hours are as many as one person may start: this one would "
        "pass that. Try again in %(hours)s hours, or vary fewer values.",
        hours,
    ) % {"points": points_text([per_day]), "hours": decimal_text(hours)}
