"""The Celery application; the broker comes from CELERY_BROKER_URL (none: tasks run in-process).

Workers log as the web process does (settings.LOGGING: one JSON object a line on standard
error), each record of a task with its id and the id of the sweep it works for.
"""

import inspect
import logging
import os

from celery import Celery, signals
from django.conf import settings
from django.db import close_old_connections
from django.utils.log import configure_logging

from apps.core.logs import current_task, task_fields

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("compute_planner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.celeryd_init.connect  # first thing in a worker: its start-up warnings are JSON too
@signals.setup_logging.connect  # connected, this keeps Celery from setting up its own logging
def use_django_logging(**kwargs) -> None:
    """Django's own set-up of settings.LOGGING, as in the web process, and Python's warnings
    (the worker's own, at start-up) logged as records rather than printed as text."""
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    logging.captureWarnings(True)


@signals.task_prerun.connect
def task_started(task_id: str, task, args=(), kwargs=None, **extra) -> None:
    arguments = inspect.signature(task.run).bind_partial(*(args or ()), **(kwargs or {}))
    current_task.set(task_fields(task_id, arguments.arguments))


@signals.task_postrun.connect
def task_ended(**extra) -> None:
    current_task.set(None)


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_old_database_connections(task, **extra) -> None:
    """Around each task in a worker, what Django does around each request: close a connection
    older than CONN_MAX_AGE or broken, keep a good one (settings.CELERY_DB_REUSE_MAX). Not for a
    task run where it is queued, which shares its caller's connection and transaction."""
    if not getattr(task.request, "is_eager", False):
        close_old_connections()
