"""The exchange rate in force on a day: an organisation's table first, else the ECB's euro
reference rates, crossed through the euro, with the currencies fixed to the euro by treaty
derived from it; the newest rate on or before the day asked for, never a zero."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.cache import cache
from django.utils.translation import gettext

from apps.catalogue.models import catalogue_version
from apps.estimates.currency import ECB, ExchangeRate, identity
from apps.exchange.models import EcbRate, OrganisationRate, RateTable

EURO = "EUR"
RATE_CACHE_SECONDS = 60 * 60
# Kept in the cache for a pair without a rate on the day, so that a currency no rate converts
# into costs one cache read too, not a database read a currency on every request.
NO_RATE = "no rate"
# 28 significant digits of a quotient of two rates is more than any rate is published with.
RATE_PLACES = Decimal("0.0000000001")


@dataclass(frozen=True)
class Peg:
    """A currency fixed to the euro by treaty: 1 EUR = `per_euro` of it, by `source`."""

    per_euro: Decimal
    source: str


# The CFA francs and the Comorian franc: parities fixed to the euro from 1 January 1999 by the
# Council Decision 98/683/EC of 23 November 1998 (OJ L 320, 28.11.1998), at the French franc's
# parities (1 FRF = 100 XOF = 100 XAF = 75 KMF, 1 EUR = 6.55957 FRF).
_EU_DECISION = "Council Decision 98/683/EC of 23 November 1998, OJ L 320, 28.11.1998, p. 58"
PEGS = {
    "XOF": Peg(Decimal("655.957"), _EU_DECISION),
    "XAF": Peg(Decimal("655.957"), _EU_DECISION),
    "KMF": Peg(Decimal("491.96775"), _EU_DECISION),
}


class RateUnavailable(ValueError):
    """No rate between two currencies on or before a day: the message says which."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _unavailable(from_currency: str, to_currency: str, on: date, table: str) -> RateUnavailable:
    return RateUnavailable(
        gettext(
            "%(table)s has no rate from %(from)s to %(to)s on or before %(date)s: choose a "
            "currency or a rate table that has one."
        )
        % {"table": table, "from": from_currency, "to": to_currency, "date": on.isoformat()}
    )


def _ecb_per_euro(currencies: set[str], on: date) -> dict[str, tuple[Decimal, date | None]]:
    """1 EUR in each currency on or before `on`, and the date of the rate (None: the euro)."""
    anchors = {EURO if c in PEGS else c for c in currencies} - {EURO}
    found: dict[str, tuple[Decimal, date | None]] = {EURO: (Decimal(1), None)}
    for currency in sorted(anchors):
        # One indexed read a currency (the newest row on or before the day), on any database.
        row = (
            EcbRate.objects.filter(currency=currency, date__lte=on)
            .order_by("-date")
            .values_list("per_euro", "date")
            .first()
        )
        if row is not None:
            found[currency] = row
    for currency, peg in PEGS.items():
        if currency in currencies:
            found[currency] = (peg.per_euro, None)
    return found


def ecb_rate(from_currency: str, to_currency: str, on: date) -> ExchangeRate:
    """The ECB's reference rates crossed through the euro: 1 `from` = (EUR→to) / (EUR→from)."""
    found = _ecb_per_euro({from_currency, to_currency}, on)
    if from_currency not in found or to_currency not in found:
        raise _unavailable(from_currency, to_currency, on, gettext("The ECB"))
    (from_per_euro, from_date), (to_per_euro, to_date) = found[from_currency], found[to_currency]
    dates = [day for day in (from_date, to_date) if day is not None]
    return ExchangeRate(
        from_currency=from_currency,
        to_currency=to_currency,
        rate=(to_per_euro / from_per_euro).quantize(RATE_PLACES).normalize(),
        # A cross is of the older of its two rates; the euro against a pegged franc of none.
        date=min(dates) if dates else on,
        asked=on,
        source=ECB,
        pegged=tuple(sorted(c for c in (from_currency, to_currency) if c in PEGS)),
    )


