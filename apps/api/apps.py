"""The REST API (Django REST framework, OpenAPI through drf-spectacular)."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "apps.api"
    verbose_name = "API"
