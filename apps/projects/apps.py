"""Projects (workplans) and their scenarios, and the roles of the people who use them."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ProjectsConfig(AppConfig):
    name = "apps.projects"
    verbose_name = _("Projects and scenarios")

    def ready(self) -> None:
        from apps.projects.roles import connect_role_receivers, ensure_roles

        post_migrate.connect(ensure_roles, sender=self)
        connect_role_receivers()
