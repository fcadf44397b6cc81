"""The engine's and the catalogues' `Message`s in the reader's language.

A Message (apps/estimates/messages.py) keeps its msgid and parameters; here it becomes
gettext(msgid) % parameters in the active language (ngettext for one worded by a count), each
number and date written by Babel: "+5,00 %", "1 234,5", "1 mars 2026". Nothing else reads the
English back.
"""

from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal

from babel.dates import format_date
from babel.lists import format_list

from apps.estimates.messages import Alternatives, Day, Message, Number, amount
from apps.words import numbers
from apps.words.dates import date_text
from apps.words.language import gettext, ngettext, remembered
from apps.words.numbers import decimal_text, percent_text

MINUS = "−"
_SIGNIFICANT = {"plain": None, "g4": 4, "g6": 6}
_PLACES = {"whole": 0, "one_place": 1, "two_places": 2}


def _sign(value: Decimal, digits: str, always: bool) -> str:
    if value < 0:
        return MINUS + digits
    return f"+{digits}" if always else digits


def _significant_text(value: Decimal, figures: int | None) -> str:
    """`value` to so many significant figures (all of Python's "g" gives, None), as the locale
    writes it; where the English has an exponent ("1.5e+07"), so does every language
    ("1,5e+07"), so that the words on a page and in an export match the API's."""
    english = format(float(value), "g" if figures is None else f".{figures}g")
    if not value.is_finite():
        return english  # "nan", "inf": never a figure the engine reports, but never a 500
    mantissa, _, exponent = english.partition("e")
    if exponent:
        return f"{decimal_text(Decimal(mantissa))}e{exponent}"
    return decimal_text(Decimal(english))


def number_text(number: Number) -> str:
    """A Number as the active language writes it, in the style the engine chose."""
    value = number.value if isinstance(number.value, Decimal) else Decimal(repr(number.value))
    if number.style == "exact" and value.is_finite():
        return _sign(value, decimal_text(abs(value)), False)
    if number.style in _SIGNIFICANT or not value.is_finite():
        return _significant_text(value, _SIGNIFICANT.get(number.style))
    if number.style in _PLACES:
        return _sign(value, decimal_text(abs(value), _PLACES[number.style]), False)
    places = 2 if number.style == "signed_percent" else 0
    digits = percent_text(decimal_text(abs(value) * 100, places))
    return _sign(value, digits, number.style == "signed_percent")


def day_text(day: Day) -> str:
    """A Day as the active language writes it: "1 mars 2026", "1 mars 2026" (medium: "1 Mar
    2026" in English), or its month: "mars 2026"."""
    if day.style in ("long", "medium"):
        return date_text(day.value, day.style)
    return format_date(day.value, format="LLLL y", locale=numbers.number_locale())


def param_text(value: object) -> str:
    """A message's parameter in the active language (see apps.estimates.messages)."""
    if isinstance(value, Message):
        return message_text(value)
    if isinstance(value, Number):
        return number_text(value)
    if isinstance(value, Day):
        return day_text(value)
    if isinstance(value, Alternatives):
        words = [_significant_text(Decimal(repr(v)), None) for v in value.values]
        return format_list(words, style="or", locale=numbers.number_locale())
    if isinstance(value, bool | str):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return _significant_text(Decimal(repr(value) if isinstance(value, float) else value), None)
    return str(value)


def translated(msgid: str, params: Mapping[str, str]) -> str:
    """gettext(msgid) with parameters already worded for the active language."""
    return gettext(msgid) % params


def message_text(message: object) -> str:
    """A Message in the active language; any other text as it is ("" for None)."""
    if message is None:
        return ""
    if not isinstance(message, Message):
        return str(message)
    key = _words_key(message)
    if key is None:
        return _message_text(message)
    # Remembered per catalogue, and per how its language picks the locale numbers are written
    # in (as apps.words.formatting.figure_words): a page words the same notes at every request,
    # and the live preview at every keystroke, most of them with the same numbers.
    return remembered(("message", key, numbers.language_locale), lambda: _message_text(message))


_PLAIN = (str, bool, int, float, Decimal)


def _words_key(value: object) -> tuple | None:
    """A key that tells apart any two parameters worded differently: each type and value as
    written (1, 1.0 and Decimal("1.0") are not worded alike), a Message's msgids and parameters;
    None for a value of any other type (a NumPy float, a datetime worded in a time zone),
    which is worded afresh."""
    kind = type(value)
    if kind in _PLAIN:
        return (kind, repr(value))
    if kind is Message:
        params = tuple((name, _words_key(param)) for name, param in value.params.items())
        if any(param is None for _, param in params):
            return None
        return (kind, value.msgid, value.plural, value.count, params)
    if kind is Number:
        number = _words_key(value.value)
        return None if number is None else (kind, number, value.style)
    if kind is Day:
        return (kind, value.value, value.style) if type(value.value) is date else None
    if kind is Alternatives:
        values = tuple(_words_key(number) for number in value.values)
        return None if None in values else (kind, values)
    return None


def _message_text(message: Message) -> str:
    params = {name: param_text(value) for name, value in message.params.items()}
    if message.plural is not None:
        count = int(amount(message.params[message.count]))
        return ngettext(message.msgid, message.plural, count) % params
    return translated(message.msgid, params)


def messages_text(messages: Iterable[Message], separator: str = " ") -> str:
    """Messages in the active language, one after the other."""
    return separator.join(message_text(message) for message in messages)


def message_texts(messages: Iterable[object]) -> list[str]:
    return [message_text(message) for message in messages]


def error_texts(errors: Mapping[str, Iterable[object]]) -> dict[str, list[str]]:
    """An EstimateInputError's or BudgetInputError's `errors`, each message in the active
    language."""
    return {key: message_texts(messages) for key, messages in errors.items()}


def error_line(errors: Mapping[str, Iterable[object]]) -> str:
    """An engine error's messages on one line, as str(error) gives them, in the active language:
    "training.mfu: …; inference.months: …"."""
    return "; ".join(f"{key}: {' '.join(texts)}" for key, texts in error_texts(errors).items())
