"""Scenario sweeps: inputs varied over ranges, computed on Celery workers, stored in bulk."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SweepsConfig(AppConfig):
    name = "apps.sweeps"
    verbose_name = _("Scenario sweeps")

    def ready(self) -> None:
        from apps.sweeps import wiring

        wiring.connect()
