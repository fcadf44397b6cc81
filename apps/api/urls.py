"""Routes of the API, version 1, and its OpenAPI schema and docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from apps.api import views
from apps.api.model_catalogue import LanguageModelViewSet
from apps.api.schema_view import SchemaView

router = SimpleRouter()
router.register("accelerators", views.AcceleratorViewSet, basename="accelerator")
router.register("thresholds", views.ThresholdViewSet, basename="threshold")
router.register("energy-profiles", views.EnergyProfileViewSet, basename="energy-profile")
router.register("models", LanguageModelViewSet, basename="language-model")
router.register(
    "commitment-discounts", views.CommitmentDiscountViewSet, basename="commitment-discount"
)

urlpatterns = [
    path("v1/estimate/", views.estimate_view, name="estimate"),
    path("v1/", include(router.urls)),
    path("v1/", include("apps.accounts.api_urls")),
    path("v1/", include("apps.projects.api_urls")),
    path("v1/", include("apps.sweeps.api_urls")),
    path("v1/", include("apps.reviews.api_urls")),
    path("v1/", include("apps.sharing.api_urls")),
    path("v1/", include("apps.exports.api_urls")),
    path("v1/", include("apps.apiprices.api_urls")),
    path("v1/", include("apps.exchange.api_urls")),
    path("v1/", include("apps.options.api_urls")),
    path("v1/", include("apps.budget.api_urls")),
    path("v1/", include("apps.actuals.api_urls")),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
