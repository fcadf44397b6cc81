"""Numbers, money and percentages in the active language by Babel (CLDR), and parsing."""

# Output: French groups digits with a narrow no-break space (U+202F) and writes a decimal comma
# ("1 234 567,5"), English "1,234,567.5". Magnitude words come from CLDR's long compact
# format ("26,7 millions", "4,3 milliards": French "billion" is 10¹²), never from a hand table.
#
# Input: `parse_number` reads what people type in the active language: in French "1 234,5" with
# U+202F, U+00A0 or a plain space between groups and a decimal comma (or a point, so that the
# machine values a form is first filled with read back); in English "1,234.5". Scientific
# notation ("7e9") is read in both. Grouping is checked (Babel's strict mode), so "1,5" in
# English is an error rather than 15.

import functools
import re
from decimal import Decimal, InvalidOperation

from babel import Locale
from babel.numbers import (
    NumberFormatError,
    NumberPattern,
    format_compact_decimal,
    format_decimal,
    get_currency_name,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    parse_decimal,
    parse_pattern,
)
from django import forms
from django.conf import settings
from django.utils import translation

# CLDR's British English writes "US$" for USD; its English writes "$", as the app always has
# (the catalogue prices in US dollars). Other symbols are the same in both.
_CURRENCY_LOCALES = {"en_GB": "en"}
_SPACES = "\u202f\u00a0 "
_SPACE_RUN = re.compile(f"[{_SPACES}]")
_EXPONENT = re.compile(r"^(?P<mantissa>.+?)[eE](?P<exponent>[+\-−]?\d+)$")


def number_locale() -> Locale:
    """The Babel locale of the active language ("en-gb" → en_GB, "fr" → fr)."""
    return language_locale(translation.get_language() or settings.LANGUAGE_CODE)


@functools.cache
def language_locale(language: str) -> Locale:
    """The Babel locale numbers are written in for a language code ("en-gb" → en_GB), parsed
    once per language: Locale.parse costs a few microseconds for every number. Whoever knows
    the language already (apps.words.formatting.figure_words) asks this rather than
    number_locale(), which looks the active language up again."""
    return Locale.parse(translation.to_locale(language))


def decimal_text(number: Decimal, places: int | None = None) -> str:
    """A rounded number with the locale's grouping and decimal sign, all its digits kept
    ("8.33", "15,000"; "8,33", "15 000" in French), or exactly `places` decimals."""
    locale = number_locale()
    if type(number) is not Decimal:
        return _decimal_text(number, places, locale)
    # Keyed by the digits as written ("8.30" is not "8.3" to Babel) and the locale.
    return _remembered_decimal_text(str(number), places, locale)


def _decimal_text(number: Decimal, places: int | None, locale: Locale) -> str:
    if places is None:
        return format_decimal(number, locale=locale, decimal_quantization=False)
    return format_decimal(number, format=_places_pattern(places), locale=locale)


@functools.cache
def _places_pattern(places: int) -> NumberPattern:
    """Babel's pattern for exactly `places` decimals, parsed once rather than for every number
    (a third of Babel's time for an amount)."""
    return parse_pattern("#,##0." + "0" * places if places else "#,##0")


@functools.lru_cache(maxsize=8192)
def _remembered_decimal_text(digits: str, places: int | None, locale: Locale) -> str:
    """Babel's text of a number, remembered: a page shows hundreds, and the live preview shows
    them again at every keystroke, most of them unchanged (Babel walks its pattern and locale
    data for each)."""
    return _decimal_text(Decimal(digits), places, locale)


def words_text(number: Decimal) -> str:
    """A number of a million or more, rounded to three significant figures, with its CLDR word:
    "26.7 million", "4.3 billion"; "26,7 millions", "4,3 milliards" in French."""
    return format_compact_decimal(
        number, format_type="long", locale=number_locale(), fraction_digits=2
    )


def compact_text(number: Decimal) -> str:
    """A number in CLDR's short compact form, for axis labels: "100k", "1m", "1bn";
    "100 k", "1 M", "1 Md" in French; below 1,000 its plain digits ("0.1")."""
    locale = number_locale()
    if abs(number) < 1000:
        return format_decimal(number, locale=locale, decimal_quantization=False)
    return format_compact_decimal(number, format_type="short", locale=locale, fraction_digits=1)


def _currency_locale() -> Locale:
    return _currency_locale_of(number_locale())


@functools.cache
def _currency_locale_of(number_locale: Locale) -> Locale:
    """Parsed once per locale, as language_locale."""
    locale = str(number_locale)
    return Locale.parse(_CURRENCY_LOCALES.get(locale, locale))


def currency_text(digits: str, currency: str) -> str:
    """Digits already formatted ("24.92", "53.4 million") placed with the currency as the
    locale writes it: "$24.92", "€598", "1,200 CHF"; "24,92 $US" in French."""
    prefix, suffix = _currency_affixes(currency, _currency_locale())
    return f"{prefix}{digits}{suffix}"


