"""Share links: read-only links to a frozen scenario version or project snapshot, for anyone."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from apps.projects.models import Project, ProjectSnapshot, ScenarioVersion

TOKEN_BYTES = 32  # 256 bits from `secrets`; token_urlsafe writes them as 43 characters
DEFAULT_EXPIRY_DAYS = 30
MAX_EXPIRY_DAYS = 90
EXPIRY_DAYS_VALIDATORS = [
    MinValueValidator(1, gettext_lazy("A link lasts at least 1 day.")),
    MaxValueValidator(
        MAX_EXPIRY_DAYS,
        gettext_lazy(
            "A link lasts at most %(limit_value)s days; share a new one when it runs out."
        ),
    ),
]


def share_token_hash(token: str) -> str:
    """The SHA-256 hex digest stored in place of a token (tokens are random: no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class ShareLinkQuerySet(models.QuerySet):
    def for_user(self, user) -> "ShareLinkQuerySet":
        """Links to the projects this user owns or collaborates on, whoever created them."""
        return self.filter(project__in=Project.objects.for_user(user))

    def active(self) -> "ShareLinkQuerySet":
        """Links that open: neither revoked nor expired, as of this very moment."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())

    def with_subject(self) -> "ShareLinkQuerySet":
        """With what each link shows, for lists: without the versions' stored figures."""
        return self.select_related("project", "scenario_version", "snapshot", "created_by").defer(
            "scenario_version__inputs", "scenario_version__results", "scenario_version__catalogue"
        )


class ShareLink(models.Model):
    """One link: a scenario's version or a project's snapshot, as it was, until it expires."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="share_links")
    scenario_version = models.ForeignKey(
        ScenarioVersion,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="share_links",
        help_text="The scenario's version the link shows; empty for a project's snapshot.",
    )
    snapshot = models.ForeignKey(
        ProjectSnapshot,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="share_links",
        help_text="The project's snapshot the link shows; empty for a scenario's version.",
    )
    label = models.CharField(
        max_length=200,
        help_text="Who or what the link is for, for example “Board meeting, 12 March”. "
        "Only the project's team sees it.",
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    view_count = models.PositiveIntegerField(default=0, editable=False)
    last_viewed_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ShareLinkQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scenario_version__isnull=False, snapshot__isnull=True)
                | models.Q(scenario_version__isnull=True, snapshot__isnull=False),
                name="share_link_shows_a_version_or_a_snapshot",
            )
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.project})"

    def clean(self) -> None:
        if (
            not self.created_at
            < self.expires_at
            <= self.created_at + timedelta(days=MAX_EXPIRY_DAYS)
        ):
            raise ValidationError(
                {
                    "expires_at": gettext("A link expires within %(days)s days of its creation.")
                    % {"days": MAX_EXPIRY_DAYS}
                }
            )

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_active(self) -> bool:
        return not self.is_revoked and not self.is_expired
