"""Glossary routes."""

from django.urls import path

from apps.glossary import views

urlpatterns = [
    path("glossary/", views.glossary, name="glossary"),
    path("glossary/<slug:term>/", views.glossary_term, name="glossary-term"),
]
