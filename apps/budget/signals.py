"""A cost line saved or deleted by any path (the services, the admin, a shell) marks its
scenario as changed, so that the budget's cache key (apps.budget.api) sees it."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from apps.budget.models import CostLine
from apps.projects.models import Scenario


@receiver(post_save, sender=CostLine)
@receiver(post_delete, sender=CostLine)
def cost_line_changed(sender, instance: CostLine, **kwargs) -> None:
    Scenario.objects.filter(pk=instance.scenario_id).update(updated_at=timezone.now())
