"""Creating and revoking personal API tokens; saving a user's preferences."""

import secrets

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from apps.accounts.models import KEY_PREFIX, PREFIX_LENGTH, ApiToken, Preferences, api_key_hash


@transaction.atomic
def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Create a token for user; return it with its key, which is stored nowhere and shown once."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user=user, name=name, prefix=key[:PREFIX_LENGTH], key_hash=api_key_hash(key))
    token.full_clean()
    token.save()
    return token, key


@transaction.atomic
def api_token_revoke(*, token: ApiToken, user) -> ApiToken:
    """Revoke token on behalf of user; revoking a revoked token changes nothing."""
    if not token.can_be_revoked_by(user):
        raise PermissionDenied(gettext("You may only revoke your own API tokens."))
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


@transaction.atomic
def preferences_save(*, form) -> Preferences:
    """Save a valid PreferencesForm (its user's row, made if they had none)."""
    preferences = form.save(commit=False)
    preferences.full_clean()
    preferences.save()
    return preferences
