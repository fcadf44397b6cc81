"""Routes of the administrators' audit log page."""

from django.urls import path

from apps.audit import views

urlpatterns = [
    path("audit/", views.audit_log, name="audit-log"),
    path("audit.csv", views.audit_log_csv, name="audit-log-csv"),
]
