"""Sweep pages."""

urlpatterns: list = []
