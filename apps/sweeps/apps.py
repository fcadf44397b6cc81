"""Scenario sweeps: inputs varied over ranges, computed on Celery workers, stored in bulk."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class SweepsConfig(AppConfig):
    name = "apps.sweeps"
    verbose_name = _("Scenario sweeps")

    def ready(self) -> None:
        from apps.catalogue.models import Accelerator, EnergyProfile, LanguageModel, PriceOffer
        from apps.sweeps.freshness import catalogue_row_changed

        for model in (Accelerator, PriceOffer, EnergyProfile, LanguageModel):
            uid = f"sweeps-stale-{model.__name__}"
            post_save.connect(catalogue_row_changed, sender=model, dispatch_uid=f"{uid}-save")
            post_delete.connect(catalogue_row_changed, sender=model, dispatch_uid=f"{uid}-delete")
