"""The currencies a project may budget in: every active ISO 4217 currency, named by CLDR in
the reader's language, and how many decimals each is written with."""

import functools

from babel.core import get_global
from babel.numbers import get_currency_name, get_currency_precision

from apps.words.numbers import number_locale


@functools.cache
def active_currencies() -> tuple[str, ...]:
    """ISO 4217 codes legal tender today in some territory (CLDR's territory currencies with no
    end date), sorted: "AED" … "ZWG"."""
    return tuple(
        sorted(
            {
                code
                for currencies in get_global("territory_currencies").values()
                for code, _start, end, tender in currencies
                if end is None and tender
            }
        )
    )


def currency_label(code: str) -> str:
    """ "Euro (EUR)", "euro (EUR)" in French: the currency's name and its code."""
    return f"{get_currency_name(code, locale=number_locale())} ({code})"


def currency_choices() -> list[tuple[str, str]]:
    """(code, label) of every active currency, by name in the reader's language."""
    labels = [(code, currency_label(code)) for code in active_currencies()]
    return sorted(labels, key=lambda choice: choice[1].casefold())


def currency_places(code: str) -> int:
    """The decimals of the currency's minor unit (CLDR): 2 for EUR, 0 for JPY and XOF."""
    return get_currency_precision(code.upper())
