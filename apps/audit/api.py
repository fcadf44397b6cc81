"""The audit log in the API: an event's fields, and a list a page at a time, in the shape of the
API's other paged list (a sweep's results): count, page, page_size, pages, next, previous."""

import math
from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.models import Action, AuditEvent
from apps.words.numbers import decimal_text

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


PAGE_PARAMETERS = [
    OpenApiParameter("page", {"type": "integer", "minimum": 1}, description="1-based [1]."),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
        description=f"Events per page, at most {MAX_PAGE_SIZE}.",
    ),
]


def _positive(request: Request, name: str, default: int, most: int) -> int:
    if name not in request.query_params:
        return default
    value = request.query_params[name]
    if not (value.isascii() and value.isdigit() and len(value) < 10 and 1 <= int(value) <= most):
        message = gettext("Give a whole number from 1 to %(most)s.")
        message %= {"most": decimal_text(Decimal(most))}
        raise serializers.ValidationError({name: [message]})
    return int(value)


def events_page(request: Request, events) -> Response:
    """One page of `events` (newest first) as the API answers it."""
    page_size = _positive(request, "page_size", settings.AUDIT_PAGE_SIZE, MAX_PAGE_SIZE)
    count = events.count()
    pages = max(1, math.ceil(count / page_size))
    page = _positive(request, "page", 1, pages)
    start = (page - 1) * page_size
    rows = events.newest_first()[start : start + page_size]

    def link(number: int) -> str | None:
        if not 1 <= number <= pages:
            return None
        return request.build_absolute_uri(f"?page={number}&page_size={page_size}")

    return Response(
        {
            "count": count,
            "page": page,
            "page_size": page_size,
            "pages": pages,
            "next": link(page + 1),
            "previous": link(page - 1),
            "results": AuditEventSerializer(rows, many=True).data,
        }
    )
