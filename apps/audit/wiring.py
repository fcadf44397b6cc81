"""What the audit log connects once Django's registry is ready: its receivers of sign-ins, failed
sign-ins and changes of role (apps.audit.receivers)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import m2m_changed, pre_save

from apps.audit import receivers


def connect() -> None:
    user_model = get_user_model()
    user_logged_in.connect(receivers.signed_in, dispatch_uid="apps.audit.signed_in")
    user_login_failed.connect(receivers.sign_in_failed, dispatch_uid="apps.audit.failed")
    m2m_changed.connect(
        receivers.groups_changed,
        sender=user_model.groups.through,
        dispatch_uid="apps.audit.groups",
    )
    pre_save.connect(receivers.flags_changed, sender=user_model, dispatch_uid="apps.audit.flags")
