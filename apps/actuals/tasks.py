"""Celery task of actuals: takes an import's id and runs it (apps.actuals.services); enqueued on
commit. Under `make run` (no broker) it runs in-process before the answer."""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from apps.actuals.runs import actuals_import_run


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    max_retries=5,
)
def actuals_import_task(import_id: int) -> None:
    actuals_import_run(import_id=import_id)
