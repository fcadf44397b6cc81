"""Prices of external model APIs per million tokens, vendored from genai-prices."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiPricesConfig(AppConfig):
    name = "apps.apiprices"
    verbose_name = _("API price catalogue")

    def ready(self) -> None:
        from apps.apiprices.resolve import api_fine_tune_training, external_api_inference
        from apps.catalogue.resolve import register_api_methods

        register_api_methods(
            external_api=external_api_inference, api_fine_tune=api_fine_tune_training
        )
