"""Structured logs: the id of the request being handled on every record, one JSON object a line."""

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

# The id of the request this thread or task is handling; None outside a request (Celery, commands).
current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)

# What RequestIdMiddleware's one line per request adds to its record.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms")


# A share link's token in a log would be a key that anyone who reads the log can use.
SHARE_TOKEN = re.compile(r"/s/[^/\s\"']+")


def without_share_tokens(text: str) -> str:
    return SHARE_TOKEN.sub("/s/<token>", text)


class ShareTokenFilter(logging.Filter):
    """Hides share-link tokens in the messages of the loggers that write request paths."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/s/" in message:
            record.msg, record.args = without_share_tokens(message), ()
        return True


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
