"""Creating, opening and revoking share links."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.audit.services import Action, audit_event_create, field_changes
from apps.projects.models import ProjectSnapshot, ScenarioVersion
from apps.sharing.models import DEFAULT_EXPIRY_DAYS, TOKEN_BYTES, ShareLink, share_token_hash


@transaction.atomic
def share_link_create(
    *,
    subject: ScenarioVersion | ProjectSnapshot,
    user,
    label: str,
    expires_in_days: int = DEFAULT_EXPIRY_DAYS,
) -> tuple[ShareLink, str]:
    """A link to `subject`; returned with its token, which is stored nowhere and shown once."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    now = timezone.now()
    link = ShareLink(
        label=label,
        token_hash=share_token_hash(token),
        created_by=user,
        created_at=now,
        expires_at=now + timedelta(days=expires_in_days),
    )
    if isinstance(subject, ProjectSnapshot):
        link.project_id, link.snapshot = subject.project_id, subject
    else:
        link.project_id, link.scenario_version = subject.scenario.project_id, subject
    link.full_clean()
    link.save()
    shared = {"expires_at": link.expires_at, "project": link.project.title}
    audit_event_create(
        action=Action.SHARE_LINK_CREATED,
        actor=user,
        subject=link,
        name=link.label,
        project_id=link.project_id,
        changes=field_changes({}, shared),
    )
    return link, token


def share_link_record_view(*, link: ShareLink) -> None:
    """Count one view, in the database, so that concurrent views all count."""
    ShareLink.objects.filter(pk=link.pk).update(
        view_count=F("view_count") + 1, last_viewed_at=timezone.now()
    )


@transaction.atomic
def share_link_revoke(*, link: ShareLink, user) -> ShareLink:
    """Close the link for good; revoking a revoked link changes nothing."""
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.revoked_by = user
        link.save(update_fields=["revoked_at", "revoked_by"])
        audit_event_create(
            action=Action.SHARE_LINK_REVOKED,
            actor=user,
            subject=link,
            name=link.label,
            project_id=link.project_id,
            changes=field_changes({}, {"revoked_at": link.revoked_at}),
        )
    return link
