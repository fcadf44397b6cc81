"""Budget arithmetic: fiscal years, cost lines, capex and opex, contingency, depreciation, NPV."""

from apps.estimates.budget.compare import (
    BudgetDiff,
    ChangedRow,
    Portfolio,
    PortfolioRow,
    budget_diff,
    portfolio,
)
from apps.estimates.budget.compute import compute_lines
from apps.estimates.budget.conversion import Conversion
from apps.estimates.budget.fiscal import (
    LABEL_RULES,
    CalendarError,
    FiscalCalendar,
    FiscalYear,
    fiscal_years,
)
from apps.estimates.budget.inputs import (
    Asset,
    BudgetInputError,
    BudgetRules,
    ComputedLines,
    rules_errors,
)
from apps.estimates.budget.lines import (
    BUDGET_CLASSES,
    CATEGORIES,
    COMPUTED_KINDS,
    DEFAULT_CATEGORIES,
    KINDS,
    RECURRENCES,
    USER_KINDS,
    CostLineInput,
    ScheduledLine,
    budget_class_of,
    line_errors,
    schedule,
)
from apps.estimates.budget.months import default_service_start, spread, training_end
from apps.estimates.budget.results import Budget, BudgetLine, Memo, Summary, Totals
from apps.estimates.budget.table import budget, monthly_lines

__all__ = [
    "BUDGET_CLASSES",
    "CATEGORIES",
    "COMPUTED_KINDS",
    "DEFAULT_CATEGORIES",
    "KINDS",
    "LABEL_RULES",
    "RECURRENCES",
    "USER_KINDS",
    "Asset",
    "Budget",
    "BudgetDiff",
    "BudgetInputError",
    "BudgetLine",
    "BudgetRules",
    "CalendarError",
    "ChangedRow",
    "ComputedLines",
    "Conversion",
    "CostLineInput",
    "FiscalCalendar",
    "FiscalYear",
    "Memo",
    "Portfolio",
    "PortfolioRow",
    "ScheduledLine",
    "Summary",
    "Totals",
    "budget",
    "budget_class_of",
    "budget_diff",
    "compute_lines",
    "default_service_start",
    "fiscal_years",
    "line_errors",
    "monthly_lines",
    "portfolio",
    "rules_errors",
    "schedule",
    "spread",
    "training_end",
]
