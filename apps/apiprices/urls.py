"""Route of the API price catalogue page."""

from django.urls import path

from apps.apiprices import views

urlpatterns = [
    path("catalogue/api-prices/", views.api_price_list, name="api-price-list"),
]
