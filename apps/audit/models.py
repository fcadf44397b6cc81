"""The audit log: one row for each security- or money-relevant action, never changed afterwards.

The table is django-auditlog's log entry (AUDITLOG_LOGENTRY_MODEL), with what this project asks
of it besides: the action named for people (`action_name`, the API's `action`), the project the
event belongs to (a plain number, so that the event outlives the project), and the actor's name
as it was (so that it outlives the account too).
"""

from auditlog.models import AbstractLogEntry, LogEntryManager
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.audit.context import current_actor, current_address


class AppendOnly(Exception):
    """Raised by any attempt to change or delete an audit event."""

    def __init__(self) -> None:
        super().__init__("The audit log is append-only: an event is never changed or deleted.")


class Action(models.TextChoices):
    SIGNED_IN = "signed_in", _("Signed in")
    SIGN_IN_FAILED = "sign_in_failed", _("Sign-in failed")
    PROJECT_CREATED = "project_created", _("Project created")
    PROJECT_CHANGED = "project_changed", _("Project changed")
    PROJECT_DELETED = "project_deleted", _("Project deleted")
    COLLABORATORS_CHANGED = "collaborators_changed", _("Collaborators changed")
    SCENARIO_SAVED = "scenario_saved", _("Scenario saved")
    SCENARIO_DELETED = "scenario_deleted", _("Scenario deleted")
    WORKPLAN_SUBMITTED = "workplan_submitted", _("Workplan submitted")
    WORKPLAN_RETURNED = "workplan_returned", _("Workplan returned for changes")
    WORKPLAN_CLEARED = "workplan_cleared", _("Workplan cleared")
    COMMENTED = "commented", _("Comment added")
    SHARE_LINK_CREATED = "share_link_created", _("Share link created")
    SHARE_LINK_REVOKED = "share_link_revoked", _("Share link revoked")
    EXPORT_DOWNLOADED = "export_downloaded", _("Export downloaded")
    CATALOGUE_EDITED = "catalogue_edited", _("Catalogue edited")
    RATE_EDITED = "rate_edited", _("Price or rate edited")
    DATA_IMPORTED = "data_imported", _("Data imported")
    ROLE_CHANGED = "role_changed", _("Role changed")


# The models whose rows django-auditlog tracks (apps.audit.services.track), with their action.
tracked_action: dict[type[models.Model], Action] = {}


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnly

    def delete(self):
        raise AppendOnly

    def bulk_update(self, objs, fields, batch_size=None):
        raise AppendOnly

    def of_project(self, project_id: int) -> "AuditEventQuerySet":
        return self.filter(project_id=project_id)

    def newest_first(self) -> "AuditEventQuerySet":
        return self.order_by("-timestamp", "-pk").select_related("content_type")


class AuditEventManager(LogEntryManager.from_queryset(AuditEventQuerySet)):
    pass


class AuditEvent(AbstractLogEntry):
    """Who did what, to what, when, and what changed (`changes`: {field: [before, after]})."""

    action_name = models.CharField(_("action"), max_length=40, choices=Action, db_index=True)
    project_id = models.BigIntegerField(_("project"), null=True, blank=True, db_index=True)
    actor_name = models.CharField(_("actor's name"), max_length=150, blank=True)
    # The log outlives what it names: neither deleting an account nor a content type may change
    # an event (the library's defaults would set the actor to null, or delete the events).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("actor"),
    )
    content_type = models.ForeignKey(
        "contenttypes.ContentType",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("type of object"),
    )
    object_pk = models.CharField(_("object's key"), max_length=255, blank=True, db_index=True)
    # The library's fields, named in this project's words.
    action = models.PositiveSmallIntegerField(
        _("kind of entry"),
        choices=[
            (AbstractLogEntry.Action.CREATE, _("row created")),
            (AbstractLogEntry.Action.UPDATE, _("row changed")),
            (AbstractLogEntry.Action.DELETE, _("row deleted")),
            (AbstractLogEntry.Action.ACCESS, _("row read")),
        ],
        db_index=True,
    )
    object_id = models.BigIntegerField(_("object's number"), blank=True, null=True, db_index=True)
    serialized_data = models.JSONField(_("object as it was"), null=True)
    changes_text = models.TextField(_("changes as text"), blank=True)
    cid = models.CharField(  # noqa: DJ001 (the library's column)
        _("correlation id"), max_length=255, db_index=True, blank=True, null=True
    )
    remote_port = models.PositiveIntegerField(_("client port"), blank=True, null=True)
    additional_data = models.JSONField(_("more about the event"), blank=True, null=True)
    timestamp = models.DateTimeField(_("at"), default=timezone.now, db_index=True)
    object_repr = models.TextField(_("object"))
    changes = models.JSONField(_("changes"), null=True)
    # null, as the library writes it when the actor has no address
    actor_email = models.CharField(  # noqa: DJ001
        _("actor's email"), max_length=254, blank=True, null=True
    )
    remote_addr = models.GenericIPAddressField(_("client address"), blank=True, null=True)

    objects = AuditEventManager()

    class Meta(AbstractLogEntry.Meta):
        ordering = ("-timestamp", "-id")
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise AppendOnly
        if not self.action_name:
            self._complete_tracked_entry()
        super().save(*args, **kwargs)

    def _complete_tracked_entry(self) -> None:
        """An entry django-auditlog wrote for a tracked model: its action, and the actor and
        address of the request it was written in."""
        self.action_name = tracked_action[self.content_type.model_class()]
        if self.actor is None:
            self.actor = current_actor()
        if self.actor is not None:
            self.actor_name = self.actor.get_username()
            self.actor_email = getattr(self.actor, "email", None) or None
        self.remote_addr = self.remote_addr or current_address()

    def delete(self, *args, **kwargs):
        raise AppendOnly

    def __str__(self) -> str:
        return f"{self.get_action_name_display()}: {self.object_repr}"
