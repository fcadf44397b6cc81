"""Each email, written in its recipient's language from what its delivery is about: a subject,
a plain text body and an HTML body (one template per kind, with partials for the three)."""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from apps.accounts.language import language_preference, supported_language
from apps.notifications.links import (
    absolute,
    invitation_link,
    password_reset_link,
)
from apps.notifications.models import Delivery, Invitation
from apps.projects.models import ReviewComment, StatusChange
from apps.sharing.models import ShareLink
from apps.words.dates import date_text


def recipient_language(delivery: Delivery) -> str:
    """The recipient's chosen language, else the one the event gave, else the site's."""
    return (
        language_preference(delivery.recipient)
        or supported_language(delivery.language)
        or settings.LANGUAGE_CODE
    )


def _name(user) -> str:
    return user.get_username() if user else ""


def _subject(model, delivery: Delivery, *related: str):
    """What the delivery is about, with `related`; None once it is deleted."""
    return model.objects.select_related("project", *related).filter(pk=delivery.object_id).first()


def _status_change(delivery: Delivery) -> dict | None:
    change = _subject(StatusChange, delivery, "changed_by")
    if change is None:
        return None
    page = "review-detail" if delivery.kind == Delivery.Kind.SUBMITTED else "project-detail"
    return {
        "project": change.project,
        "actor": _name(change.changed_by),
        "comment": change.comment,
        "link": absolute(reverse(page, args=[change.project_id])),
    }


def _comment(delivery: Delivery) -> dict | None:
    comment = _subject(ReviewComment, delivery, "author")
    if comment is None:
        return None
    return {
        "project": comment.project,
        "actor": _name(comment.author),
        "comment": comment.body,
        "link": absolute(reverse("review-detail", args=[comment.project_id])),
    }


def _share_expiring(delivery: Delivery) -> dict | None:
    link = _subject(ShareLink, delivery)
    if link is None or not link.is_active:  # revoked or run out since: nothing to warn of
        return None
    return {
        "project": link.project,
        "label": link.label,
        "expires": date_text(link.expires_at),
        "link": absolute(reverse("share-link-list")),
    }


def _invitation(delivery: Delivery) -> dict | None:
    invitation = _subject(Invitation, delivery, "invited_by")
    if invitation is None:
        return None
    context = {"project": invitation.project, "actor": _name(invitation.invited_by)}
    if delivery.kind == Delivery.Kind.INVITED:
        if invitation.is_accepted:
            return None
        days = settings.INVITATION_TIMEOUT_SECONDS // (24 * 60 * 60)
        return context | {
            "link": invitation_link(invitation.pk),
            "sign_in": absolute(
                reverse("login") + "?next=" + invitation.project.get_absolute_url()
            ),
            "days": days,
        }
    return context | {"link": absolute(invitation.project.get_absolute_url())}


def _password_reset(delivery: Delivery) -> dict | None:
    user = delivery.recipient
    if not user.is_active or not user.has_usable_password():
        return None
    return {
        "link": password_reset_link(user),
        "username": user.get_username(),
        "days": settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60),
    }


CONTEXTS: dict[str, Callable[[Delivery], dict | None]] = {
    Delivery.Kind.SUBMITTED: _status_change,
    Delivery.Kind.RETURNED: _status_change,
    Delivery.Kind.CLEARED: _status_change,
    Delivery.Kind.COMMENTED: _comment,
    Delivery.Kind.SHARE_EXPIRING: _share_expiring,
    Delivery.Kind.INVITED: _invitation,
    Delivery.Kind.ADDED: _invitation,
    Delivery.Kind.PASSWORD_RESET: _password_reset,
}


def email_register(kind: str, context: Callable[[Delivery], dict | None]) -> None:
    """Let an app above this one write the emails of its kind of delivery (from its wiring
    module, once Django's registry is ready): `context` gives the template
    notifications/email/<kind>.html its context, with "project" and "link", or None when there
    is nothing to say any more."""
    CONTEXTS[kind] = context


def message_id(delivery: Delivery) -> str:
    """The same Message-ID each time a delivery is written, so that a mail client shows a
    message sent again after a lost acknowledgement once."""
    return f"<delivery-{delivery.pk}@{urlsplit(settings.SITE_URL).hostname}>"


def email_for(delivery: Delivery) -> EmailMultiAlternatives | None:
    """The email of a delivery in its recipient's language, or None when there is nothing to
    say any more (what it was about was deleted, the share link revoked, the invitation taken
    up)."""
    language = recipient_language(delivery)
    template = f"notifications/email/{delivery.kind}.html"
    with translation.override(language):
        context = CONTEXTS[delivery.kind](delivery)
        if context is None:
            return None
        context |= {
            "recipient": _name(delivery.recipient),
            "language": language,
            "preferences": absolute(reverse("preferences")),
        }
        # One line; the no-break spaces French puts before a colon stay.
        subject = re.sub(r"[ \t\r\n]+", " ", render_to_string(f"{template}#subject", context))
        subject = subject.strip()
        text = render_to_string(f"{template}#text", context)
        html = render_to_string(
            "notifications/email/layout.html",
            context | {"subject": subject, "body": render_to_string(f"{template}#html", context)},
        )
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[delivery.recipient.email],
        headers={
            "Message-ID": message_id(delivery),
            "Content-Language": language,
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message
