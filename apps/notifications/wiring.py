"""What the notifications connect once Django's registry is ready: the review workflow's
receivers (apps.notifications.receivers) and an invited user's joining at sign-in."""

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save

from apps.notifications import invitations, receivers
from apps.projects.models import ReviewComment, StatusChange


def connect() -> None:
    post_save.connect(
        receivers.status_changed,
        sender=StatusChange,
        dispatch_uid="apps.notifications.status_changed",
    )
    post_save.connect(
        receivers.comment_added,
        sender=ReviewComment,
        dispatch_uid="apps.notifications.comment_added",
    )
    user_logged_in.connect(
        invitations.joined_on_sign_in, dispatch_uid="apps.notifications.joined_on_sign_in"
    )
