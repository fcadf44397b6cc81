"""Accounts: sign-in pages, each user's preferences and personal API tokens for integrators."""

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    verbose_name = _("Accounts and API tokens")

    def ready(self) -> None:
        from apps.accounts.language import remember_language_on_sign_in

        user_logged_in.connect(
            remember_language_on_sign_in, dispatch_uid="apps.accounts.remember_language"
        )
