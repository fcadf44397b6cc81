"""Cross-cutting protection: request ids and JSON logs, session lifetime, login limits, errors."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "apps.core"
    verbose_name = _("Core")

    def ready(self) -> None:
        from apps.core import wiring

        wiring.connect()
