"""Top-level routes."""

from django.contrib import admin
from django.urls import include, path, register_converter

from apps.catalogue import views as catalogue_views
from apps.core.converters import IdConverter

# Before the apps' routes are included: the API names its ids <id:…>.
register_converter(IdConverter, "id")

urlpatterns = [
    # First: a path is resolved by trying the routes in order, and integrators call the API
    # once per estimate (some 180 routes came before it: 60 µs of each API request). No other
    # route begins with "api/", so the order changes no answer.
    path("api/", include(("apps.api.urls", "api"), namespace="api")),
    path("", catalogue_views.home, name="home"),
    path("catalogue/", catalogue_views.accelerator_list, name="accelerator-list"),
    path("catalogue/models/", catalogue_views.model_list, name="model-list"),
    path("catalogue/calibration/", catalogue_views.calibration, name="calibration"),
    path("accounts/", include("apps.accounts.urls")),
    path("", include("apps.projects.urls")),
    path("", include("apps.sweeps.urls")),
    path("", include("apps.reviews.urls")),
    path("", include("apps.sharing.urls")),
    path("", include("apps.exports.urls")),
    path("", include("apps.glossary.urls")),
    path("", include("apps.apiprices.urls")),
    path("", include("apps.options.urls")),
    path("", include("apps.budget.urls")),
    path("", include("apps.audit.urls")),
    path("", include("apps.notifications.urls")),
    path("", include("apps.actuals.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "apps.core.views.bad_request"
handler403 = "apps.core.views.permission_denied"
handler404 = "apps.core.views.page_not_found"
handler500 = "apps.core.views.server_error"
