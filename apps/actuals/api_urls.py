"""Actuals API routes under /api/v1/."""

from django.urls import path

from apps.actuals import api

urlpatterns = [
    path("projects/<id:project_id>/actuals/imports/", api.imports_view, name="actuals-imports"),
    path(
        "projects/<id:project_id>/actuals/imports/<id:import_id>/",
        api.import_view,
        name="actuals-import",
    ),
    path("projects/<id:project_id>/actuals/rules/", api.rules_view, name="actuals-rules"),
    path(
        "projects/<id:project_id>/actuals/rules/<id:rule_id>/",
        api.rule_view,
        name="actuals-rule",
    ),
    path("projects/<id:project_id>/actuals/replan/", api.replan_view, name="actuals-replan"),
    path(
        "projects/<id:project_id>/actuals/thresholds/",
        api.thresholds_view,
        name="actuals-thresholds",
    ),
    path("projects/<id:project_id>/variance/", api.variance_view, name="project-variance"),
]
