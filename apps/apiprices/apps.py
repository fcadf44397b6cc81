"""Prices of external model APIs per million tokens, vendored from genai-prices."""

from django.apps import AppConfig


class ApiPricesConfig(AppConfig):
    name = "apps.apiprices"
    verbose_name = "API price catalogue"
