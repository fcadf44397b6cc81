"""What the accounts app connects once Django's registry is ready: the interface language a user
chose, restored when they sign in."""

from django.contrib.auth.signals import user_logged_in

from apps.accounts.language import remember_language_on_sign_in


def connect() -> None:
    user_logged_in.connect(
        remember_language_on_sign_in, dispatch_uid="apps.accounts.remember_language"
    )
