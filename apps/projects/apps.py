"""Projects (workplans) and their scenarios, and the roles of the people who use them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProjectsConfig(AppConfig):
    name = "apps.projects"
    verbose_name = _("Projects and scenarios")

    def ready(self) -> None:
        from apps.projects import wiring

        wiring.connect()
