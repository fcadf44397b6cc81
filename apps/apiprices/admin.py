"""Admin pages where catalogue editors view and correct API prices."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from apps.apiprices.models import ApiModel, ApiPrice


class ApiPriceInline(admin.TabularInline):
    model = ApiPrice
    extra = 0


@admin.register(ApiModel)
class ApiModelAdmin(admin.ModelAdmin):
    list_display = ("name", "provider", "model", "deprecated", "catalogue_version", "as_of")
    list_filter = ("provider", "deprecated", "evidence")
    search_fields = ("name", "slug", "model", "provider")
    inlines = [ApiPriceInline]
    fieldsets = (
        (None, {"fields": ("slug", "provider", "provider_name", "model", "name", "deprecated")}),
        (_("Source"), {"fields": ("catalogue_version", "evidence", "source", "as_of", "notes")}),
    )
