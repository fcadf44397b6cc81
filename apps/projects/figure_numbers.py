"""How a figure's number is written, the same for every unit: rounded half up to three
significant figures, grouped, with a magnitude word or in scientific notation, signed; as text
and as the words a screen reader speaks. apps.projects.formatting adds the units and money.
"""

# Digits and magnitude words are written as the active language writes them, by Babel (CLDR;
# see apps.projects.locale_numbers): the examples below are English, French reads "8,33",
# "15 000" (U+202F), "26,7 millions", "4,3 milliards".
#
# - Below 1,000: three significant figures, without trailing zeros (8.333 → "8.33", 166.67 →
#   "167", 200 → "200", 0.5 → "0.5"). Below 0.001: scientific notation ("1.5 × 10⁻⁴").
# - 1,000 to a million: whole numbers with thousands separators ("15,000", "58,958").
# - A million and more: three significant figures and a word ("26.7 million", "1.2 billion",
#   "3 trillion"); from 10¹⁵ on, scientific notation with Unicode superscripts.
# - FLOP from a million on: scientific notation ("3.15 × 10²³ FLOP", apps.projects.formatting).
# - Negative values get a minus sign (U+2212); None, NaN, infinity and non-numbers are no
#   number at all (`finite_decimal` gives None).

import math
from decimal import ROUND_HALF_UP, Context, Decimal

from django.utils.translation import gettext

from apps.projects import units
from apps.projects.locale_numbers import SUPERSCRIPTS, decimal_text, words_text

MINUS = "−"
SIGNIFICANT_DIGITS = 3
_CONTEXT = Context(prec=400)
THOUSAND = Decimal(1000)
MILLION = Decimal(10**6)
SMALLEST_PLAIN = Decimal("0.001")


def finite_decimal(value: object) -> Decimal | None:
    """The value as a finite Decimal, or None for None, NaN, infinity and non-numbers."""
    if value is None or isinstance(value, bool | str | bytes):
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, int):
        return Decimal(value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    # repr is the shortest decimal form, so 2.675 stays 2.675 rather than 2.67499999…
    return Decimal(repr(number)) if math.isfinite(number) else None


def exact_text(value: object, number: Decimal) -> str:
    if isinstance(value, Decimal | int):
        return str(value)
    return repr(float(number))


def plain_value(value: object, number: Decimal) -> float | Decimal:
    return value if isinstance(value, Decimal) else float(number)


def round_half_up(number: Decimal, exponent: int) -> Decimal:
    return number.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP, context=_CONTEXT)


def significant(number: Decimal) -> Decimal:
    if number.is_zero():
        return Decimal(0)
    return round_half_up(number, number.adjusted() - SIGNIFICANT_DIGITS + 1)


def plain_digits(number: Decimal) -> str:
    """A rounded Decimal without exponent or trailing zeros ("200", "8.33", "15,000")."""
    return decimal_text(number.normalize(_CONTEXT))


def scientific_text(magnitude: Decimal) -> tuple[str, str]:
    rounded = significant(magnitude)
    exponent = rounded.adjusted()
    mantissa = plain_digits(rounded.scaleb(-exponent))
    if exponent < 0:
        spoken_exponent = gettext("minus %(number)s") % {"number": -exponent}
    else:
        spoken_exponent = str(exponent)
    return (
        f"{mantissa} × 10{str(exponent).translate(SUPERSCRIPTS)}",
        gettext("%(mantissa)s times 10 to the power %(exponent)s")
        % {"mantissa": mantissa, "exponent": spoken_exponent},
    )


def large_text(magnitude: Decimal) -> tuple[str, str]:
    """Text and spoken text of a magnitude of 1,000 or more."""
    if magnitude.adjusted() >= 15:
        return scientific_text(magnitude)
    whole = round_half_up(magnitude, 0)
    if whole < MILLION:
        text = plain_digits(whole)
        return text, text
    text = words_text(significant(magnitude))
    return text, text


def magnitude_text(magnitude: Decimal) -> tuple[str, str]:
    """Text and spoken text of a non-negative number, by the rules above."""
    if magnitude.is_zero():
        return "0", "0"
    if magnitude < SMALLEST_PLAIN:
        return scientific_text(magnitude)
    rounded = significant(magnitude)
    if rounded >= THOUSAND:
        return large_text(magnitude)
    text = plain_digits(rounded)
    return text, text


def signed_text(number: Decimal, words: tuple[str, str]) -> tuple[str, str]:
    text, spoken = words
    if number < 0 and text != "0":
        return f"{MINUS}{text}", gettext("minus %(number)s") % {"number": spoken}
    return text, spoken


def number_text(number: Decimal) -> tuple[str, str]:
    return signed_text(number, magnitude_text(abs(number)))


def plural_count(number: Decimal, text: str) -> int:
    """The count gettext picks a unit's plural form by, for `number` shown as `text`: 1 for
    "1", a multiple of a million after a magnitude word ("26.7 million"), the whole number
    shown, or 2 for a fraction or scientific notation ("1.5 hours")."""
    shown = text.removeprefix(MINUS)
    if shown in ("0", "1"):
        return int(shown)
    magnitude = abs(number)
    if magnitude.adjusted() < 15 and significant(magnitude) >= MILLION:
        return units.MAGNITUDE_WORD
    whole = round_half_up(magnitude, 0) if magnitude >= THOUSAND else significant(magnitude)
    if magnitude >= SMALLEST_PLAIN and whole == whole.to_integral_value():
        return int(whole)
    return 2
