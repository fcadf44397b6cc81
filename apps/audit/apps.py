"""The audit log: who did what, to which object, when, and what changed; append-only."""

from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import m2m_changed, pre_save
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "apps.audit"
    verbose_name = _("Audit log")

    def ready(self) -> None:
        from apps.audit import receivers

        user_model = get_user_model()
        user_logged_in.connect(receivers.signed_in, dispatch_uid="apps.audit.signed_in")
        user_login_failed.connect(receivers.sign_in_failed, dispatch_uid="apps.audit.failed")
        m2m_changed.connect(
            receivers.groups_changed,
            sender=user_model.groups.through,
            dispatch_uid="apps.audit.groups",
        )
        pre_save.connect(
            receivers.flags_changed, sender=user_model, dispatch_uid="apps.audit.flags"
        )
