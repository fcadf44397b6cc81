"""Celery tasks of notifications: send one delivery (retried on a temporary failure), and the
periodic ones that celery beat starts (settings.CELERY_BEAT_SCHEDULE) or `manage.py
send_reminders` runs: share links about to expire, and deliveries still unsent."""

import logging
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import transaction

from apps.notifications import deliveries, reminders

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def delivery_send(self, delivery_id: int) -> bool:
    """Send one delivery once; on a temporary failure retry after a growing wait, up to
    EMAIL_MAX_RETRIES times (after which deliveries_resend queues it again)."""
    try:
        return deliveries.delivery_send(delivery_id=delivery_id).sent
    except deliveries.TemporaryFailure as failure:
        if self.request.retries >= settings.EMAIL_MAX_RETRIES:
            logger.warning("Email delivery %s: retries exhausted (%s)", delivery_id, failure)
            return False
        raise self.retry(
            exc=failure,
            countdown=deliveries.retry_countdown_seconds(self.request.retries),
            max_retries=settings.EMAIL_MAX_RETRIES,
        ) from failure


def send(delivery_ids: list[int]) -> None:
    for delivery_id in delivery_ids:
        delivery_send.delay(delivery_id)


def send_on_commit(delivery_ids: list[int]) -> None:
    """Queue the sending of these deliveries once the current transaction commits. A broker
    that cannot be reached then is logged, not raised: the rows stay, and deliveries_resend
    queues them again."""
    if delivery_ids:
        transaction.on_commit(partial(send, list(delivery_ids)), robust=True)


@shared_task(ignore_result=True)
def share_links_expiring_remind() -> int:
    """Daily: warn the creators of share links that expire within seven days (once a link)."""
    with transaction.atomic():
        delivery_ids = reminders.share_links_expiring()
        send_on_commit(delivery_ids)
    return len(delivery_ids)


@shared_task(ignore_result=True)
def deliveries_resend() -> int:
    """Every quarter of an hour: queue again what is still unsent after its retries (the mail
    server was away for long, or the broker when the event committed)."""
    delivery_ids = reminders.deliveries_unsent()
    send(delivery_ids)
    return len(delivery_ids)
