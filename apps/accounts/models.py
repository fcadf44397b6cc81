"""Accounts: each user's preferences, and personal API tokens (only a hash of a key is kept)."""

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

KEY_PREFIX = "cp_"
PREFIX_LENGTH = 8


def api_key_hash(key: str) -> str:
    """The SHA-256 hex digest stored in place of a key (keys are random, so no salt is needed)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def for_user(self, user) -> "ApiTokenQuerySet":
        return self.filter(user=user)

    def active(self) -> "ApiTokenQuerySet":
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A key an integrator sends as `Authorization: Bearer <key>` to act as its user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(
        _("token name"),
        max_length=100,
        help_text=_("What the token is for, for example the script that uses it."),
    )
    prefix = models.CharField(
        _("prefix"),
        max_length=PREFIX_LENGTH,
        editable=False,
        help_text=_("The first characters of the key."),
    )
    key_hash = models.CharField(
        _("key hash"),
        max_length=64,
        unique=True,
        editable=False,
        help_text=_("The SHA-256 of the key: the key itself is never kept."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True, editable=False)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def can_be_revoked_by(self, user) -> bool:
        """Its owner may revoke a token, and so may whoever may change tokens in the admin."""
        return self.user_id == user.pk or user.has_perm("accounts.change_apitoken")


# The emails a user may turn off (each on until they do), in the order the preferences page shows
# them. Password reset links, and the invitation that makes an account, are always sent.
EMAIL_CHOICES = (
    "email_submitted",
    "email_reviewed",
    "email_commented",
    "email_share_expiring",
    "email_added",
)


class Preferences(models.Model):
    """What a user chose for themselves; a user who never chose has no row."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="preferences",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The language of the pages; empty follows the browser."),
    )
    email_submitted = models.BooleanField(
        _("A workplan is submitted for review"),
        default=True,
        help_text=_("For the front office."),
    )
    email_reviewed = models.BooleanField(
        _("A workplan of mine is returned for changes or cleared"), default=True
    )
    email_commented = models.BooleanField(
        _("Someone comments on a workplan I take part in"), default=True
    )
    email_share_expiring = models.BooleanField(
        _("A share link I created expires within seven days"), default=True
    )
    email_added = models.BooleanField(_("I am added to a project by an invitation"), default=True)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return str(self.user)


class ProviderIdentity(models.Model):
    """The user an organisation's identity provider knows as `subject`: how a user who signs in
    through the provider is found again, whatever their email address becomes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="provider_identities",
        verbose_name=_("user"),
    )
    issuer = models.CharField(_("identity provider"), max_length=255)
    subject = models.CharField(_("subject at the provider"), max_length=255)
    created_at = models.DateTimeField(_("first signed in"), default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("issuer", "subject"), name="one_user_per_subject")
        ]
        verbose_name = _("identity at a provider")
        verbose_name_plural = _("identities at providers")

    def __str__(self) -> str:
        return f"{self.subject} ({self.issuer})"


def wants_email(user, choice: str) -> bool:
    """Whether user receives the emails of `choice` (one of EMAIL_CHOICES): yes unless they
    turned it off."""
    preferences = Preferences.objects.filter(user=user).values_list(choice, flat=True).first()
    return preferences is None or preferences
