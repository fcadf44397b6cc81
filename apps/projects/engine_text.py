"""The estimate engine's words in the reader's language: notes, budget lines and errors.

The engine (apps/estimates, no Django) returns its sentences as `Message`s: English text that
keeps its msgid and parameters (apps/estimates/messages.py). Here, at the edge, each becomes
gettext(msgid) % parameters in the active language, its numbers and dates written by Babel
(apps.projects.locale_numbers): "+5,00 %", "1 234,5", "1 mars 2026".

What is kept (a version, a share, a budget) keeps its Messages through the record codec
(apps.estimates.record), so nothing here reads English back. A plain str (a name someone
typed) is left as it is.
"""

from collections.abc import Iterable
from decimal import Decimal

from babel.dates import format_date
from babel.lists import format_list
from django.utils.translation import gettext, ngettext

from apps.estimates.messages import Alternatives, Day, Message, Number, amount
from apps.projects import locale_numbers
from apps.projects.locale_numbers import date_text, decimal_text, percent_text

MINUS = "−"
_SIGNIFICANT = {"plain": None, "g4": 4, "g6": 6}
_PLACES = {"whole": 0, "one_place": 1, "two_places": 2}


def _sign(value: Decimal, digits: str, always: bool) -> str:
    if value < 0:
        return MINUS + digits
    return f"+{digits}" if always else digits


def _significant(value: Decimal, figures: int | None) -> str:
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
    if number.style in _SIGNIFICANT or not value.is_finite():
        return _significant(value, _SIGNIFICANT.get(number.style))
    if number.style in _PLACES:
        return _sign(value, decimal_text(abs(value), _PLACES[number.style]), False)
    if number.style == "exact":
        return _sign(value, decimal_text(abs(value)), False)
    places = 2 if number.style == "signed_percent" else 0
    digits = percent_text(decimal_text(abs(value) * 100, places))
    return _sign(value, digits, number.style == "signed_percent")


def _param_text(value: object) -> str:
    if isinstance(value, Message):
        return engine_text(value)
    if isinstance(value, Number):
        return number_text(value)
    if isinstance(value, Day):
        if value.style == "long":
            return date_text(value.value)
        return format_date(value.value, format="LLLL y", locale=locale_numbers.number_locale())
    if isinstance(value, Alternatives):
        words = [_significant(Decimal(repr(v)), None) for v in value.values]
        return format_list(words, style="or", locale=locale_numbers.number_locale())
    if isinstance(value, bool | str):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return _significant(Decimal(repr(value) if isinstance(value, float) else value), None)
    return str(value)


def engine_text(text: object) -> str:
    """An engine message in the active language; any other text as it is ("" for None)."""
    if text is None:
        return ""
    if not isinstance(text, Message):
        return str(text)
    params = {name: _param_text(value) for name, value in text.params.items()}
    if text.plural is None:
        return gettext(text.msgid) % params
    return ngettext(text.msgid, text.plural, int(amount(text.params[text.count]))) % params


def engine_texts(texts: Iterable[object]) -> list[str]:
    return [engine_text(text) for text in texts]


def engine_errors(errors: dict[str, list]) -> dict[str, list[str]]:
    """An EstimateInputError's or BudgetInputError's `errors`, each message translated."""
    return {key: engine_texts(messages) for key, messages in errors.items()}


def engine_error_text(errors: dict[str, list]) -> str:
    """An engine error's messages on one line, as str(error) gives them, translated:
    "training.mfu: …; inference.months: …"."""
    return "; ".join(
        f"{key}: {' '.join(messages)}" for key, messages in engine_errors(errors).items()
    )
