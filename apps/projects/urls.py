"""Project and scenario pages."""

from django.urls import path

from apps.projects import views, views_audit, views_scenario, views_versions

urlpatterns = [
    path("projects/", views.project_list, name="project-list"),
    path("projects/new/", views.project_create, name="project-create"),
    path("projects/<int:project_id>/", views.project_detail, name="project-detail"),
    path("projects/<int:project_id>/edit/", views.project_edit, name="project-edit"),
    path("projects/<int:project_id>/scenarios/new/", views.scenario_add, name="scenario-add"),
    path("projects/<int:project_id>/compare/", views.project_compare, name="project-compare"),
    path("projects/<int:project_id>/audit/", views_audit.project_audit, name="project-audit"),
    path(
        "projects/<int:project_id>/audit.csv",
        views_audit.project_audit_csv,
        name="project-audit-csv",
    ),
    path(
        "scenarios/precisions/<str:section>/",
        views_scenario.scenario_precisions,
        name="scenario-precisions",
    ),
    path("scenarios/<int:scenario_id>/", views_scenario.scenario_detail, name="scenario-detail"),
    path(
        "scenarios/<int:scenario_id>/preview/",
        views_scenario.scenario_preview,
        name="scenario-preview",
    ),
    path(
        "scenarios/<int:scenario_id>/duplicate/",
        views_scenario.scenario_duplicate,
        name="scenario-duplicate",
    ),
    path(
        "scenarios/<int:scenario_id>/baseline/",
        views_scenario.scenario_set_baseline,
        name="scenario-baseline",
    ),
    path(
        "scenarios/<int:scenario_id>/delete/",
        views_scenario.scenario_delete,
        name="scenario-delete",
    ),
    path(
        "scenarios/<int:scenario_id>/versions/",
        views_versions.scenario_versions,
        name="scenario-versions",
    ),
    path(
        "scenarios/<int:scenario_id>/versions/compare/",
        views_versions.scenario_version_diff,
        name="scenario-version-diff",
    ),
]
