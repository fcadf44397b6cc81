"""What the baseline scenario's cached page digests of the actuals, without a query: a token in
the shared cache that every change of the project's actuals (an import, a month entered by
hand, an alert raised) replaces, and again once its transaction commits. A token lost from the
cache reads as None, which differs from any token the page was keyed by: it is drawn again."""

from uuid import uuid4

from django.core.cache import cache
from django.db import transaction

from apps.projects.models import Scenario

_KEY = "actuals-stamp:%d"
_FOREVER = None


def actuals_changed(project_id: int) -> None:
    """A new token now, and another once the change commits: a page drawn in between, from
    what was there before, is keyed by the first and never read again."""
    _renew(project_id)
    transaction.on_commit(lambda: _renew(project_id))


def _renew(project_id: int) -> None:
    cache.set(_KEY % project_id, uuid4().hex, _FOREVER)


def actuals_stamp(scenario: Scenario) -> list:
    """The scenario page's part of its key: the baseline shows plan against actual, the other
    scenarios nothing of the actuals."""
    if not scenario.is_baseline:
        return []
    return [cache.get(_KEY % scenario.project_id)]
