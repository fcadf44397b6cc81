"""Reads of actuals: the plan by month from the baseline's budget, the actuals by month, the
variance the page and the API show, and who may see them."""

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from apps.actuals.models import ActualAmount, ActualsImport, Alert, AlertThresholds, MappingRule
from apps.actuals.variance import Variance, plan_against_actual
from apps.budget.selectors import (
    BudgetUnavailable,
    baseline_of,
    budget_rules,
    cost_line_input,
    cost_lines_of,
    planning_period,
)
from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import EstimateInputError, estimate
from apps.estimates.budget import (
    KINDS,
    BudgetInputError,
    CalendarError,
    FiscalCalendar,
    compute_lines,
    default_service_start,
    fiscal_years,
    schedule,
)
from apps.estimates.budget.fiscal import FiscalYear, PeriodMonths, month_index
from apps.estimates.budget.lines import decimal
from apps.estimates.budget.months import training_hours_by_month
from apps.projects.models import Project
from apps.projects.roles import can_review
from apps.projects.selectors import is_member

# The front office reads plan against actual of workplans in review or cleared.
REVIEWED = (Project.Status.SUBMITTED, Project.Status.CLEARED)


def project_for_variance(user, project_id: int) -> Project:
    """The project if the user is on its team, or is the front office and it is in review or
    cleared; else 404."""
    project = get_object_or_404(Project.objects.select_related("owner"), pk=project_id)
    if is_member(user, project) or (can_review(user) and project.status in REVIEWED):
        return project
    raise Http404(gettext("No project of yours has this number."))


def can_import(user, project: Project) -> bool:
    return is_member(user, project)


@dataclass(frozen=True)
class Plan:
    """The baseline's budget by month: money per (month_index, kind), accelerator-hours per
    month (None where the estimate has none), the fiscal years; `unavailable` says why there is
    no plan (no baseline, or its budget cannot be drawn up)."""

    years: tuple[FiscalYear, ...]
    money: dict[tuple[int, str], Decimal]
    accelerator_hours: dict[int, float] | None
    unavailable: str = ""


def project_plan(project: Project, catalogue: Catalogue | None = None) -> Plan:
    """The plan by month from the project's baseline scenario, by the budget's own arithmetic:
    its cost lines scheduled and the estimate's computed lines (apps.estimates.budget), the
    same monthly amounts the budget sums into its fiscal years."""
    scenario = baseline_of(project)
    if scenario is None:
        return Plan((), {}, None, gettext("This project has no baseline scenario."))
    catalogue = catalogue or Catalogue.load()
    try:
        try:
            inp, _ = estimate_input_from_request(scenario.inputs, catalogue)
            result = estimate(inp)
        except EstimateInputError as error:
            raise BudgetUnavailable(error.errors) from None
        start, end, _ = planning_period(project, scenario, result, timezone.localdate())
        calendar = FiscalCalendar(
            start_month=project.fiscal_year_start_month,
            label_rule=project.fiscal_year_label,
            period_start=start,
            period_end=end,
        )
        years = fiscal_years(calendar)
        computed = compute_lines(
            inp,
            result,
            calendar,
            training_start=scenario.training_start,
            service_start=scenario.service_start,
        )
        threshold = decimal(budget_rules(project).capitalisation_threshold)
        lines = [
            schedule(cost_line_input(line), threshold, end) for line in cost_lines_of(scenario)
        ]
    except (BudgetInputError, CalendarError) as error:
        return Plan((), {}, None, BudgetUnavailable(error.errors).reason())
    except BudgetUnavailable as error:
        return Plan((), {}, None, error.reason())
    period = PeriodMonths(years)
    money: dict[tuple[int, str], Decimal] = defaultdict(Decimal)
    for line in (*computed.lines, *lines):
        for day, amount in line.monthly:
            if month_index(day) in period:
                money[month_index(day), line.kind] += amount
    training_start = scenario.training_start or start
    return Plan(years, dict(money), _planned_hours(scenario, result, period, training_start))


