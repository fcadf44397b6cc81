"""Prices of external model APIs per million tokens, vendored from genai-prices."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiPricesConfig(AppConfig):
    name = "apps.apiprices"
    verbose_name = _("API price catalogue")

    def ready(self) -> None:
        from apps.apiprices.models import ApiModel, ApiPrice
        from apps.apiprices.resolve import api_fine_tune_training, external_api_inference
        from apps.audit.services import Action, track
        from apps.catalogue.resolve import register_api_methods

        # Every edit in the admin is in the audit log, with the fields that changed.
        track(ApiModel, Action.CATALOGUE_EDITED, exclude_fields=["updated_at"])
        track(ApiPrice, Action.RATE_EDITED)

        register_api_methods(
            external_api=external_api_inference, api_fine_tune=api_fine_tune_training
        )
