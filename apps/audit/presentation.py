"""Audit events in the reader's words: who, the action, the object, and each change as
(field, before, after), the field named as its model names it."""

from dataclasses import dataclass

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy

from apps.audit.models import AuditEvent

# Names an event's changes use that are no field of its object's model.
CHANGE_NAMES = {
    "collaborators": gettext_lazy("collaborators"),
    "roles": gettext_lazy("roles"),
    "comment": gettext_lazy("comment"),
    "body": gettext_lazy("comment"),
    "format": gettext_lazy("format"),
    "scenarios": gettext_lazy("scenarios"),
    "filters": gettext_lazy("filters"),
    "preset": gettext_lazy("preset"),
    "project": gettext_lazy("project"),
    "copied_from": gettext_lazy("copied from"),
    "username": gettext_lazy("username"),
    "method": gettext_lazy("method"),
    "source": gettext_lazy("source"),
    "version": gettext_lazy("version"),
    "created": gettext_lazy("rows created"),
    "updated": gettext_lazy("rows updated"),
    "corrected": gettext_lazy("rows corrected"),
    "withdrawn": gettext_lazy("rows withdrawn"),
}


@dataclass(frozen=True)
class Change:
    name: str
    before: str
    after: str


def value_text(value) -> str:
    """A kept value as text: lists joined, nothing as an empty string (shown as a dash)."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(value_text(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{key}: {value_text(item)}" for key, item in value.items())
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return str(value)


def change_name(event: AuditEvent, name: str) -> str:
    if name in CHANGE_NAMES:
        return str(CHANGE_NAMES[name])
    if name.startswith("inputs."):
        return gettext("input %(name)s") % {"name": name.removeprefix("inputs.")}
    model = event.content_type.model_class() if event.content_type_id else None
    try:
        return str(model._meta.get_field(name).verbose_name) if model else name
    except FieldDoesNotExist:
        return name


def changes_of(event: AuditEvent) -> list[Change]:
    return [
        Change(capfirst(change_name(event, name)), value_text(before), value_text(after))
        for name, (before, after) in (event.changes or {}).items()
    ]


# The kinds of object the log names, where a model's own name is not a reader's word.
TYPE_NAMES = {
    "auth.user": gettext_lazy("Account"),
    "projects.reviewcomment": gettext_lazy("Comment"),
    "sharing.sharelink": gettext_lazy("Share link"),
}


def object_type(event: AuditEvent) -> str:
    """The kind of object, as its model names it ("" when the event names none)."""
    if not event.content_type_id:
        return ""
    content_type = event.content_type
    name = TYPE_NAMES.get(f"{content_type.app_label}.{content_type.model}")
    model = content_type.model_class()
    if name is None and model is None:
        return ""
    return capfirst(str(name or model._meta.verbose_name))


@dataclass(frozen=True)
class EventRow:
    event: AuditEvent
    action: str
    object_type: str
    changes: list[Change]


def event_rows(events) -> list[EventRow]:
    """The events of a page (their content types selected with them), each with its words."""
    return [
        EventRow(event, event.get_action_name_display(), object_type(event), changes_of(event))
        for event in events
    ]
