"""Exchange rates: the ECB's euro reference rates and organisations' own tables."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class ExchangeConfig(AppConfig):
    name = "apps.exchange"
    verbose_name = _("Exchange rates")

    def ready(self) -> None:
        from apps.audit.services import Action, track
        from apps.catalogue.models import catalogue_row_changed
        from apps.exchange.models import OrganisationRate, RateTable

        for model in (RateTable, OrganisationRate):
            # A changed rate changes the figures of the projects that use its table.
            post_save.connect(catalogue_row_changed, sender=model)
            post_delete.connect(catalogue_row_changed, sender=model)
            # Every edit in the admin is in the audit log, with the fields that changed.
            track(model, Action.RATE_EDITED, exclude_fields=["updated_at"])
