from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ActualsConfig(AppConfig):
    name = "apps.actuals"
    verbose_name = _("Plan against actual")

    def ready(self) -> None:
        from apps.actuals import wiring

        wiring.connect()
