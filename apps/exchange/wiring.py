"""What the exchange rates connect once Django's registry is ready: a changed rate starts a new
catalogue version, and every edit is in the audit log."""

from django.db.models.signals import post_delete, post_save

from apps.audit.services import Action, track
from apps.catalogue.models import catalogue_row_changed
from apps.exchange.models import OrganisationRate, RateTable


def connect() -> None:
    for model in (RateTable, OrganisationRate):
        # A changed rate changes the figures of the projects that use its table.
        post_save.connect(catalogue_row_changed, sender=model)
        post_delete.connect(catalogue_row_changed, sender=model)
        # Every edit in the admin is in the audit log, with the fields that changed.
        track(model, Action.RATE_EDITED, exclude_fields=["updated_at"])
