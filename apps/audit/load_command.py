"""The command that loads shipped data and logs the load as one audit event."""

from django.core.management.base import BaseCommand

from apps.audit.services import Action, audit_event_create


class LoadCommand(BaseCommand):
    """`load(overwrite=…)` returns a report with `changes()`; one event says what it did."""

    load: staticmethod  # the loading function, e.g. staticmethod(catalogue_load)
    what = ""  # what the audit event names, e.g. "hardware catalogue"
    title = ""  # how the command's output starts, e.g. "Catalogue"
    overwrite_help = ""

    def add_arguments(self, parser) -> None:
        parser.add_argument("--overwrite", action="store_true", help=self.overwrite_help)

    def handle(self, *args, overwrite: bool, **options) -> None:
        report = self.load(overwrite=overwrite)
        audit_event_create(
            action=Action.DATA_IMPORTED,
            actor=None,
            subject=None,
            name=self.what,
            changes=report.changes(),
        )
        self.stdout.write(f"{self.title}: {report}.")
