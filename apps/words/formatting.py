"""Numbers for people: each figure as readable text with its unit, spoken text and exact value."""

# Digits, magnitude words, currencies and percent signs are written as the active language
# writes them, by Babel (CLDR; see apps.words.numbers); how a number is rounded and written is
# the same for every unit. The examples are English; French reads "8,33", "15 000" (U+202F),
# "26,7 millions", "4,3 milliards".
#
# - Below 1,000: three significant figures, rounded half up, without trailing zeros (8.333 →
#   "8.33", 166.67 → "167", 200 → "200", 0.5 → "0.5"). Below 0.001: scientific notation
#   ("1.5 × 10⁻⁴").
# - 1,000 to a million: whole numbers with thousands separators ("15,000", "58,958").
# - A million and more: three significant figures and a word ("26.7 million", "1.2 billion",
#   "3 trillion"); from 10¹⁵ on, scientific notation with Unicode superscripts.
# - FLOP from a million on: scientific notation ("3.15 × 10²³ FLOP").
# - Negative values get a minus sign (U+2212); each number also has the words a screen reader
#   speaks ("minus 3 times 10 to the power 5").
# - Money: cents below 1,000 unless the amount is whole ("$24.92", "$598"), whole units up to a
#   million ("$147,396"), words above ("$53.4 million"); below a cent two significant figures
#   ("$0.0017"), so that a cost is never shown as $0, down to a millionth ("less than
#   $0.000001"). Rounding is half up, as in the engine.
# - Percent: whole percent ("67%"), "less than 1%" and "more than 99%" at the ends.
# - None, NaN, infinity and non-numbers are never shown as numbers (`finite_decimal` gives
#   None) but as "not available" or the explanation given.
#
# `Figure.exact` and `Figure.unit` describe the value as given (seconds, kWh, kg CO2e, a share),
# whatever scale the text uses, so that `<data value>` and exports stay machine-readable.

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal

from django.utils.translation import gettext_lazy

from apps.words import numbers as number_words
from apps.words import units
from apps.words.currencies import currency_places
from apps.words.language import active_words, gettext
from apps.words.numbers import (
    SUPERSCRIPTS,
    currency_name,
    currency_text,
    decimal_text,
    percent_text,
    words_text,
)

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


def machine_exact(value: object, number: Decimal) -> str:
    """The value as machines read it: a Decimal or int as given, a float by its repr."""
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


NOT_AVAILABLE = gettext_lazy("not available")

Number = float | Decimal | None  # ints and NumPy floats too; anything else is "not available"

_CENT = Decimal("0.01")
SUB_CENT_SIGNIFICANT_DIGITS = 2
_SMALLEST_MONEY = Decimal("0.000001")
# Characters that screen readers read badly, so `Figure.aria` is read instead of the text.
_UNSPOKEN = str.maketrans(dict.fromkeys("⁰¹²³⁴⁵⁶⁷⁸⁹⁻×" + MINUS))


@dataclass(frozen=True)
class Figure:
    """One figure: `text` for people, `aria` for screen readers, `exact` for machines."""

    text: str
    exact: str  # "" when not available
    unit: str
    value: float | Decimal | None
    aria: str

    def __str__(self) -> str:
        return self.text

    @property
    def available(self) -> bool:
        return self.value is not None

    @property
    def needs_spoken_text(self) -> bool:
        """Whether screen readers should get `aria` instead of `text` (superscripts, ×, −)."""
        return self.text != self.text.translate(_UNSPOKEN)


# The types of value a figure is remembered for, and how each is read back from its digits.
_READ_BACK: dict[type, Callable[[str], object]] = {
    float: float,
    int: int,
    Decimal: Decimal,
    type(None): lambda _digits: None,
}
_REMEMBERED = 8192  # figures kept per function (a few hundred bytes each)


def figure_words() -> tuple:
    """What a figure's words depend on besides its value: the language and its catalogue
    (gettext's words), and how the language picks the locale numbers are written in (Babel's:
    numbers.language_locale, which a test of a language CLDR does not know replaces). The active
    language is looked up once, and the key hashes cheaply (a Babel Locale hashes in Python):
    a page asks for it, and hashes it, for every figure it draws."""
    return *active_words(), number_words.language_locale


