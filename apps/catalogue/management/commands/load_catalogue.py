"""`manage.py load_catalogue`: load the shipped catalogue figures."""

from django.core.management.base import BaseCommand

from apps.audit.services import Action, audit_event_create
from apps.catalogue.loading import catalogue_load


class Command(BaseCommand):
    help = "Load the real hardware catalogue; rows already present are kept unless --overwrite."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--overwrite",
            action="store_true",
            help="Reset rows that exist to the shipped figures (undoes edits made in the admin).",
        )

    def handle(self, *args, overwrite: bool, **options) -> None:
        report = catalogue_load(overwrite=overwrite)
        audit_event_create(
            action=Action.DATA_IMPORTED,
            actor=None,
            subject=None,
            name="hardware catalogue",
            changes=report.changes(),
        )
        self.stdout.write(f"Catalogue: {report}.")
