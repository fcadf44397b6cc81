"""Share links: read-only, expiring, revocable links to a frozen snapshot, for governance boards."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SharingConfig(AppConfig):
    name = "apps.sharing"
    verbose_name = _("Share links")
