"""A user's language: stored on their account, held by their session while they are signed in."""

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import transaction
from django.http import HttpRequest

from apps.accounts.models import Preferences

SESSION_LANGUAGE = "accounts.language"


def supported_language(code: str | None) -> str | None:
    """code if it is one of the interface's languages, else None."""
    return code if code in dict(settings.LANGUAGES) else None


def session_language(request: HttpRequest) -> str | None:
    """The stored preference of the signed-in user, as their session holds it."""
    session = getattr(request, "session", None)
    if session is None or SESSION_KEY not in session:
        return None
    return supported_language(session.get(SESSION_LANGUAGE))


@transaction.atomic
def language_preference_set(*, user, language: str) -> Preferences:
    """Store language as user's choice (one of settings.LANGUAGES)."""
    preferences, _ = Preferences.objects.get_or_create(user=user)
    preferences.language = language
    preferences.full_clean()
    preferences.save(update_fields=["language"])
    return preferences


def language_preference(user) -> str | None:
    """The language user chose, if they chose one."""
    stored = Preferences.objects.filter(user=user).values_list("language", flat=True).first()
    return supported_language(stored)


def remember_language_on_sign_in(sender, request: HttpRequest, user, **kwargs) -> None:
    """user_logged_in receiver: the session holds the user's language while they are signed in."""
    language = language_preference(user)
    if language:
        request.session[SESSION_LANGUAGE] = language
