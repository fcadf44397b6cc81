"""Email deliveries and invitations in the admin, to read: what was sent to whom, and why not."""

from django.contrib import admin
from django.http import HttpRequest

from apps.notifications.models import Delivery, Invitation


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ("event", "kind", "recipient", "created_at", "attempts", "sent_at", "failed_at")
    list_filter = ("kind", ("sent_at", admin.EmptyFieldListFilter))
    list_select_related = ("recipient",)
    search_fields = ("event", "recipient__username", "recipient__email")


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ("email", "project", "invited_by", "created_at", "accepted_at")
    list_select_related = ("project", "invited_by")
    search_fields = ("email", "project__title")
