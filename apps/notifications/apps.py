"""Notifications: emails about what happened (workplans submitted, returned, cleared, comments,
share links about to expire), invitations by email and password reset links, each sent by a
Celery task once the transaction that caused it commits."""

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    verbose_name = _("Email notifications and invitations")

    def ready(self) -> None:
        from apps.notifications import invitations, receivers
        from apps.projects.models import ReviewComment, StatusChange

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
