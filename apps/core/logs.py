"""Structured logs: the id of the request being handled on every record, or of the Celery task
and its sweep in a worker, one JSON object a line."""

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

# The id of the request this thread or task is handling; None outside a request (Celery, commands).
current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)

# The Celery task this process is running ({"task_id": …, "sweep_id": …}); None outside one.
current_task: ContextVar[dict | None] = ContextVar("current_task", default=None)

# What RequestIdMiddleware's one line per request adds to its record.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms")
# What TaskFilter adds to the records logged while a task runs.
TASK_FIELDS = ("task_id", "sweep_id")


# A token in a log would be a key that anyone who reads the log can use: a share link's, an
# invitation's (apps.notifications) and a password reset link's (its user's id, then the token).
SHARE_TOKEN = re.compile(r"(/s/|/invitations/|/accounts/reset/[^/\s\"']+/)[^/\s\"']+")
TOKEN_PATHS = ("/s/", "/invitations/", "/accounts/reset/")


def without_share_tokens(text: str) -> str:
    return SHARE_TOKEN.sub(r"\1<token>", text)


class ShareTokenFilter(logging.Filter):
    """Hides the tokens of links (TOKEN_PATHS) in the messages of the loggers that write request
    paths."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(path in message for path in TOKEN_PATHS):
            record.msg, record.args = without_share_tokens(message), ()
        return True


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record; put it on the handler, so that it sees them all."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        return True


class TaskFilter(logging.Filter):
    """Adds `task_id` and `sweep_id` to the records logged while a task runs (see config.celery),
    on the handler as RequestIdFilter is."""

    def filter(self, record: logging.LogRecord) -> bool:
        for field, value in (current_task.get() or {}).items():
            setattr(record, field, value)
        return True


def task_fields(task_id: str, arguments: dict) -> dict:
    """What the records of a task carry: its id and the sweep it works for (None if none)."""
    return {"task_id": task_id, "sweep_id": arguments.get("sweep_id")}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id (and request fields, or
    a task's)."""

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
        entry.update(
            (field, getattr(record, field)) for field in TASK_FIELDS if hasattr(record, field)
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)
