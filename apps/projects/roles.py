"""Roles as groups: manager, front office (reviewer) and catalogue editor."""

from django.contrib.auth.models import Group, Permission

MANAGER = "manager"
FRONT_OFFICE = "front office"
CATALOGUE_EDITOR = "catalogue editor"

CATALOGUE_MODELS = ("accelerator", "priceoffer", "energyprofile", "computethreshold")


def ensure_roles(**kwargs) -> None:
    """Create the role groups; catalogue editors may change every catalogue model in the admin."""
    Group.objects.get_or_create(name=MANAGER)
    Group.objects.get_or_create(name=FRONT_OFFICE)
    editors, _ = Group.objects.get_or_create(name=CATALOGUE_EDITOR)
    editors.permissions.set(
        Permission.objects.filter(
            content_type__app_label="catalogue", content_type__model__in=CATALOGUE_MODELS
        )
    )
