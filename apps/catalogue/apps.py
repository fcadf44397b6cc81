"""The hardware catalogue: accelerators, prices, energy profiles and compute thresholds."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class CatalogueConfig(AppConfig):
    name = "apps.catalogue"
    verbose_name = _("Hardware catalogue")

    def ready(self) -> None:
        from apps.audit.services import Action, track
        from apps.catalogue.models import CATALOGUE_MODELS, PriceOffer, catalogue_row_changed

        for model in CATALOGUE_MODELS:
            post_save.connect(catalogue_row_changed, sender=model)
            post_delete.connect(catalogue_row_changed, sender=model)
            # Every edit in the admin is in the audit log, with the fields that changed.
            action = Action.RATE_EDITED if model is PriceOffer else Action.CATALOGUE_EDITED
            track(model, action, exclude_fields=["updated_at"])
