"""What the API price catalogue connects once Django's registry is ready: its rows in the audit
log, and its two methods (an external API, a fine-tuning API) in the catalogue's resolution."""

from apps.apiprices.models import ApiModel, ApiPrice
from apps.apiprices.resolve import api_fine_tune_training, external_api_inference
from apps.audit.services import Action, track
from apps.catalogue.resolve import register_api_methods


def connect() -> None:
    # Every edit in the admin is in the audit log, with the fields that changed.
    track(ApiModel, Action.CATALOGUE_EDITED, exclude_fields=["updated_at"])
    track(ApiPrice, Action.RATE_EDITED)

    register_api_methods(external_api=external_api_inference, api_fine_tune=api_fine_tune_training)
