"""Roles as groups: manager, front office (reviewer) and catalogue editor."""

from django.contrib.auth.models import Group, Permission
from django.core.cache import cache

MANAGER = "manager"
FRONT_OFFICE = "front office"
CATALOGUE_EDITOR = "catalogue editor"

CATALOGUE_MODELS = (
    "accelerator",
    "priceoffer",
    "energyprofile",
    "computethreshold",
    "languagemodel",
    "commitmentdiscount",
)
API_PRICE_MODELS = ("apimodel", "apiprice")
EXCHANGE_MODELS = ("ratetable", "organisationrate")


def ensure_roles(**kwargs) -> None:
    """Create the role groups; catalogue editors may change every catalogue model in the admin,
    and the organisation's exchange rates."""
    Group.objects.get_or_create(name=MANAGER)
    Group.objects.get_or_create(name=FRONT_OFFICE)
    editors, _ = Group.objects.get_or_create(name=CATALOGUE_EDITOR)
    editors.permissions.set(
        Permission.objects.filter(
            content_type__app_label="catalogue", content_type__model__in=CATALOGUE_MODELS
        )
        | Permission.objects.filter(
            content_type__app_label="apiprices", content_type__model__in=API_PRICE_MODELS
        )
        | Permission.objects.filter(
            content_type__app_label="exchange", content_type__model__in=EXCHANGE_MODELS
        )
    )


# The roles every page's navigation shows are read from the cache, kept exact by the receivers
# below; a change they cannot see (a raw update of the membership table) lasts at most this long.
ROLES_CACHE_SECONDS = 5 * 60


def _roles_key(user_id: int) -> str:
    return f"roles:{user_id}"


def role_names(user) -> frozenset[str]:
    """The names of the user's groups: for showing the way (navigation), not for letting in."""
    if not user.is_authenticated:
        return frozenset()
    names = cache.get(_roles_key(user.pk))
    if names is None:
        names = frozenset(user.groups.values_list("name", flat=True))
        cache.set(_roles_key(user.pk), names, ROLES_CACHE_SECONDS)
    return names


def forget_roles(user_ids) -> None:
    cache.delete_many([_roles_key(pk) for pk in user_ids])


def membership_changed(sender, instance, action: str, reverse: bool, pk_set, **kwargs) -> None:
    """m2m_changed receiver of User.groups, from either side."""
    if not action.startswith(("post_", "pre_clear")):
        return
    if not reverse:
        forget_roles([instance.pk])
    elif action == "pre_clear":
        forget_roles(instance.user_set.values_list("pk", flat=True))
    else:
        forget_roles(pk_set or ())


def group_changed(sender, instance: Group, **kwargs) -> None:
    """post_save and pre_delete receiver of Group: a renamed or deleted group's members."""
    if instance.pk is not None:
        forget_roles(instance.user_set.values_list("pk", flat=True))


def can_review(user, *, cached: bool = False) -> bool:
    """Front offices (and superusers) review submitted workplans: they return and clear them.

    Not every staff member: catalogue editors are staff, and see nobody's projects. `cached`
    reads the user's roles from the cache (role_names): to show the way, never to let in."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if cached:
        return FRONT_OFFICE in role_names(user)
    return user.groups.filter(name=FRONT_OFFICE).exists()


def navigation_of(user) -> dict:
    """What the signed-in navigation shows of its user: their name, the review queue when
    their role reviews (roles read from the cache: to show the way, never to let in), the whole
    audit log to administrators. A page cached whole for one user digests these too
    (apps.core.pages)."""
    return {
        "username": user.get_username(),
        "reviews": can_review(user, cached=True),
        "audit": user.is_superuser,
    }
