"""Deliveries: writing the rows of an event's emails, and sending one of them exactly once.

The rows are written in the event's own transaction (so an event that rolls back sends
nothing); apps.notifications.tasks queues their sending when it commits. Sending locks the row,
so two workers given the same delivery (a task redelivered by the broker, the periodic resend)
send it once: the second finds it sent.
"""

import logging
import smtplib
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import wants_email
from apps.notifications.emails import email_for
from apps.notifications.models import Delivery

logger = logging.getLogger(__name__)


def deliveries_create(
    *,
    kind: str,
    event: str,
    recipients: Iterable,
    object_id: int | None = None,
    choice: str | None = None,
    language: str = "",
) -> list[int]:
    """The ids of the new deliveries of `event` to each recipient who is active, has an email
    address and, for an email of `choice` (a Preferences field), did not turn it off. A
    recipient who already has a delivery of this event gets no second one."""
    ids = []
    for user in {user.pk: user for user in recipients}.values():
        if not user.email or not (user.is_active or kind == Delivery.Kind.INVITED):
            continue
        if choice and not wants_email(user, choice):
            continue
        delivery, created = Delivery.objects.get_or_create(
            event=event,
            recipient=user,
            defaults={"kind": kind, "object_id": object_id, "language": language},
        )
        if created:
            ids.append(delivery.pk)
    return ids


class TemporaryFailure(Exception):
    """The mail server could not take the email now; sending it again later may work."""


@dataclass(frozen=True)
class Outcome:
    sent: bool
    error: str = ""


def _permanent(error: Exception) -> bool:
    """Whether the server refused this email for good (a 5xx answer to its recipient or its
    content). Anything else (no connection, a timeout, a 4xx answer, even a refused login,
    which a corrected setting fixes) is temporary."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPDataError):
        return error.smtp_code >= 500
    return False


def delivery_send(*, delivery_id: int) -> Outcome:
    """Send one delivery unless it was sent or given up on. TemporaryFailure when the server
    cannot take it now (the attempt and its error are recorded); a permanent refusal marks it
    given up."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update()
            .select_related("recipient")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.sent_at or delivery.failed_at:
            return Outcome(sent=False)
        delivery.attempts += 1
        message = email_for(delivery)
        if message is None:  # nothing left to say: the link was revoked, the row deleted
            delivery.failed_at = timezone.now()
            delivery.error = "Nothing to send any more."
            delivery.save(update_fields=["attempts", "failed_at", "error"])
            return Outcome(sent=False, error=delivery.error)
        try:
            message.send()
        except (smtplib.SMTPException, OSError) as error:
            delivery.error = f"{type(error).__name__}: {error}"[:2000]
            permanent = _permanent(error)
            if permanent:
                delivery.failed_at = timezone.now()
            delivery.save(update_fields=["attempts", "failed_at", "error"])
            logger.warning(
                "Email %s to user %s not sent (%s): %s",
                delivery.event,
                delivery.recipient_id,
                "refused" if permanent else "will retry",
                delivery.error,
            )
            failed = Outcome(sent=False, error=delivery.error)
        else:
            delivery.sent_at = timezone.now()
            delivery.error = ""
            delivery.save(update_fields=["attempts", "sent_at", "error"])
            return Outcome(sent=True)
    if not delivery.failed_at:
        raise TemporaryFailure(failed.error)
    return failed


def retry_countdown_seconds(retries: int) -> int:
    """Seconds before retry number `retries` + 1: EMAIL_RETRY_SECONDS, doubling, at most four
    minutes (a task waiting longer than the broker's visibility timeout would be handed to a
    second worker)."""
    return min(settings.EMAIL_RETRY_SECONDS * 2**retries, 240)
