"""Exchange rates: the ECB's euro reference rates and organisations' own tables."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExchangeConfig(AppConfig):
    name = "apps.exchange"
    verbose_name = _("Exchange rates")

    def ready(self) -> None:
        from apps.exchange import wiring

        wiring.connect()
