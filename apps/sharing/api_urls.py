"""Share-link API routes under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.sharing import api

router = SimpleRouter(use_regex_path=False)
router.register("share-links", api.ShareLinkViewSet, basename="share-link")

urlpatterns = [
    path(
        "scenarios/<id:scenario_id>/share-links/",
        api.scenario_share_link_create,
        name="scenario-share-links",
    ),
    path(
        "projects/<id:project_id>/share-links/",
        api.project_share_link_create,
        name="project-share-links",
    ),
    path("", include(router.urls)),
]
