"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

from config.allocator import keep_freed_memory

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Estimates with ranges build large arrays on every request: keep their memory between requests.
keep_freed_memory()

application = get_wsgi_application()
