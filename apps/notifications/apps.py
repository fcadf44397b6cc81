"""Notifications: emails about what happened (workplans submitted, returned, cleared, comments,
share links about to expire), invitations by email and password reset links, each sent by a
Celery task once the transaction that caused it commits."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    verbose_name = _("Email notifications and invitations")

    def ready(self) -> None:
        from apps.notifications import wiring

        wiring.connect()
