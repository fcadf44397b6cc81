"""The known slugs closest to one that is not in a catalogue, to suggest in its error message."""

import difflib
from collections.abc import Iterable

from apps.estimates.messages import Message, _

SUGGESTED = 3
# difflib's ratio under which a slug is too far to suggest: "h100" still finds "nvidia-h100-sxm".
CUTOFF = 0.5


def closest_slugs(slug: str, known: Iterable[str]) -> list[str]:
    """Up to three known slugs closest to `slug`, the closest first; a known slug that contains
    the one typed (`h800` in `nvidia-h800-sxm`) comes first."""
    known = sorted(known)
    typed = slug.strip().lower()
    containing = [name for name in known if typed and typed in name]
    close = difflib.get_close_matches(typed, known, n=SUGGESTED, cutoff=CUTOFF)
    return [*containing, *(name for name in close if name not in containing)][:SUGGESTED]


def unknown_slug_message(message: Message, slug: str, known: Iterable[str]) -> Message:
    """`message` (naming the slug) with the closest known slugs after it, when there are any."""
    closest = closest_slugs(slug, known)
    if not closest:
        return message
    return _(
        "%(problem)s Did you mean %(slugs)s?",
        problem=message,
        slugs=", ".join(map(repr, closest)),
    )
