"""The hardware catalogue: accelerators, prices, energy profiles and compute thresholds."""

from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "apps.catalogue"
    verbose_name = "Hardware catalogue"
