"""API tokens in the admin: staff see who holds which token and may revoke it, never its key."""

from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    list_select_related = ("user",)
    search_fields = ("user__username", "name", "prefix")
    fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A key is shown only to the person who creates it, on the API tokens page or by the API.
        return False

    @admin.action(
        description=gettext_lazy("Revoke the selected API tokens"), permissions=["change"]
    )
    def revoke(self, request: HttpRequest, queryset) -> None:
        for token in queryset.active():
            api_token_revoke(token=token, user=request.user)
        messages.success(request, gettext("The selected API tokens are revoked."))
