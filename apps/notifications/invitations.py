"""Inviting someone to a project by email address, and taking up an invitation.

A person without an account gets one that cannot sign in (inactive, no usable password) and an
email with a link to set a password, or to sign in with the organisation's provider; they join
the project when they set it. A person with an account joins at once and is told by email.
"""

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from apps.accounts.models import Preferences
from apps.notifications.deliveries import deliveries_create
from apps.notifications.models import Delivery, Invitation
from apps.notifications.tasks import send_on_commit
from apps.projects.models import Project
from apps.projects.services import project_lock


def _account_for(email: str, *, owner, language: str):
    """(the account the address belongs to, whether it is a new one). A new account is made
    inactive, with no usable password, named by the address and speaking `language`."""
    User = get_user_model()
    accounts = list(User.objects.filter(email__iexact=email))
    active = [user for user in accounts if user.is_active]
    if len(active) > 1:
        raise ValidationError(
            {
                "email": gettext(
                    "Several accounts have this address: add the colleague by their username on "
                    "the project's details page."
                )
            }
        )
    if active:
        if active[0].pk == owner.pk:
            raise ValidationError({"email": gettext("This is your own address.")})
        return active[0], False
    waiting = [user for user in accounts if not user.has_usable_password()]
    if waiting:  # invited before, and not yet come
        return waiting[0], True
    if accounts:
        raise ValidationError(
            {
                "email": gettext(
                    "The account of this address is disabled; ask a member of staff to turn it "
                    "back on."
                )
            }
        )
    # Named after the address, in the characters a username allows.
    username = re.sub(r"[^\w.@+-]", "_", email)[: User._meta.get_field("username").max_length]
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"email": gettext("An account is already named after this address.")})
    user = User(username=username, email=email, is_active=False)
    user.set_unusable_password()
    user.full_clean()
    user.save()
    Preferences.objects.create(user=user, language=language)
    return user, True


@transaction.atomic
def invitation_create(*, project: Project, invited_by, email: str, language: str) -> Invitation:
    """Invite the owner of `email` to `project` (which must be editable: ProjectFrozen
    otherwise); ValidationError when the address cannot be invited. The email is sent once
    this commits."""
    project_lock(project)
    project.check_can_edit()
    email = BaseUserManager.normalize_email(email.strip())
    user, new = _account_for(email, owner=invited_by, language=language)
    invitation = Invitation(project=project, email=email, user=user, invited_by=invited_by)
    if not new:
        invitation.accepted_at = timezone.now()
        project.collaborators.add(user)
    invitation.full_clean()
    invitation.save()
    send_on_commit(
        deliveries_create(
            kind=Delivery.Kind.INVITED if new else Delivery.Kind.ADDED,
            event=f"invitation:{invitation.pk}",
            object_id=invitation.pk,
            recipients=[user],
            choice=None if new else "email_added",
        )
    )
    return invitation


def invitations_join(user) -> list[Project]:
    """The projects of user's pending invitations, which user now joins as a collaborator."""
    joined = []
    for invitation in Invitation.objects.pending().filter(user=user).select_related("project"):
        invitation.project.collaborators.add(user)
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
        joined.append(invitation.project)
    return joined


@transaction.atomic
def invitation_accept(*, invitation: Invitation, password: str | None) -> list[Project]:
    """Take up an invitation: an account waiting for its first password gets `password` and
    can sign in; its owner joins every project they were invited to. An account already in use
    keeps its password (`password` is ignored) and joins."""
    user = get_user_model().objects.select_for_update().get(pk=invitation.user_id)
    if not user.is_active and not user.has_usable_password():
        user.set_password(password)
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    return invitations_join(user)


def joined_on_sign_in(sender, request, user, **kwargs) -> None:
    """user_logged_in receiver: someone invited who signs in some other way (the organisation's
    provider, once their account is turned on) joins the projects they were invited to."""
    if Invitation.objects.pending().filter(user=user).exists():
        with transaction.atomic():
            invitations_join(user)
