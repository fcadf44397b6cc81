"""The hardware catalogue: accelerators, prices, energy profiles and compute thresholds."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogueConfig(AppConfig):
    name = "apps.catalogue"
    verbose_name = _("Hardware catalogue")

    def ready(self) -> None:
        from apps.catalogue import wiring

        wiring.connect()
