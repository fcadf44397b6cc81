"""Admin pages where catalogue editors keep their organisation's exchange rates."""

from django.contrib import admin

from apps.exchange.models import OrganisationRate, RateTable


class OrganisationRateInline(admin.TabularInline):
    model = OrganisationRate
    extra = 1
    fields = ("base", "quote", "valid_from", "rate", "evidence", "source", "as_of", "notes")


@admin.register(RateTable)
class RateTableAdmin(admin.ModelAdmin):
    list_display = ("name", "updated_at")
    search_fields = ("name", "source")
    inlines = [OrganisationRateInline]
