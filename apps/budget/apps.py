"""The budget: a scenario's cost lines beside its compute, summed into fiscal years."""

from django.apps import AppConfig


class BudgetConfig(AppConfig):
    name = "apps.budget"
    verbose_name = "Budget"

    def ready(self) -> None:
        from apps.budget import signals  # noqa: F401  (connects the cost-line receivers)
