"""The Celery application; the broker comes from CELERY_BROKER_URL (none: tasks run in-process)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("compute_planner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
