"""Events that Django announces by signals: sign-ins, failed sign-ins, and changes of role (the
groups a user is in, and the administrator's and staff flags), wherever they are made."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from apps.audit.models import Action
from apps.audit.services import audit_event_create

# The flags that make an administrator (superuser) or let someone into the admin (staff).
ROLE_FLAGS = ("is_superuser", "is_staff")


def signed_in(sender, request, user, **kwargs) -> None:
    """user_logged_in receiver."""
    audit_event_create(action=Action.SIGNED_IN, actor=user, subject=user)


def sign_in_failed(sender, credentials: dict, request=None, **kwargs) -> None:
    """user_login_failed receiver: the account named, when there is one, is the subject; nobody
    is the actor, since nobody proved who they are."""
    username = credentials.get("username") or ""
    account = get_user_model()._default_manager.filter(username=username).first()
    method = "password" if "password" in credentials else "identity provider"
    changes = {"username": [None, username]} if username else {}
    audit_event_create(
        action=Action.SIGN_IN_FAILED,
        actor=None,
        subject=account,
        name=username,
        changes={**changes, "method": [None, method]},
    )


def _role_names(user_id: int) -> list[str]:
    return sorted(Group.objects.filter(user__pk=user_id).values_list("name", flat=True))


def groups_changed(sender, instance, action: str, reverse: bool, pk_set, **kwargs) -> None:
    """m2m_changed receiver of User.groups, from either side: an event for each user whose
    roles changed, with their roles before and after."""
    if action not in {"post_add", "post_remove", "pre_clear"}:
        return
    if reverse:  # group.user_set: the group is the instance, the users are in pk_set
        names = {instance.name}
        users = instance.user_set.all() if action == "pre_clear" else None
        user_ids = [user.pk for user in users] if users is not None else list(pk_set or ())
    else:
        user_ids = [instance.pk]
        groups = (
            instance.groups.all()
            if action == "pre_clear"
            else Group.objects.filter(pk__in=pk_set or ())
        )
        names = set(groups.values_list("name", flat=True))
    for user_id in user_ids:
        now = set(_role_names(user_id))
        if action == "post_add":
            before, after = now - names, now
        elif action == "post_remove":
            before, after = now | names, now
        else:
            before, after = now, now - names
        if before != after:
            audit_event_create(
                action=Action.ROLE_CHANGED,
                actor=None,
                subject=get_user_model()._default_manager.get(pk=user_id),
                changes={"roles": [sorted(before), sorted(after)]},
            )


def flags_changed(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """pre_save receiver of the user model: becoming (or ceasing to be) an administrator or
    staff is a change of role."""
    if raw or instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & set(ROLE_FLAGS):
        return
    stored = type(instance)._default_manager.filter(pk=instance.pk).values(*ROLE_FLAGS).first()
    if stored is None:
        return
    changes = {
        flag: [stored[flag], getattr(instance, flag)]
        for flag in ROLE_FLAGS
        if stored[flag] != getattr(instance, flag)
    }
    if changes:
        audit_event_create(
            action=Action.ROLE_CHANGED, actor=None, subject=instance, changes=changes
        )
