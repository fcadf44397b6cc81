"""Cross-cutting protection: request ids and JSON logs, session lifetime, login limits, errors."""

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "apps.core"
    verbose_name = _("Core")

    def ready(self) -> None:
        from apps.core.middleware import stamp_sign_in_time

        user_logged_in.connect(stamp_sign_in_time, dispatch_uid="apps.core.stamp_sign_in_time")
