"""Sweep API routes under /api/v1/."""

from django.urls import path

from apps.sweeps import api

urlpatterns = [
    path("scenarios/<id:scenario_id>/sweeps/", api.scenario_sweeps, name="scenario-sweeps"),
    path("sweeps/<id:sweep_id>/", api.sweep_detail, name="sweep-detail"),
    path("sweeps/<id:sweep_id>/cancel/", api.sweep_cancel, name="sweep-cancel"),
    path("sweeps/<id:sweep_id>/results/", api.sweep_results, name="sweep-results"),
    path("sweeps/<id:sweep_id>/summary/", api.sweep_summary_view, name="sweep-summary"),
    path("sweeps/<id:sweep_id>/results.csv", api.sweep_csv, name="sweep-csv"),
]
