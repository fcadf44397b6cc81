"""Cost line and budget API routes under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.budget import api

router = SimpleRouter(use_regex_path=False)
router.register(
    "scenarios/<id:scenario_id>/cost-lines", api.CostLineViewSet, basename="scenario-cost-line"
)

urlpatterns = [
    path("", include(router.urls)),
    path("scenarios/<id:scenario_id>/budget/", api.scenario_budget_view, name="scenario-budget"),
    path("projects/<id:project_id>/budget/", api.project_budget_view, name="project-budget"),
]
