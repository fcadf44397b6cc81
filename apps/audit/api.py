"""The audit log in the API: an event's fields, and a list a page at a time, in the shape of the
API's other paged list (a sweep's results): count, page, page_size, pages, next, previous."""

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.models import Action, AuditEvent
from apps.core.api_pages import page_of, page_parameters

MAX_PAGE_SIZE = 500


class AuditObjectSerializer(serializers.Serializer):
    type = serializers.CharField(
        allow_null=True, help_text='The kind of object, e.g. "projects.scenario"; null if none.'
    )
    id = serializers.CharField(allow_blank=True, help_text="Its key; empty if there is no row.")
    name = serializers.CharField(help_text="What it was called when the event was recorded.")


class AuditEventSerializer(serializers.ModelSerializer):
    at = serializers.DateTimeField(source="timestamp", help_text="When, in UTC.")
    actor = serializers.SerializerMethodField(
        help_text="The username of who did it; null when nobody signed in did (a failed "
        "sign-in, the identity provider, a command)."
    )
    action = serializers.ChoiceField(choices=Action.choices, source="action_name")
    object = serializers.SerializerMethodField()
    changes = serializers.DictField(
        child=serializers.ListField(child=serializers.JSONField(), min_length=2, max_length=2),
        help_text="What changed: each name with its value before and after (null: none).",
    )

    class Meta:
        model = AuditEvent
        fields = ("id", "at", "actor", "action", "object", "changes")

    def get_actor(self, event: AuditEvent) -> str | None:
        return event.actor_name or None

    @extend_schema_field(AuditObjectSerializer)
    def get_object(self, event: AuditEvent) -> dict:
        content_type = event.content_type
        return {
            "type": f"{content_type.app_label}.{content_type.model}" if content_type else None,
            "id": event.object_pk,
            "name": event.object_repr,
        }


class AuditPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Events in all.")
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AuditEventSerializer(many=True, help_text="Newest first.")


PAGE_PARAMETERS = page_parameters("Events", MAX_PAGE_SIZE)


def events_page(request: Request, events) -> Response:
    """One page of `events` (newest first) as the API answers it."""
    rows, head = page_of(request, events.count(), settings.AUDIT_PAGE_SIZE, MAX_PAGE_SIZE)
    return Response(
        {**head, "results": AuditEventSerializer(events.newest_first()[rows], many=True).data}
    )
