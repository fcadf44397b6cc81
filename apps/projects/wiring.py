"""What projects connect once Django's registry is ready: the role groups made after every
migration, and the cached roles forgotten when a membership or a group changes."""

from django.apps import apps as registry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_migrate, post_save, pre_delete

from apps.projects.roles import ensure_roles, group_changed, membership_changed


def connect() -> None:
    post_migrate.connect(ensure_roles, sender=registry.get_app_config("projects"))
    m2m_changed.connect(membership_changed, sender=get_user_model().groups.through)
    post_save.connect(group_changed, sender=Group)
    pre_delete.connect(group_changed, sender=Group)
