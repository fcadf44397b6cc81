"""Scenario sweeps: inputs varied over ranges, computed on Celery workers, stored in bulk."""

from django.apps import AppConfig


class SweepsConfig(AppConfig):
    name = "apps.sweeps"
    verbose_name = "Scenario sweeps"
