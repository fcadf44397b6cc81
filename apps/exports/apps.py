"""Exports of projects and scenarios (CSV, XLSX, PDF, JSON) and the JSON import."""

from django.apps import AppConfig
from django.core import checks


class ExportsConfig(AppConfig):
    name = "apps.exports"
    verbose_name = "Exports"

    def ready(self) -> None:
        from apps.exports.pdf_fonts import check_pdf_fonts

        checks.register(check_pdf_fonts)
