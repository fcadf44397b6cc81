"""The budget: a scenario's cost lines beside its compute, summed into fiscal years."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BudgetConfig(AppConfig):
    name = "apps.budget"
    verbose_name = _("Budget")

    def ready(self) -> None:
        from apps.budget import signals  # noqa: F401  (connects the cost-line receivers)
        from apps.budget.kept import version_part, versions_context
        from apps.budget.presentation import budget_section, scenario_totals
        from apps.budget.selectors import budget_stamp
        from apps.projects import page_parts
        from apps.projects.versions import keep_with_versions

        page_parts.register(
            page_parts.PagePart(
                scenario_context=budget_section,
                scenario_stamp=budget_stamp,
                project_context=scenario_totals,
                versions_context=versions_context,
            )
        )
        keep_with_versions(version_part)
