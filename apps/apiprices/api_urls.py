"""Price catalogue API routes under /api/v1/."""

from django.urls import path

from apps.apiprices import api

urlpatterns = [
    path("api-prices/", api.api_price_list, name="api-price-list"),
    path("api-prices/<slug:slug>/", api.api_price_detail, name="api-price-detail"),
]
