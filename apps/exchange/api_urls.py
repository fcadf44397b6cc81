"""Exchange rate API routes under /api/v1/."""

from django.urls import path

from apps.exchange import api

urlpatterns = [
    path("exchange-rates/", api.exchange_rate_detail, name="exchange-rate"),
]
