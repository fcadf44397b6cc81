"""What the API price catalogue connects once Django's registry is ready: a changed row starts a
new catalogue version (the API and the page of prices are cached under it), its rows in the
audit log, and its two methods (an external API, a fine-tuning API) in the catalogue's
resolution."""

from django.db.models.signals import post_delete, post_save

from apps.apiprices.models import ApiModel, ApiPrice
from apps.apiprices.resolve import api_fine_tune_training, external_api_inference
from apps.audit.services import Action, track
from apps.catalogue.models import catalogue_row_changed
from apps.catalogue.resolve import register_api_methods


def connect() -> None:
    for model in (ApiModel, ApiPrice):
        post_save.connect(catalogue_row_changed, sender=model)
        post_delete.connect(catalogue_row_changed, sender=model)
    # Every edit in the admin is in the audit log, with the fields that changed.
    track(ApiModel, Action.CATALOGUE_EDITED, exclude_fields=["updated_at"])
    track(ApiPrice, Action.RATE_EDITED)

    register_api_methods(external_api=external_api_inference, api_fine_tune=api_fine_tune_training)
