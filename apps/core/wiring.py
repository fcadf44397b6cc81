"""What the core connects once Django's registry is ready: the sign-in time that the session's
lifetime counts from."""

from django.contrib.auth.signals import user_logged_in

from apps.core.middleware import stamp_sign_in_time


def connect() -> None:
    user_logged_in.connect(stamp_sign_in_time, dispatch_uid="apps.core.stamp_sign_in_time")
