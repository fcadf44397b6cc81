"""What the budget connects once Django's registry is ready: its part of the project and scenario
pages, its record kept with every version, and a cost line's change marking its scenario changed."""

from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from apps.budget.kept import version_part, versions_context
from apps.budget.models import CostLine
from apps.budget.presentation import budget_section, scenario_totals
from apps.budget.selectors import budget_stamp
from apps.projects import page_parts
from apps.projects.models import Scenario
from apps.projects.versions import keep_with_versions


def connect() -> None:
    page_parts.register(
        page_parts.PagePart(
            scenario_context=budget_section,
            scenario_stamp=budget_stamp,
            project_context=scenario_totals,
            versions_context=versions_context,
        )
    )
    keep_with_versions(version_part)
    post_save.connect(cost_line_changed, sender=CostLine, dispatch_uid="apps.budget.saved")
    post_delete.connect(cost_line_changed, sender=CostLine, dispatch_uid="apps.budget.deleted")


def cost_line_changed(sender, instance: CostLine, **kwargs) -> None:
    """A cost line saved or deleted by any path (the services, the admin, a shell) marks its
    scenario as changed, so that the budget's cache key (apps.budget.api) sees it."""
    Scenario.objects.filter(pk=instance.scenario_id).update(updated_at=timezone.now())
