"""Budget pages: a scenario's budget and its cost lines."""

from django.urls import path

from apps.budget import views

urlpatterns = [
    path(
        "scenarios/<int:scenario_id>/budget/",
        views.scenario_budget_page,
        name="scenario-budget-page",
    ),
    path(
        "scenarios/<int:scenario_id>/fiscal-year-rates/",
        views.fiscal_year_rates,
        name="fiscal-year-rates",
    ),
    path("scenarios/<int:scenario_id>/cost-lines/new/", views.cost_line_new, name="cost-line-new"),
    path(
        "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/edit/",
        views.cost_line_edit,
        name="cost-line-edit",
    ),
    path(
        "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/delete/",
        views.cost_line_delete,
        name="cost-line-delete",
    ),
]
