"""Structured logs: the id of the request being handled on every record, one JSON object a line."""

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime

# The id of the request this thread or task is handling; None outside a request (Celery, commands).
current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)

# What RequestIdMiddleware's one line per request adds to its record.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms")


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record; put it on the handler, so that it sees them all."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id (and request fields)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        entry.update(
            (field, getattr(record, field)) for field in REQUEST_FIELDS if hasattr(record, field)
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)
