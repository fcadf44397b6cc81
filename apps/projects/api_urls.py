"""Project and scenario API routes under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.projects import api, api_audit

router = SimpleRouter(use_regex_path=False)
router.register("projects", api.ProjectViewSet, basename="project")
router.register(
    "projects/<id:project_id>/scenarios", api.ScenarioViewSet, basename="project-scenario"
)

urlpatterns = [
    path("", include(router.urls)),
    path("projects/<id:project_id>/audit/", api_audit.project_audit, name="project-audit"),
    path(
        "scenarios/<id:scenario_id>/estimate/",
        api.scenario_estimate,
        name="scenario-estimate",
    ),
]
