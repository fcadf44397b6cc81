"""The audit log in the admin: read only, for whoever may view audit events."""

from django.contrib import admin
from django.http import HttpRequest

from apps.audit.models import AuditEvent

# django-auditlog registers its own admin for the log's model; this one is worded for people.
if admin.site.is_registered(AuditEvent):
    admin.site.unregister(AuditEvent)


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    date_hierarchy = "timestamp"
    list_display = ("timestamp", "actor_name", "action_name", "object_repr", "project_id")
    list_filter = ("action_name",)
    search_fields = ("actor_name", "object_repr")
    fields = (
        "timestamp",
        "actor_name",
        "actor_email",
        "remote_addr",
        "action_name",
        "content_type",
        "object_pk",
        "object_repr",
        "project_id",
        "changes",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
