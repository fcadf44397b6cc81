"""Amounts billed in another currency than the project's: the rate of a charge's day, from the
project's rate table or the ECB's reference rates (apps.exchange), and the rates an import used,
kept with it."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext

from apps.actuals.reading import Convert, NotConvertible
from apps.estimates.currency import ExchangeRate
from apps.estimates.record import dump, load
from apps.exchange.rates import RateUnavailable, exchange_rate
from apps.projects.models import Project
from apps.words.currencies import active_currencies


@dataclass(frozen=True)
class ImportRates:
    """The rates an import converted amounts at, one per currency and charge day."""

    rates: tuple[ExchangeRate, ...] = ()


def project_rates(project: Project) -> Convert:
    """1 unit of a currency in the project's currency on a charge's day (the newest rate on or
    before it: a weekend's is Friday's); NotConvertible, naming the currency, when there is
    none. The reading asks once per currency and day."""
    table = project.rate_table

    def convert(currency: str, day: date) -> ExchangeRate:
        if currency not in active_currencies():
            raise NotConvertible(
                gettext("“%(currency)s” is not a currency code (ISO 4217, such as EUR).")
                % {"currency": currency or "—"}
            )
        try:
            return exchange_rate(currency, project.currency, day, table)
        except RateUnavailable as error:
            raise NotConvertible(error.message) from None

    return convert


def rates_record(rates: Sequence[ExchangeRate]) -> dict | None:
    """The rates as the import keeps them (the record codec); None when nothing was converted."""
    return dump(ImportRates(tuple(rates))) if rates else None


def rates_of(record: dict | None) -> tuple[ExchangeRate, ...]:
    return () if not record else load(record, ImportRates).rates