def remembered(function: Callable[..., Figure]) -> Callable[..., Figure]:
    """A figure function whose figures are remembered by value (its type and digits as written:
    8.30 is not 8.3), its other arguments and the active language: a page draws hundreds of
    figures, and the live preview draws them again at every keystroke, most of them unchanged.
    A Figure is frozen, so one may be handed out twice; a value of another type (a NumPy float)
    or an unhashable argument is worked out each time."""

    @functools.lru_cache(maxsize=_REMEMBERED)
    def worked_out(kind: type, digits: str, args: tuple, kwargs: tuple, words: tuple):
        return function(_READ_BACK[kind](digits), *args, **dict(kwargs))

    def in_words(words: tuple, value: Number, *args, **kwargs) -> Figure:
        """The figure, for a caller that has the figure_words() in force already."""
        kind = type(value)
        if kind in _READ_BACK:
            key = (kind, str(value), args, tuple(kwargs.items()), words)
            try:
                hash(key)
            except TypeError:
                return function(value, *args, **kwargs)
            return worked_out(*key)
        return function(value, *args, **kwargs)

    @functools.wraps(function)
    def figure(value: Number, *args, **kwargs) -> Figure:
        if type(value) in _READ_BACK:
            return in_words(figure_words(), value, *args, **kwargs)
        return function(value, *args, **kwargs)

    figure.in_words = in_words  # type: ignore[attr-defined]
    figure.cache_clear = worked_out.cache_clear  # type: ignore[attr-defined]
    return figure


def _missing(unit: str, explanation: str) -> Figure:
    explanation = str(explanation)
    return Figure(text=explanation, exact="", unit=unit, value=None, aria=explanation)


def _singular(plural: str) -> str:
    return plural.removesuffix("s")


def _counted(value: Number, unit: str, missing: str) -> Figure:
    """A figure whose unit follows the number, singular after exactly 1 ("1 accelerator"),
    in the active language's words for the units it knows (apps.words.units)."""
    number = finite_decimal(value)
    if number is None:
        return _missing(unit, missing)
    text, spoken = number_text(number)
    if units.known(unit):
        count = plural_count(number, text)
        shown = units.with_unit(unit, text, count)
        aria = units.with_unit(unit, spoken, count)
    else:
        name = _singular(unit) if text == "1" else unit
        shown, aria = f"{text} {name}".strip(), f"{spoken} {name}".strip()
    return Figure(
        text=shown,
        exact=machine_exact(value, number),
        unit=unit,
        value=plain_value(value, number),
        aria=aria,
    )


