"""Writing the audit log: the one way every app records an action (`audit_event_create`), and
how tracked models (the catalogue's, edited in the admin) record theirs through django-auditlog.

An event is written in the transaction of its action, so an action that fails leaves none.
"""

from datetime import date, datetime
from decimal import Decimal

from auditlog.registry import auditlog
from django.contrib.contenttypes.models import ContentType
from django.db import models

from apps.audit.context import current_actor, current_address, inside_action
from apps.audit.models import Action, AuditEvent, tracked_action


def plain(value) -> object:
    """A value as the log keeps it: JSON's own types; dates ISO, decimals and the rest as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value.normalize():f}"
    if isinstance(value, list | tuple | set | frozenset):
        items = [plain(item) for item in value]
        return items if isinstance(value, list | tuple) else sorted(items, key=str)
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    return str(value)


def field_changes(before: dict, after: dict) -> dict:
    """{name: [before, after]} of the names whose value differs (a name missing is None)."""
    return {
        name: [plain(before.get(name)), plain(after.get(name))]
        for name in sorted(set(before) | set(after))
        if plain(before.get(name)) != plain(after.get(name))
    }


def audit_event_create(
    *,
    action: Action,
    actor,
    subject: models.Model | None,
    project_id: int | None = None,
    changes: dict | None = None,
    name: str = "",
) -> AuditEvent | None:
    """Record that `actor` (a user, or None for nobody signed in or the system) did `action` to
    `subject`, changing `changes` ({field: [before, after]}). `name` names the subject where its
    own name would not do (or there is no row: a sign-in attempt for an account that does not
    exist); it is kept as it is, in every language. Inside another action
    (`one_action`), nothing is written: the outer action writes the one event."""
    if inside_action():
        return None
    actor = actor if actor is not None and actor.is_authenticated else current_actor()
    event = AuditEvent(
        action_name=action,
        action=_library_action(action),
        project_id=project_id,
        changes=plain(changes or {}),
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "",
        actor_email=getattr(actor, "email", None) or None,
        remote_addr=current_address(),
        object_repr=(name or (str(subject) if subject is not None else ""))[:1000],
    )
    if subject is not None:
        event.content_type = ContentType.objects.get_for_model(subject, for_concrete_model=False)
        event.object_pk = str(subject.pk)
        event.object_id = subject.pk if isinstance(subject.pk, int) else None
    event.save()
    return event


CREATED = {Action.PROJECT_CREATED, Action.SHARE_LINK_CREATED, Action.COMMENTED}
DELETED = {Action.PROJECT_DELETED, Action.SCENARIO_DELETED}
ACCESSED = {Action.SIGNED_IN, Action.SIGN_IN_FAILED, Action.EXPORT_DOWNLOADED}


def _library_action(action: Action) -> int:
    """django-auditlog's own kind of entry (create, update, delete, access) for an action."""
    if action in CREATED:
        return AuditEvent.Action.CREATE
    if action in DELETED:
        return AuditEvent.Action.DELETE
    if action in ACCESSED:
        return AuditEvent.Action.ACCESS
    return AuditEvent.Action.UPDATE


def track(model: type[models.Model], action: Action, **options) -> None:
    """Record every creation, change and deletion of `model`'s rows as `action`, with the fields
    that changed, wherever they happen (the admin above all): django-auditlog's registry, whose
    entries this log completes with the action's name and the request's actor."""
    tracked_action[model] = action
    auditlog.register(model, **options)
