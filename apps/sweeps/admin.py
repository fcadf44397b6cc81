"""Sweeps in the admin, read-only: for operators who look into a stuck or failed sweep."""

from django.contrib import admin

from apps.sweeps.models import ScenarioFreshness, Sweep


@admin.register(Sweep)
class SweepAdmin(admin.ModelAdmin):
    list_display = ("name", "scenario", "status", "points_done", "total_points", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "scenario__name")
    readonly_fields = [field.name for field in Sweep._meta.fields if not field.primary_key]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ScenarioFreshness)
class ScenarioFreshnessAdmin(admin.ModelAdmin):
    list_display = ("scenario", "stale_since", "checked_at", "problem")
    readonly_fields = ("scenario", "version", "stale_since", "checked_at", "problem")

    def has_add_permission(self, request) -> bool:
        return False