def _organisation_rate(
    table: RateTable, from_currency: str, to_currency: str, on: date
) -> ExchangeRate | None:
    """The table's rate between the two currencies: direct, inverse, or crossed through a
    currency both are quoted against (the UN's rates are per US dollar); None if it has none."""
    rows = (
        OrganisationRate.objects.filter(table=table, valid_from__lte=on)
        .order_by("-valid_from")
        .values_list("base", "quote", "rate", "valid_from")
    )
    per: dict[tuple[str, str], tuple[Decimal, date]] = {}
    for base, quote, rate, day in rows:  # newest first: the first of each pair is in force
        per.setdefault((base, quote), (rate, day))
        per.setdefault((quote, base), (1 / rate, day))
    found = per.get((from_currency, to_currency))
    if found is None:
        pivots = {
            base for base, _ in per if (base, from_currency) in per and (base, to_currency) in per
        }
        for pivot in sorted(pivots):
            (from_rate, from_day), (to_rate, to_day) = (
                per[(pivot, from_currency)],
                per[(pivot, to_currency)],
            )
            found = (to_rate / from_rate, min(from_day, to_day))
            break
    if found is None:
        return None
    rate, day = found
    return ExchangeRate(
        from_currency=from_currency,
        to_currency=to_currency,
        rate=rate.quantize(RATE_PLACES).normalize(),
        date=day,
        asked=on,
        source=table.name,
    )


def exchange_rate(
    from_currency: str, to_currency: str, on: date, table: RateTable | None = None
) -> ExchangeRate:
    """1 `from_currency` in `to_currency` on `on`: the organisation's `table` where it has the
    pair, else the ECB's; RateUnavailable when neither has a rate on or before that day."""
    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    if from_currency == to_currency:
        return identity(to_currency)
    if table is not None:
        found = _organisation_rate(table, from_currency, to_currency, on)
        if found is not None:
            return found
    return ecb_rate(from_currency, to_currency, on)


def cached_exchange_rate(
    from_currency: str, to_currency: str, on: date, table_id: int | None = None
) -> ExchangeRate:
    """`exchange_rate` with the table of id `table_id`, kept in the shared cache until the
    catalogue's version changes (an edit of a rate changes it, as does loading the ECB's
    rates): one cache read a page."""
    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    if from_currency == to_currency:
        return identity(to_currency)
    key = f"exchange:{catalogue_version()}:{table_id or ECB}:{from_currency}:{to_currency}:{on}"
    found = cache.get(key)
    if found is None:
        table = None if table_id is None else RateTable.objects.filter(pk=table_id).first()
        try:
            found = exchange_rate(from_currency, to_currency, on, table)
        except RateUnavailable:
            found = NO_RATE
        cache.set(key, found, RATE_CACHE_SECONDS)
    if found == NO_RATE:
        # Said again in the request's language (ecb_rate is the only source of this error).
        raise _unavailable(from_currency, to_currency, on, gettext("The ECB"))
    return found


def has_any_rate(currency: str, table: RateTable | None = None) -> bool:
    """Whether `currency` can be converted to US dollars at some date (the catalogue's prices are
    in dollars): the euro, a pegged franc, a currency the ECB or the table quotes."""
    currency = currency.upper()
    if currency == "USD":
        return True
    if table is not None and (
        OrganisationRate.objects.filter(table=table, base=currency).exists()
        or OrganisationRate.objects.filter(table=table, quote=currency).exists()
    ):
        return True
    if not EcbRate.objects.filter(currency="USD").exists():
        return False
    return currency in {EURO, *PEGS} or EcbRate.objects.filter(currency=currency).exists()


def no_rate_message(currency: str) -> str:
    """Why a currency is refused: no rate converts the catalogue's prices into it."""
    return gettext(
        "No exchange rate converts US dollars into %(currency)s: choose another currency or a "
        "rate table that quotes it."
    ) % {"currency": currency}
