"""Rendered parts of pages, cached under a digest of everything they are drawn from.

A key digests the part's inputs (for a scenario page: the saved name and inputs, the catalogue's
rows, the view, the currency), the active language, and the code and translations that draw it
(templates, Python source, compiled catalogues), so any change is a new key:
nothing needs invalidating, and an entry is never out of date. Entries expire after
FRAGMENT_SECONDS, which only bounds the cache's size. The cache is the project's: Redis in
production, shared by every process; this process's memory locally.
"""

import hashlib
import json
from collections.abc import Callable
from functools import cache as once

from django.conf import settings
from django.core.cache import cache
from django.utils import translation

FRAGMENT_SECONDS = 60 * 60
CODE_SUFFIXES = {".html", ".py", ".mo"}


@once
def code_digest() -> str:
    """The templates, the apps' source and the translations as this process runs them: a release
    that changes how figures are drawn or worded starts new keys."""
    digest = hashlib.sha256()
    for root in (
        settings.BASE_DIR / "templates",
        settings.BASE_DIR / "apps",
        *settings.LOCALE_PATHS,
    ):
        for path in sorted(root.rglob("*")):
            if path.suffix in CODE_SUFFIXES:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def fragment_key(kind: str, *parts: object) -> str:
    """The cache key of a fragment of this kind drawn from these JSON-able parts, in the active
    language."""
    payload = json.dumps(
        [code_digest(), translation.get_language(), *parts], sort_keys=True, separators=(",", ":")
    )
    return f"fragment:{kind}:{hashlib.sha256(payload.encode()).hexdigest()}"


def cached_fragment[T](key: str, render: Callable[[], T]) -> T:
    """The cached value under key, else render() stored under it."""
    value = cache.get(key)
    if value is None:
        value = render()
        cache.set(key, value, FRAGMENT_SECONDS)
    return value
