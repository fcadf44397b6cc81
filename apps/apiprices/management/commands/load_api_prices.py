"""`manage.py load_api_prices`: load the vendored API prices."""

from django.core.management.base import BaseCommand

from apps.apiprices.loading import api_prices_load
from apps.audit.services import Action, audit_event_create


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
        audit_event_create(
            action=Action.DATA_IMPORTED,
            actor=None,
            subject=None,
            name="API prices",
            changes=report.changes(),
        )
        self.stdout.write(f"API prices: {report}.")
