"""Admin pages for staff: projects and their scenarios."""

from django.contrib import admin

from apps.projects.models import Project, Scenario


class ScenarioInline(admin.TabularInline):
    model = Scenario
    extra = 0


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ("title", "unit", "owner", "classification", "status", "updated_at")
    list_filter = ("status", "classification")
    list_select_related = ("owner",)
    search_fields = ("title", "unit")
    inlines = [ScenarioInline]
