"""Compute Planner project configuration; loads Celery so that tasks register with Django."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
