"""Prices of external model APIs per million tokens, vendored from genai-prices."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiPricesConfig(AppConfig):
    name = "apps.apiprices"
    verbose_name = _("API price catalogue")

    def ready(self) -> None:
        from apps.apiprices import wiring

        wiring.connect()
