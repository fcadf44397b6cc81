"""Email deliveries (one row per event and recipient: the outbox, and the record that each is
sent once) and invitations to a project by email address."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.projects.models import Project


class DeliveryQuerySet(models.QuerySet):
    def pending(self) -> "DeliveryQuerySet":
        """Neither sent nor given up on."""
        return self.filter(sent_at__isnull=True, failed_at__isnull=True)


class Delivery(models.Model):
    """One email about one event to one person. Its row is written in the transaction of the
    event, and its task queued when that commits; the pair (event, recipient) is unique, so an
    event noticed twice makes one email, and a task run twice sends it once (sent_at)."""

    class Kind(models.TextChoices):
        SUBMITTED = "submitted", _("Workplan submitted")
        RETURNED = "returned", _("Workplan returned for changes")
        CLEARED = "cleared", _("Workplan cleared")
        COMMENTED = "commented", _("Comment on a workplan")
        SHARE_EXPIRING = "share_expiring", _("Share link expiring")
        INVITED = "invited", _("Invitation to a new account")
        ADDED = "added", _("Added to a project")
        PASSWORD_RESET = "password_reset", _("Password reset")
        BUDGET_ALERT = "budget_alert", _("Budget alert")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    event = models.CharField(
        _("event"),
        max_length=100,
        help_text=_("What happened, e.g. status-change:12; one email per event and recipient."),
    )
    object_id = models.PositiveBigIntegerField(
        _("object"), null=True, blank=True, help_text=_("The row the email is about.")
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("recipient"),
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        help_text=_("The email's language when the recipient has not chosen one."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    failed_at = models.DateTimeField(
        _("given up"),
        null=True,
        blank=True,
        help_text=_("Refused for good by the mail server, or nothing left to say."),
    )
    error = models.TextField(_("last error"), blank=True)

    objects = DeliveryQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("email delivery")
        verbose_name_plural = _("email deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=("event", "recipient"), name="one_email_per_event_and_recipient"
            )
        ]
        indexes = [
            models.Index(
                fields=("created_at",),
                name="delivery_pending_created",
                condition=models.Q(sent_at__isnull=True, failed_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.recipient}"


class InvitationQuerySet(models.QuerySet):
    def pending(self) -> "InvitationQuerySet":
        return self.filter(accepted_at__isnull=True)


class Invitation(models.Model):
    """A project's owner invited someone by email address. A new person gets an account that
    cannot sign in (inactive, no usable password) until they set a password through the
    invitation's link; they join the project then. Someone with an account joins at once."""

    project = models.ForeignKey(
        Project, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("project")
    )
    email = models.EmailField(_("email address"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("invited account"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("invited"), default=timezone.now, editable=False)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.email} → {self.project}"

    @property
    def is_accepted(self) -> bool:
        return self.accepted_at is not None
