"""The decision view: an external API, rented or owned accelerators, fine-tuning or building."""

from django.apps import AppConfig


class OptionsConfig(AppConfig):
    name = "apps.options"
    verbose_name = "Options compared"
