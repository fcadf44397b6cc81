"""The audit log: who did what, to which object, when, and what changed; append-only."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "apps.audit"
    verbose_name = _("Audit log")

    def ready(self) -> None:
        from apps.audit import wiring

        wiring.connect()
