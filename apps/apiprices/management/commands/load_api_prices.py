"""`manage.py load_api_prices`: load the vendored API prices."""

from django.core.management.base import BaseCommand

from apps.apiprices.loading import api_prices_load


class Command(BaseCommand):
    help = "Load the vendored API prices; models already present are kept unless --overwrite."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--overwrite",
            action="store_true",
            help="Reset models that exist, and their prices, to the vendored file.",
        )

    def handle(self, *args, overwrite: bool, **options) -> None:
        report = api_prices_load(overwrite=overwrite)
        self.stdout.write(f"API prices: {report}.")