@remembered
def flop(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """Floating-point operations: "3.15 × 10²³ FLOP" from a million on, "512 FLOP" below."""
    number = finite_decimal(value)
    if number is None:
        return _missing("FLOP", missing)
    magnitude = abs(number)
    words = (
        scientific_text(magnitude)
        if significant(magnitude) >= MILLION
        else magnitude_text(magnitude)
    )
    text, spoken = signed_text(number, words)
    return Figure(
        text=f"{text} FLOP",
        exact=machine_exact(value, number),
        unit="FLOP",
        value=plain_value(value, number),
        aria=f"{spoken} FLOP",
    )


@remembered
def hours(
    value: Number, unit: str = "accelerator-hours", *, missing: str = NOT_AVAILABLE
) -> Figure:
    """Hours, by default accelerator-hours: "8.33 accelerator-hours", "26.7 million …"."""
    return _counted(value, unit, missing)


@remembered
def number(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """A number without a unit, written by the rules above: "8.33", "15,000", "26.7 million"."""
    return _counted(value, "", missing)


@remembered
def count(value: Number, unit: str, *, missing: str = NOT_AVAILABLE) -> Figure:
    """A count with its plural unit: "15,000 requests", "1 accelerator", "1.2 million requests"."""
    return _counted(value, unit, missing)


@remembered
def months(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """A number of months: "24 months", "1.2 months", "1 month"."""
    return _counted(value, "months", missing)


@remembered
def per_second(value: Number, unit: str = "requests", *, missing: str = NOT_AVAILABLE) -> Figure:
    """A rate: "0.00571 requests per second"; `unit` is what is counted."""
    figure = _counted(value, unit, missing)
    if not figure.available:
        return Figure(figure.text, "", f"{unit}/s", None, figure.aria)
    return Figure(
        text=gettext("%(figure)s per second") % {"figure": figure.text},
        exact=figure.exact,
        unit=f"{unit}/s",
        value=figure.value,
        aria=gettext("%(figure)s per second") % {"figure": figure.aria},
    )


@dataclass(frozen=True)
class _Scale:
    below: Decimal  # used for magnitudes below this, in the unit given
    divisor: Decimal
    symbol: str
    spoken: str  # lazy translations
    spoken_singular: str


def _scaled(value: Number, unit: str, scales: tuple[_Scale, ...], missing: str) -> Figure:
    """A figure shown in the first of `scales` that fits it; zero in the unit given."""
    number = finite_decimal(value)
    if number is None:
        return _missing(unit, missing)
    rounded = significant(abs(number))
    if rounded.is_zero():
        scale = next(scale for scale in scales if scale.divisor == 1)
    else:
        scale = next(scale for scale in scales if rounded < scale.below)
    text, spoken = number_text(number / scale.divisor)
    return Figure(
        text=f"{text} {scale.symbol}",
        exact=machine_exact(value, number),
        unit=unit,
        value=plain_value(value, number),
        aria=f"{spoken} {scale.spoken_singular if spoken == '1' else scale.spoken}",
    )


_ = gettext_lazy
_ALWAYS = Decimal("Infinity")
_ENERGY_SCALES = (
    _Scale(Decimal(1), Decimal("0.001"), "Wh", _("watt-hours"), _("watt-hour")),
    _Scale(THOUSAND, Decimal(1), "kWh", _("kilowatt-hours"), _("kilowatt-hour")),
    _Scale(MILLION, THOUSAND, "MWh", _("megawatt-hours"), _("megawatt-hour")),
    _Scale(_ALWAYS, MILLION, "GWh", _("gigawatt-hours"), _("gigawatt-hour")),
)
_EMISSION_SCALES = (
    _Scale(
        THOUSAND,
        Decimal(1),
        "kg CO2e",
        _("kilograms of CO2 equivalent"),
        _("kilogram of CO2 equivalent"),
    ),
    _Scale(
        _ALWAYS, THOUSAND, "t CO2e", _("tonnes of CO2 equivalent"), _("tonne of CO2 equivalent")
    ),
)
_DURATION_SCALES = (
    _Scale(Decimal(1), Decimal("0.001"), "ms", _("milliseconds"), _("millisecond")),
    _Scale(Decimal(60), Decimal(1), "s", _("seconds"), _("second")),
    _Scale(Decimal(3600), Decimal(60), "min", _("minutes"), _("minute")),
    _Scale(_ALWAYS, Decimal(3600), "h", _("hours"), _("hour")),
)


@remembered
def energy_kwh(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """Energy given in kWh, shown in Wh below 1 kWh and in MWh or GWh for large amounts."""
    return _scaled(value, "kWh", _ENERGY_SCALES, missing)


@remembered
def emissions_kg(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """Emissions given in kg CO2e, shown in tonnes ("t CO2e") from 1,000 kg on."""
    return _scaled(value, "kg CO2e", _EMISSION_SCALES, missing)


NOT_PUBLISHED = gettext_lazy("not published")
# Litres however many (people read "12,500 L" more readily than cubic metres), mL below one.
_WATER_SCALES = (
    _Scale(Decimal(1), Decimal("0.001"), "mL", _("millilitres"), _("millilitre")),
    _Scale(_ALWAYS, Decimal(1), "L", _("litres"), _("litre")),
)


@remembered
def embodied_kg(value: Number) -> Figure:
    """Embodied emissions in kg CO2e, as emissions are shown; "not published" where no
    life-cycle source gives the accelerator's."""
    # Not through emissions_kg: this figure is remembered already, and a lazy `missing` in a
    # key would be translated again at every hash and comparison.
    return _scaled(value, "kg CO2e", _EMISSION_SCALES, NOT_PUBLISHED)


@remembered
def water_litres(value: Number, *, missing: str = NOT_PUBLISHED) -> Figure:
    """Water given in litres, shown in mL below 1 L."""
    return _scaled(value, "L", _WATER_SCALES, missing)


@remembered
def seconds(value: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """A duration given in seconds, shown in ms below 1 s, then s, min and h."""
    return _scaled(value, "s", _DURATION_SCALES, missing)


@remembered
def percent(share: Number, *, missing: str = NOT_AVAILABLE) -> Figure:
    """A share (0.667) as whole percent ("67%"); "less than 1%" and "more than 99%" at the ends."""
    number = finite_decimal(share)
    if number is None:
        return _missing("share", missing)
    hundredths = number * 100
    if 0 < hundredths < 1:
        text = gettext("less than %(percent)s") % {"percent": percent_text("1")}
        spoken = gettext("less than %(number)s percent") % {"number": 1}
    elif 99 < hundredths < 100:
        text = gettext("more than %(percent)s") % {
            "percent": percent_text(plain_digits(Decimal(99)))
        }
        spoken = gettext("more than %(number)s percent") % {"number": 99}
    else:
        digits, spoken_digits = signed_text(hundredths, _large_or_whole(abs(hundredths)))
        text = percent_text(digits)
        spoken = gettext("%(number)s percent") % {"number": spoken_digits}
    return Figure(
        text=text,
        exact=machine_exact(share, number),
        unit="share",
        value=plain_value(share, number),
        aria=spoken,
    )


def _large_or_whole(magnitude: Decimal) -> tuple[str, str]:
    whole = magnitude if magnitude >= THOUSAND else round_half_up(magnitude, 0)
    return large_text(whole) if whole >= THOUSAND else (plain_digits(whole), plain_digits(whole))


def money_decimal_places(amount: Decimal, currency_places: int = 2) -> int:
    """The decimals an amount below 1,000 is shown with: the currency's own (cents: two; none for
    JPY or XOF), or below its smallest unit as many as give it two significant figures (0.0017:
    four), so that no amount but zero shows as 0."""
    magnitude = abs(amount)
    if magnitude.is_zero() or magnitude < _SMALLEST_MONEY:
        return currency_places
    places = SUB_CENT_SIGNIFICANT_DIGITS - 1 - magnitude.adjusted()
    smallest_unit = Decimal(1).scaleb(-currency_places)
    return places if round_half_up(magnitude, -places) < smallest_unit else currency_places


@remembered
def money(value: Number, currency: str = "USD", *, missing: str = NOT_AVAILABLE) -> Figure:
    """An amount of money: "$24.92", "$598", "$147,396", "$53.4 million", "1,200 CHF", and
    below a cent "$0.0017".

    `exact` keeps the cents ("53400000.00"), or more digits when the amount has them.
    """
    code = currency.upper()
    number = finite_decimal(value)
    if number is None:
        return _missing(code, missing)
    magnitude = abs(number)
    below = False
    if 0 < magnitude < _SMALLEST_MONEY:
        below, shown = True, _SMALLEST_MONEY
        digits = decimal_text(shown)
    elif magnitude >= THOUSAND or round_half_up(magnitude, 0) >= THOUSAND:
        shown, digits = magnitude, large_text(magnitude)[0]
    else:
        currency_decimals = currency_places(code)
        places = money_decimal_places(magnitude, currency_decimals)
        shown = round_half_up(magnitude, -places)
        whole = places == currency_decimals and shown == shown.to_integral_value()
        digits = plain_digits(shown) if whole else decimal_text(shown, places)
    negative = number < 0 and not below and not shown.is_zero()
    text = f"{MINUS if negative else ''}{currency_text(digits, code)}"
    aria = f"{digits} {currency_name(code, 1 if digits == '1' else shown)}"
    if negative:
        aria = gettext("minus %(number)s") % {"number": aria}
    if below:
        text = gettext("less than %(amount)s") % {"amount": text}
        aria = gettext("less than %(amount)s") % {"amount": aria}
    exact = str(number) if number.as_tuple().exponent < -2 else f"{number:.2f}"
    return Figure(
        text=text,
        exact=exact,
        unit=code,
        value=value if isinstance(value, Decimal) else float(number),
        aria=aria,
    )


def amount_text(value: Decimal, currency: str = "USD") -> str:
    """An amount to the cent (to the currency's smallest unit) with its currency, as a budget
    shows it: "$135,000.00", "−$12.50"; "135 000,00 $US" in French, "1 235 F CFA"."""
    digits = decimal_text(abs(value), currency_places(currency))
    return f"{MINUS if value < 0 else ''}{currency_text(digits, currency.upper())}"
