"""Rendered parts of pages, cached under a digest of everything they are drawn from.

A key digests the part's inputs (for a scenario page: the saved name and inputs, the catalogue's
rows, the view, the currency) and the active language, so any change is a new key: nothing needs
invalidating, and an entry is never out of date. The code and translations that draw a part are
those of this release: every cache key carries RELEASE_ID (the cache's VERSION), so a new release
reads none of the last one's parts. Entries expire after FRAGMENT_SECONDS, which only bounds the
cache's size. The cache is the project's: Redis in production, shared by every process; this
process's memory locally.
"""

import hashlib
import json
from collections.abc import Callable

from django.core.cache import cache
from django.utils import translation

FRAGMENT_SECONDS = 60 * 60


def fragment_key(kind: str, *parts: object) -> str:
    """The cache key of a fragment of this kind drawn from these JSON-able parts, in the active
    language."""
    payload = json.dumps(
        [translation.get_language(), *parts], sort_keys=True, separators=(",", ":")
    )
    return f"fragment:{kind}:{hashlib.sha256(payload.encode()).hexdigest()}"


def cached_fragment[T](
    key: str,
    render: Callable[[], T],
    seconds: float = FRAGMENT_SECONDS,
    keep: Callable[[T], bool] = lambda value: True,
) -> T:
    """The cached value under key, else render() stored under it for `seconds` (unless `keep`
    says it is not to be kept: a page with errors in what a client typed)."""
    value = cache.get(key)
    if value is None:
        value = render()
        if keep(value):
            cache.set(key, value, seconds)
    return value
