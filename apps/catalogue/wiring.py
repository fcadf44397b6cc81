"""What the hardware catalogue connects once Django's registry is ready: a changed row starts a
new catalogue version, and every edit is in the audit log."""

from django.db.models.signals import post_delete, post_save

from apps.audit.services import Action, track
from apps.catalogue.models import CATALOGUE_MODELS, PriceOffer, catalogue_row_changed


def connect() -> None:
    for model in CATALOGUE_MODELS:
        post_save.connect(catalogue_row_changed, sender=model)
        post_delete.connect(catalogue_row_changed, sender=model)
        # Every edit in the admin is in the audit log, with the fields that changed.
        action = Action.RATE_EDITED if model is PriceOffer else Action.CATALOGUE_EDITED
        track(model, action, exclude_fields=["updated_at"])
