"""Share links: read-only, expiring, revocable links to a frozen snapshot, for governance boards."""

from django.apps import AppConfig


class SharingConfig(AppConfig):
    name = "apps.sharing"
    verbose_name = "Share links"
