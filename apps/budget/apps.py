"""The budget: a scenario's cost lines beside its compute, summed into fiscal years."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BudgetConfig(AppConfig):
    name = "apps.budget"
    verbose_name = _("Budget")

    def ready(self) -> None:
        from apps.budget import wiring

        wiring.connect()
