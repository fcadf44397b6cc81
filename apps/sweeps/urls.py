"""Sweep pages."""

from django.urls import path

from apps.sweeps import views

urlpatterns = [
    path("scenarios/<int:scenario_id>/sweeps/new/", views.sweep_new, name="sweep-new"),
    path("scenarios/<int:scenario_id>/sweeps/count/", views.sweep_count, name="sweep-count"),
    path("sweeps/<int:sweep_id>/", views.sweep_detail, name="sweep-detail"),
    path("sweeps/<int:sweep_id>/cancel/", views.sweep_cancel, name="sweep-cancel"),
]
