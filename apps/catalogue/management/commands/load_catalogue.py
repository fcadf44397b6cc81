"""`manage.py load_catalogue`: load the shipped catalogue figures."""

from django.core.management.base import BaseCommand

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
        self.stdout.write(f"Catalogue: {report}.")
