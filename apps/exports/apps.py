"""Exports of projects and scenarios (CSV, XLSX, PDF, JSON) and the JSON import."""

from django.apps import AppConfig


class ExportsConfig(AppConfig):
    name = "apps.exports"
    verbose_name = "Exports"

    def ready(self) -> None:
        from apps.exports import wiring

        wiring.connect()
