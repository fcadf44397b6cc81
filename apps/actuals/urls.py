"""Routes of the plan-against-actual page."""

from django.urls import path

from apps.actuals import views

urlpatterns = [
    path("projects/<int:project_id>/actuals/", views.actuals_page, name="project-actuals"),
    path("projects/<int:project_id>/actuals/upload/", views.actuals_upload, name="actuals-upload"),
    path("projects/<int:project_id>/actuals/rules/", views.rule_add, name="actuals-rule-add"),
    path(
        "projects/<int:project_id>/actuals/rules/<int:rule_id>/delete/",
        views.rule_delete,
        name="actuals-rule-delete",
    ),
    path("projects/<int:project_id>/actuals/enter/", views.actual_add, name="actuals-enter"),
    path(
        "projects/<int:project_id>/actuals/replan/",
        views.replan_confirm,
        name="actuals-replan",
    ),
    path(
        "projects/<int:project_id>/actuals/replan/create/",
        views.replan,
        name="actuals-replan-create",
    ),
    path(
        "projects/<int:project_id>/actuals/thresholds/",
        views.thresholds_save,
        name="actuals-thresholds",
    ),
    path(
        "actuals/template-<str:language>.csv",
        views.actuals_template,
        name="actuals-template",
    ),
]
