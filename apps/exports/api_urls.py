"""API routes of exports under /api/v1/."""

from django.urls import path

from apps.exports import api

urlpatterns = [
    path("projects/import/", api.project_import, name="project-import"),
    path(
        "projects/<id:project_id>/export/",
        api.ProjectExportView.as_view(),
        name="project-export",
    ),
    path(
        "scenarios/<id:scenario_id>/export/",
        api.ScenarioExportView.as_view(),
        name="scenario-export",
    ),
]
