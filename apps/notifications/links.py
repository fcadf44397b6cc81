"""Absolute links for emails (written outside any request: settings.SITE_URL), and the signed,
expiring token of an invitation's link."""

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

INVITATION_SALT = "apps.notifications.invitation"


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def invitation_token(invitation_id: int) -> str:
    """The invitation's id, signed with SECRET_KEY and the time it was signed."""
    return signing.dumps(invitation_id, salt=INVITATION_SALT)


def invitation_id_of(token: str) -> int | None:
    """The invitation a token names, or None if it was altered or is older than
    INVITATION_TIMEOUT_SECONDS."""
    try:
        return int(
            signing.loads(token, salt=INVITATION_SALT, max_age=settings.INVITATION_TIMEOUT_SECONDS)
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None


def invitation_link(invitation_id: int) -> str:
    return absolute(reverse("invitation-accept", args=[invitation_token(invitation_id)]))


def password_reset_link(user) -> str:
    """Django's reset link for user: their id and a token that lapses after
    PASSWORD_RESET_TIMEOUT, or as soon as the password changes or they sign in."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return absolute(reverse("password_reset_confirm", args=[uid, token]))
