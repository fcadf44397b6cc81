"""What the sweeps connect once Django's registry is ready: a changed catalogue row marks the
sweeps and scenarios that use it stale (apps.sweeps.freshness)."""

from django.db.models.signals import post_delete, post_save

from apps.catalogue.models import Accelerator, EnergyProfile, LanguageModel, PriceOffer
from apps.sweeps.freshness import catalogue_row_changed


def connect() -> None:
    for model in (Accelerator, PriceOffer, EnergyProfile, LanguageModel):
        uid = f"sweeps-stale-{model.__name__}"
        post_save.connect(catalogue_row_changed, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(catalogue_row_changed, sender=model, dispatch_uid=f"{uid}-delete")
