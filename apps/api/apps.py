"""The REST API (Django REST framework, OpenAPI through drf-spectacular)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "apps.api"
    verbose_name = _("API")
