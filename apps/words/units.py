"""The words of the units that follow a count in a figure ("15,000 requests", "1 accelerator",
"26.7 million accelerator-hours"), in the active language, with the plural the number needs.

The key is the unit's English plural, as `Figure.unit` keeps it for machines; the words are
ngettext messages with the number as `%(number)s`, so each language places and inflects them
itself: French writes "1 heure", "0 heure", "15 000 heures", and "26,7 millions d’heures" after
a magnitude word (the plural slot gettext picks for a multiple of a million).
"""

from collections.abc import Callable

from apps.words.language import ngettext

# The count gettext is given for a number written with a magnitude word ("26.7 million"): a
# multiple of a million, which French words with "de" ("millions de demandes").
MAGNITUDE_WORD = 1_000_000

UNITS: dict[str, Callable[[int], str]] = {
    "accelerator-hours": lambda n: ngettext(
        "%(number)s accelerator-hour", "%(number)s accelerator-hours", n
    ),
    "accelerator-seconds": lambda n: ngettext(
        "%(number)s accelerator-second", "%(number)s accelerator-seconds", n
    ),
    "hours": lambda n: ngettext("%(number)s hour", "%(number)s hours", n),
    "months": lambda n: ngettext("%(number)s month", "%(number)s months", n),
    "requests": lambda n: ngettext("%(number)s request", "%(number)s requests", n),
    "accelerators": lambda n: ngettext("%(number)s accelerator", "%(number)s accelerators", n),
    "tokens": lambda n: ngettext("%(number)s token", "%(number)s tokens", n),
    "copies": lambda n: ngettext("%(number)s copy", "%(number)s copies", n),
    "petaflop/s-days": lambda n: ngettext(
        "%(number)s petaflop/s-day", "%(number)s petaflop/s-days", n
    ),
}


def known(unit: object) -> bool:
    return str(unit) in UNITS


def with_unit(unit: str, number: str, count: int) -> str:
    """`number` (already written for the active language) followed by the unit's words, in the
    form `count` asks for; `count` is 1 for "1", MAGNITUDE_WORD after a magnitude word."""
    return UNITS[str(unit)](count) % {"number": number}
