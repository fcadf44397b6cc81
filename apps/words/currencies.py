"""The currencies a project may budget in: every active ISO 4217 currency, named by CLDR in
the reader's language, and how many decimals each is written with."""

import functools
from decimal import Decimal

from babel.core import get_global
from babel.numbers import get_currency_name, get_currency_precision
from django.utils.translation import gettext

from apps.estimates.currency import ECB, FISCAL_YEAR, ExchangeRate
from apps.words import numbers
from apps.words.dates import date_text
from apps.words.numbers import decimal_text

RATE_SHOWN = Decimal("0.0001")  # a rate is written to four decimals, as the ECB publishes it


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
    return f"{get_currency_name(code, locale=numbers.number_locale())} ({code})"


def currency_choices() -> list[tuple[str, str]]:
    """(code, label) of every active currency, by name in the reader's language."""
    labels = [(code, currency_label(code)) for code in active_currencies()]
    return sorted(labels, key=lambda choice: choice[1].casefold())


def currency_places(code: str) -> int:
    """The decimals of the currency's minor unit (CLDR): 2 for EUR, 0 for JPY and XOF."""
    return get_currency_precision(code.upper())


def rate_text(exchange: ExchangeRate) -> str:
    """The rate prices were converted at, its date and source, as pages, exports and share
    pages say it: "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)"; with a rate of an
    earlier day than the one asked for, which; with a franc fixed to the euro, that it is."""
    rate = decimal_text(exchange.rate.quantize(RATE_SHOWN), 4)
    parts = {
        "from": exchange.from_currency,
        "to": exchange.to_currency,
        "rate": rate,
        "date": date_text(exchange.date) if exchange.date else "",
        "source": exchange.source,
    }
    if exchange.source == ECB:
        source = gettext("ECB reference rate of %(date)s") % parts
    elif exchange.source == FISCAL_YEAR:
        source = gettext("the project's rate for this fiscal year")
    else:
        source = gettext("%(source)s, rate of %(date)s") % parts
    if exchange.fell_back:
        source = gettext("%(source)s, the last before %(asked)s") % {
            "source": source,
            "asked": date_text(exchange.asked),
        }
    for code in exchange.pegged:
        source = gettext("%(source)s; %(currency)s fixed to the euro by treaty") % {
            "source": source,
            "currency": code,
        }
    return gettext("1 %(from)s = %(rate)s %(to)s (%(source)s)") % {**parts, "source": source}
