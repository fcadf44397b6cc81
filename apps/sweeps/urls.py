"""Sweep pages."""

from django.urls import path

from apps.sweeps import views

urlpatterns = [
    path("scenarios/<id:scenario_id>/sweeps/new/", views.sweep_new, name="sweep-new"),
    path("scenarios/<id:scenario_id>/sweeps/count/", views.sweep_count, name="sweep-count"),
    path("sweeps/<id:sweep_id>/", views.sweep_detail, name="sweep-detail"),
    path("sweeps/<id:sweep_id>/cancel/", views.sweep_cancel, name="sweep-cancel"),
]
