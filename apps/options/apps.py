"""The decision view: an external API, rented or owned accelerators, fine-tuning or building."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OptionsConfig(AppConfig):
    name = "apps.options"
    verbose_name = _("Options compared")

    def ready(self) -> None:
        from apps.options import wiring

        wiring.connect()
