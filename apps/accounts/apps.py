"""Accounts: sign-in pages and personal API tokens for integrators."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    verbose_name = "Accounts and API tokens"
