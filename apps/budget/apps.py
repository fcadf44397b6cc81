"""The budget: a scenario's cost lines beside its compute, summed into fiscal years."""

from django.apps import AppConfig


class BudgetConfig(AppConfig):
    name = "apps.budget"
    verbose_name = "Budget"
