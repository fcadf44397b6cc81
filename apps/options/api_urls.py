"""Decision view API routes under /api/v1/."""

from django.urls import path

from apps.options import api

urlpatterns = [
    path("options/", api.options_view, name="options"),
    path("scenarios/<id:scenario_id>/options/", api.scenario_options, name="scenario-options"),
]
