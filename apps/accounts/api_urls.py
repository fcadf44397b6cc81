"""Account API routes under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.accounts import api

router = SimpleRouter()
router.register("auth/tokens", api.ApiTokenViewSet, basename="api-token")

urlpatterns = [
    path("auth/token/", api.AuthTokenView.as_view(), name="auth-token"),
    path("", include(router.urls)),
]
