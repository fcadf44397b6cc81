"""The periodic work: reminders of share links about to expire, and deliveries left unsent."""

from datetime import timedelta

from django.utils import timezone

from apps.notifications.deliveries import deliveries_create
from apps.notifications.models import Delivery
from apps.sharing.models import ShareLink

REMIND_DAYS_BEFORE_EXPIRY = 7
# A delivery still unsent this long after it was written has lost its task (or used up its
# retries): it is queued again, until it is GIVE_UP_AFTER old.
RESEND_AFTER = timedelta(minutes=30)
GIVE_UP_AFTER = timedelta(days=2)


def share_links_expiring() -> list[int]:
    """Deliveries (new ones only) warning each share link's creator that the link expires
    within seven days; one per link, however often this runs."""
    now = timezone.now()
    links = (
        ShareLink.objects.active()
        .filter(expires_at__lte=now + timedelta(days=REMIND_DAYS_BEFORE_EXPIRY))
        .exclude(created_by=None)
        .select_related("created_by")
    )
    delivery_ids = []
    for link in links:
        delivery_ids += deliveries_create(
            kind=Delivery.Kind.SHARE_EXPIRING,
            event=f"share-link-expiring:{link.pk}",
            object_id=link.pk,
            recipients=[link.created_by],
            choice="email_share_expiring",
        )
    return delivery_ids


def deliveries_unsent() -> list[int]:
    """Deliveries to queue again: unsent, written more than RESEND_AFTER ago. Those older than
    GIVE_UP_AFTER are marked given up instead."""
    now = timezone.now()
    pending = Delivery.objects.pending()
    pending.filter(created_at__lt=now - GIVE_UP_AFTER).update(
        failed_at=now, error="Gave up: not sent within two days."
    )
    return list(
        pending.filter(created_at__lt=now - RESEND_AFTER).values_list("pk", flat=True)[:1000]
    )
