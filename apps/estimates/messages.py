"""The engine's words: English text that keeps its msgid and parameters for translation.

Every sentence the engine returns (the notes beside its figures, the budget's line names, bases
and notes, its validation errors) is a `Message`: a str whose value is the English text, which
JSON and the API carry as they always have, and which also keeps the msgid and the parameters,
so that the Django edge (apps/words/messages.py) writes it in the reader's language:
gettext(msgid) % parameters, each number formatted there per locale. The engine itself never
translates nor formats for a locale; neither do the catalogues below the pages, which word
their notes and errors the same way.

`_` builds a Message, and marks its msgid for makemessages: `_` is one of xgettext's default
Python keywords. `ngettext` builds one whose words depend on the parameter it names as the
count (singular and plural msgids, as Django's ngettext takes them), marked the same way. A msgid
names its placeholders (%(name)s) and writes a literal percent sign as %%. A parameter is a
`Number` (a value with its English format), a `Day`, `Alternatives` (numbers joined by "or"),
another Message (translated in turn), or a str kept as it is (a name people gave, a machine key).
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

# English formats of a Number, by style: what `format(value, spec)` writes.
STYLES = {
    "plain": "g",  # 0.7, 1e+06
    "g4": ",.4g",  # four significant figures, grouped: 1,235
    "g6": ",.6g",  # six significant figures, grouped: 1,234.57
    "whole": ",.0f",  # 15,000
    "one_place": ",.1f",  # 12.3
    "two_places": ",.2f",  # 1,234.50 (money)
    "percent": ".0%",  # 70%
    "signed_percent": "+.2%",  # +5.00%
    "exact": ",f",  # every digit of a Decimal but trailing zeros, grouped: 2.995, 131,072
}


@dataclass(frozen=True)
class Number:
    """A number inside a message, with the style (a key of STYLES) it is written in."""

    value: float | int | Decimal
    style: str = "g6"

    def __str__(self) -> str:
        if self.style == "exact" and isinstance(self.value, Decimal):
            return format(self.value.normalize(), STYLES["exact"])  # no trailing zeros
        return format(self.value, STYLES[self.style])


@dataclass(frozen=True)
class Day:
    """A date inside a message: "long" (1 March 2026), "medium" (1 Mar 2026) or "month"
    (March 2026)."""

    value: date
    style: str = "long"

    def __str__(self) -> str:
        if self.style == "medium":
            return f"{self.value.day} {self.value.strftime('%b %Y')}"
        month_year = self.value.strftime("%B %Y")
        return f"{self.value.day} {month_year}" if self.style == "long" else month_year


@dataclass(frozen=True)
class Alternatives:
    """Numbers of which any one would do: "8 or 16"."""

    values: tuple[float, ...]

    def __str__(self) -> str:
        return " or ".join(f"{value:g}" for value in self.values)


class Message(str):
    """English text (the str itself) with its msgid and parameters (see the module); with a
    `plural` msgid, the parameter named `count` chooses between the two (English: 1 is
    singular), as ngettext does in every language."""

    msgid: str
    params: dict[str, object]
    plural: str | None
    count: str | None

    def __new__(
        cls,
        msgid: str,
        params: dict[str, object] | None = None,
        plural: str | None = None,
        count: str | None = None,
    ) -> "Message":
        return _message(cls, msgid, dict(params or {}), plural, count)

    def __reduce__(self):
        return (Message, (self.msgid, self.params, self.plural, self.count))


def _message(
    cls: type[Message], msgid: str, params: dict[str, object], plural: str | None, count: str | None
) -> Message:
    """A Message of `params`, a dict of its own (`_` and `ngettext` pass their keyword
    arguments, fresh on every call, without the copy Message() makes)."""
    chosen = msgid if plural is None or amount(params[count]) == 1 else plural
    text = str.__new__(cls, chosen % {key: str(value) for key, value in params.items()})
    text.msgid, text.params, text.plural, text.count = msgid, params, plural, count
    return text


def amount(value: object) -> object:
    """The number a parameter holds (a Number's value, or the parameter itself)."""
    return value.value if isinstance(value, Number) else value


def _(msgid: str, /, **params: object) -> Message:
    """The message `msgid` with its parameters (see the module); marks msgid for makemessages."""
    return _message(Message, msgid, params, None, None)


def ngettext(singular: str, plural: str, count: str, /, **params: object) -> Message:
    """The message of `params` in the form that the parameter named `count` calls for; marks
    both msgids for makemessages (ngettext is one of xgettext's default Python keywords)."""
    return _message(Message, singular, params, plural, count)


def g6(value: object) -> Number:
    """A number to six significant figures, grouped (the engine's usual way with inputs)."""
    return Number(float(value), "g6")


def number(value: object, style: str) -> Number:
    return Number(value if isinstance(value, Decimal | int) else float(value), style)


def exact(value: object) -> Number:
    """A number with all its digits and none more ("2.5", "131,072"), as a catalogue gives it."""
    return Number(Decimal(str(value)).normalize(), "exact")
