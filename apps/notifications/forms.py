"""Forms: inviting someone by email address, an invited person's first password, and asking for
a password reset link (sent by a Celery task, like every email)."""

import time

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from apps.notifications.deliveries import deliveries_create
from apps.notifications.models import Delivery
from apps.notifications.tasks import send_on_commit

# One reset email per account in each such window, however often it is asked for: asking
# again sends nothing new, so the form cannot be used to flood someone's mailbox.
RESET_EMAIL_WINDOW_SECONDS = 10 * 60


class InvitationForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("Your colleague’s work address. They get a link to join this project."),
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    language = forms.ChoiceField(
        label=_("Language of the invitation"),
        choices=settings.LANGUAGES,
        help_text=_("Also the language of their account’s pages until they choose another."),
    )


class InvitationPasswordForm(SetPasswordForm):
    """The first password of an invited person's account."""


class PasswordResetRequestForm(PasswordResetForm):
    """Django's form, whose email is written by a Celery task after the request commits, in the
    account's language (else the page's), with a link made when it is sent. Whether an account
    has the address is never shown: the page that follows is the same."""

    def save(self, *args, **kwargs) -> None:
        window = int(time.time()) // RESET_EMAIL_WINDOW_SECONDS
        with transaction.atomic():
            delivery_ids = []
            for user in self.get_users(self.cleaned_data["email"]):
                delivery_ids += deliveries_create(
                    kind=Delivery.Kind.PASSWORD_RESET,
                    event=f"password-reset:{user.pk}:{window}",
                    recipients=[user],
                    language=translation.get_language() or "",
                )
            send_on_commit(delivery_ids)
