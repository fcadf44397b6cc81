"""The audit log as CSV, one event a line, in the reader's language; changes as JSON."""

import csv
import io
import json

from django.http import HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.http import content_disposition_header
from django.utils.translation import gettext

from apps.audit.models import AuditEvent
from apps.audit.presentation import object_type
from apps.core.spreadsheet_text import formula_safe


def events_csv(events, filename: str) -> HttpResponse:
    """`events` (an AuditEvent queryset, newest first) as an attachment that no cache keeps."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            gettext("At (UTC)"),
            gettext("Actor"),
            gettext("Action"),
            gettext("Action code"),
            gettext("Type of object"),
            gettext("Object"),
            gettext("Project number"),
            gettext("Address"),
            gettext("Changes (JSON)"),
        ]
    )
    for event in events.iterator(chunk_size=1000):
        writer.writerow(_row(event))
    response = HttpResponse(out.getvalue().encode("utf-8-sig"), content_type="text/csv")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{filename}.csv"
    )
    add_never_cache_headers(response)
    return response


def _row(event: AuditEvent) -> list:
    return [
        event.timestamp.isoformat(timespec="seconds"),
        formula_safe(event.actor_name),
        event.get_action_name_display(),
        event.action_name,
        object_type(event),
        formula_safe(event.object_repr),
        event.project_id or "",
        event.remote_addr or "",
        formula_safe(json.dumps(event.changes or {}, ensure_ascii=False, sort_keys=True)),
    ]
