"""Accounts: sign-in pages, each user's preferences and personal API tokens for integrators."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    verbose_name = _("Accounts and API tokens")

    def ready(self) -> None:
        from apps.accounts import wiring

        wiring.connect()