@functools.lru_cache(maxsize=512)
def _currency_affixes(currency: str, locale: Locale) -> tuple[str, str]:
    """What goes before and after the digits of an amount in `currency`, looked up in Babel's
    locale data once per currency and locale (a page shows dozens of amounts)."""
    symbol = get_currency_symbol(currency, locale)
    pattern = locale.currency_formats["standard"]
    prefix, suffix = pattern.prefix[0], pattern.suffix[0]
    if (symbol == currency or symbol[-1:].isalpha()) and "¤" in prefix:
        # A code or a word written before the digits reads badly ("CHF1,200", "F CFA1,235"):
        # it follows them.
        prefix, suffix = "", " ¤"
    return prefix.replace("¤", symbol), suffix.replace("¤", symbol)


def currency_name(currency: str, count: Decimal | int) -> str:
    """The spoken name of a currency for a count: "US dollars", "1 euro" → "euro"."""
    locale = _currency_locale()
    kind = type(count)
    if kind in (Decimal, int):
        # Keyed by the digits as written: 1.00 takes another plural form than 1 in English.
        return _counted_currency_name(currency, kind, str(count), locale)
    return _currency_name(currency, _plural_form(count, locale), locale)


@functools.lru_cache(maxsize=4096)
def _counted_currency_name(currency: str, kind: type, digits: str, locale: Locale) -> str:
    """currency_name of a count given by its type and digits, remembered: Babel works a plural
    form out from the number's operands each time, and a page names a currency for every amount
    a screen reader speaks."""
    return _currency_name(currency, _plural_form(kind(digits), locale), locale)


def _plural_form(count: Decimal | int, locale: Locale) -> str:
    try:
        return locale.plural_form(count)
    except (OverflowError, ValueError):
        return "other"


@functools.lru_cache(maxsize=512)
def _currency_name(currency: str, plural_form: str, locale: Locale) -> str:
    """Babel's get_currency_name for a plural form rather than a count, so that it is looked up
    once per currency, form and locale."""
    names = locale._data["currency_names_plural"].get(currency, {})
    return (
        names.get(plural_form) or names.get("other") or get_currency_name(currency, locale=locale)
    )


def percent_text(digits: str) -> str:
    """Digits already formatted placed with the percent sign as the locale writes it:
    "67%"; "67 %" in French (a no-break space, U+00A0, as CLDR gives)."""
    pattern = number_locale().percent_formats[None]
    return f"{pattern.prefix[0]}{digits}{pattern.suffix[0]}"


def percent_value_text(share: Decimal) -> str:
    """A share (0.035) as the percentage with all its digits: "3.5%"; "3,5 %" in French."""
    return percent_text(decimal_text((share * 100).normalize()))


SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_EXACT_SCIENTIFIC_FROM = 15  # exponents from which an exact value is written "8.4 × 10²⁰"


def exact_text(exact: str) -> str:
    """A figure's exact machine value ("14814810.0", "0.5785123966942148", "8.4e+20") with all
    its digits, for people: "14,814,810", "0.5785123966942148", "8.4 × 10²⁰"; "14 814 810",
    "0,5785123966942148", "8,4 × 10²⁰" in French."""
    number = Decimal(exact)
    if number and abs(number.adjusted()) >= _EXACT_SCIENTIFIC_FROM:
        exponent = number.adjusted()
        mantissa = decimal_text(number.scaleb(-exponent).normalize())
        return f"{mantissa} × 10{str(exponent).translate(SUPERSCRIPTS)}"
    if number.as_tuple().exponent > 0:  # "1E+3": Babel needs the digits written out
        number = number.quantize(Decimal(1))
    return decimal_text(number)


def parse_number(text: str) -> Decimal:
    """What a person typed as a Decimal, in the active language's format; ValueError if it is
    not a number written that way. See the module comment for what is accepted."""
    return _remembered_number(text, number_locale())


@functools.lru_cache(maxsize=4096)
def _remembered_number(text: str, locale: Locale) -> Decimal:
    """parse_number in `locale`, remembered: a form holds dozens of numbers, and the live preview
    reads them all again at every keystroke, all but one as they were (Babel's strict parse
    walks the locale's symbols and patterns for each). A text that is no number is not kept."""
    text = text.strip().replace("_", "").replace("−", "-")
    exponent = 0
    if match := _EXPONENT.match(text):
        text, exponent = match["mantissa"], int(match["exponent"].replace("−", "-"))
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    if group in _SPACES:
        text = _SPACE_RUN.sub(group, text)
        if decimal != "." and "." in text and decimal not in text:
            text = text.replace(".", decimal)
    else:
        text = _SPACE_RUN.sub("", text)
    try:
        return parse_decimal(text, locale=locale, strict=True).scaleb(exponent)
    except (NumberFormatError, InvalidOperation) as error:
        raise ValueError(text) from error


def typed_decimal(value: object, invalid_message: str) -> Decimal | None:
    """The form fields' hook: a typed value as a Decimal (None when empty), or the field's
    "invalid" error beside it when it is not a number written in the active language."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(repr(value))
    try:
        return parse_number(str(value))
    except ValueError:
        raise forms.ValidationError(invalid_message, code="invalid") from None