def _planned_hours(scenario, result, period: PeriodMonths, training_start) -> dict | None:
    """Busy accelerator-hours planned by month: training's spread over its wall-clock hours in
    each month (as its cost is, from the same start), inference's month by month from the
    service start (as compute_lines places them). None when the estimate has none."""
    hours: dict[int, float] = defaultdict(float)
    known = False
    training = result.training
    if training is not None and training.accelerator_hours and training.wall_clock_hours:
        inside, _ = training_hours_by_month(training_start, training.wall_clock_hours, period)
        for month, wall_hours in inside:
            hours[month] += training.accelerator_hours * wall_hours / training.wall_clock_hours
        known = True
    inference = result.inference
    if inference is not None and inference.monthly:
        service = scenario.service_start or default_service_start(
            training_start, None if training is None else training.wall_clock_hours
        )
        if service is not None:
            first = month_index(service)
            for offset, month in enumerate(inference.monthly):
                if month.accelerator_hours is not None and first + offset in period:
                    hours[first + offset] += month.accelerator_hours
                    known = True
    return dict(hours) if known else None


def actual_cells(project: Project):
    """Actual money per (month_index, kind), accelerator-hours per month, tokens per (month,
    token type), in two queries."""
    money: dict[tuple[int, str], Decimal] = {}
    hours: dict[int, float] = defaultdict(float)
    tokens: dict[tuple[int, str], int] = defaultdict(int)
    matched = ActualAmount.objects.filter(project=project).exclude(kind="")
    for row in matched.values("month", "kind").annotate(amount=Sum("amount")):
        money[month_index(row["month"]), row["kind"]] = row["amount"]
    for row in matched.values("month", "token_type").annotate(
        hours=Sum("accelerator_hours"), tokens=Sum("tokens")
    ):
        month = month_index(row["month"])
        hours[month] += row["hours"] or 0.0
        if row["token_type"]:
            tokens[month, row["token_type"]] += row["tokens"] or 0
    return money, dict(hours), dict(tokens)


def project_variance(project: Project, catalogue: Catalogue | None = None) -> tuple[Plan, Variance]:
    plan = project_plan(project, catalogue)
    money, hours, tokens = actual_cells(project)
    variance = plan_against_actual(
        plan.years,
        plan.money,
        money,
        hours_plan=plan.accelerator_hours,
        hours=hours,
        tokens=tokens,
        kinds_order=KINDS,
    )
    return plan, variance


def usage_by_model(project: Project) -> list[dict]:
    """Tokens by model and type, and accelerator-hours by accelerator, over all months."""
    rows = (
        ActualAmount.objects.filter(project=project)
        .exclude(kind="")
        .values("model", "token_type", "accelerator")
        .annotate(tokens=Sum("tokens"), hours=Sum("accelerator_hours"))
        .order_by("accelerator", "model", "token_type")
    )
    return list(rows)


def unmatched_of(project: Project) -> list[ActualAmount]:
    return list(
        ActualAmount.objects.filter(project=project, kind="").order_by("month", "-amount")[:200]
    )


def rules_of(project: Project) -> list[MappingRule]:
    return list(MappingRule.objects.filter(project=project).order_by("position", "pk"))


def import_of(project: Project, import_id: int) -> ActualsImport:
    return get_object_or_404(ActualsImport, project=project, pk=import_id)


def imports_of(project: Project, limit: int = 10) -> list[ActualsImport]:
    return list(
        ActualsImport.objects.filter(project=project).order_by("-created_at", "-pk")[:limit]
    )


def alerts_of(project: Project) -> list[Alert]:
    return list(Alert.objects.filter(project=project).order_by("-created_at", "-pk")[:20])


def alert_thresholds(project: Project) -> AlertThresholds:
    """The project's alert thresholds; the defaults (unsaved) when it never set them."""
    found = AlertThresholds.objects.filter(project=project).first()
    return found or AlertThresholds(project=project)
