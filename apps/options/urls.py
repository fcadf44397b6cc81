"""Routes of the decision page."""

from django.urls import path

from apps.options import views

urlpatterns = [
    path(
        "scenarios/<int:scenario_id>/options/",
        views.scenario_options_page,
        name="scenario-options",
    ),
    path(
        "scenarios/<int:scenario_id>/options/use/",
        views.scenario_option_use,
        name="scenario-option-use",
    ),
]
