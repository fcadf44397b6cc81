"""Reads of actuals: the plan by month from the baseline's budget, the actuals by month, the
variance the page and the API show, and who may see them."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import connection
from django.db.models import Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from apps.actuals.models import ActualAmount, ActualsImport, Alert, AlertThresholds, MappingRule
from apps.actuals.replan import ACCELERATOR_HOURS, TOKENS, MeasuredDemand, measured_demand
from apps.actuals.variance import (
    Variance,
    YearSum,
    plan_against_actual,
    summed_years,
    tokens_per_request,
)
from apps.budget.models import CostLine
from apps.budget.selectors import (
    BudgetUnavailable,
    baseline_of,
    baselines_of,
    budget_rules,
    conversion_of,
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
    monthly_lines,
)
from apps.estimates.budget.fiscal import FiscalYear, PeriodMonths, month_index
from apps.estimates.budget.months import training_hours_by_month
from apps.projects.currency import project_exchange
from apps.projects.models import Project, Scenario
from apps.projects.roles import can_review
from apps.projects.selectors import is_member, is_member_of

SECONDS_PER_HOUR = 3600
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
    month (None where the estimate has none), tokens per (month_index, token type) (None where
    the plan counts no tokens) and the model they are planned on (an external API's, else ""),
    the fiscal years; `unavailable` says why there is no plan (no baseline, or its budget
    cannot be drawn up)."""

    years: tuple[FiscalYear, ...]
    money: dict[tuple[int, str], Decimal]
    accelerator_hours: dict[int, float] | None
    unavailable: str = ""
    tokens: dict[tuple[int, str], float] | None = None
    model: str = ""
    # What one planned request uses: tokens of every type together, busy accelerator-hours
    # (None where the plan does not count it), for measuring requests from actuals.
    request_tokens: float | None = None
    request_accelerator_hours: float | None = None


def project_plan(project: Project, catalogue: Catalogue | None = None) -> Plan:
    """The plan by month from the project's baseline scenario, by the budget's own arithmetic:
    its cost lines scheduled and the estimate's computed lines (apps.estimates.budget), the
    same monthly amounts the budget sums into its fiscal years."""
    scenario = baseline_of(project)
    lines = [] if scenario is None else cost_lines_of(scenario)
    return _plan_of(project, scenario, lines, catalogue)


def _plan_of(
    project: Project,
    scenario: Scenario | None,
    lines: list[CostLine],
    catalogue: Catalogue | None = None,
) -> Plan:
    """project_plan from the baseline and its cost lines (in the budget table's order) as read."""
    if scenario is None:
        return Plan((), {}, None, gettext("This project has no baseline scenario."))
    catalogue = catalogue or Catalogue.load()
    try:
        try:
            exchange = project_exchange(project, catalogue)
            inp, _ = estimate_input_from_request(scenario.inputs, catalogue, exchange)
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
        # The budget's own months: the lines in another currency and the fiscal years with a
        # rate of their own converted as the budget converts them.
        line_inputs = [cost_line_input(line, project) for line in lines]
        conversion, _ = conversion_of(project, catalogue, exchange, line_inputs, calendar)
        added, computed_lines, _ = monthly_lines(
            calendar, budget_rules(project), line_inputs, computed, conversion
        )
    except (BudgetInputError, CalendarError, EstimateInputError) as error:
        return Plan((), {}, None, BudgetUnavailable(error.errors).reason())
    except BudgetUnavailable as error:
        return Plan((), {}, None, error.reason())
    period = PeriodMonths(years)
    money: dict[tuple[int, str], Decimal] = defaultdict(Decimal)
    for line in (*computed_lines, *added):
        for day, amount in line.monthly:
            if month_index(day) in period:
                money[month_index(day), line.kind] += amount
    training_start = scenario.training_start or start
    tokens = _planned_tokens(scenario, inp.inference, result, period, training_start)
    inference_data = scenario.inputs.get("inference") or {}
    per_request = tokens_per_request(inp.inference)
    seconds = None if result.inference is None else result.inference.per_request.accelerator_seconds
    return Plan(
        years,
        dict(money),
        _planned_hours(scenario, result, period, training_start),
        tokens=tokens,
        model=str(inference_data.get("api_model") or "") if tokens is not None else "",
        request_tokens=None if per_request is None else sum(per_request.values()),
        request_accelerator_hours=None if not seconds else seconds / SECONDS_PER_HOUR,
    )


def _service_months(scenario, result, training_start) -> int | None:
    """The month_index of the service's first month, as compute_lines places inference."""
    training = result.training
    service = scenario.service_start or default_service_start(
        training_start, None if training is None else training.wall_clock_hours
    )
    return None if service is None else month_index(service)


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
        first = _service_months(scenario, result, training_start)
        if first is not None:
            for offset, month in enumerate(inference.monthly):
                if month.accelerator_hours is not None and first + offset in period:
                    hours[first + offset] += month.accelerator_hours
                    known = True
    return dict(hours) if known else None


def _planned_tokens(
    scenario, inference_input, result, period: PeriodMonths, training_start
) -> dict[tuple[int, str], float] | None:
    """Tokens planned by (month_index, token type): each month's requests (the estimate's
    demand, from the service start as compute_lines places inference) × the tokens of one
    request by type (apps.actuals.variance.tokens_per_request). None where the plan counts
    none."""
    per_request = tokens_per_request(inference_input)
    inference = result.inference
    if per_request is None or inference is None or not inference.monthly:
        return None
    first = _service_months(scenario, result, training_start)
    if first is None:
        return None
    tokens: dict[tuple[int, str], float] = {}
    for offset, month in enumerate(inference.monthly):
        if first + offset in period:
            for token_type, count in per_request.items():
                tokens[first + offset, token_type] = month.requests * count
    return tokens


@dataclass(frozen=True)
class CurrencyVariance:
    """Plan against actual by fiscal year summed over the projects with actuals in one
    currency (never mixed with another), those projects, and each one's own plan against
    actual (`variances`, in the order of `projects`)."""

    currency: str
    years: tuple[YearSum, ...]
    projects: tuple[Project, ...]
    variances: tuple[Variance, ...] = ()


def portfolio_variance(projects: Iterable[Project]) -> list[CurrencyVariance]:
    """Plan against actual of the projects that have actuals, summed per currency (the
    project's, which its actuals are counted in), currencies in alphabetical order. The
    caller chooses the projects (the portfolio's, for its user). Five queries however many
    projects: those billed, their baselines and cost lines, their actuals."""
    projects = list(projects)
    billed = set(
        ActualAmount.objects.filter(project__in=projects)
        .values_list("project_id", flat=True)
        .distinct()
    )
    projects = [project for project in projects if project.pk in billed]
    catalogue = Catalogue.load()
    baselines = baselines_of(projects) if projects else {}
    cells = actual_cells_of(projects) if projects else {}
    by_currency: dict[str, list] = defaultdict(list)
    for project in projects:
        scenario, lines = baselines.get(project.pk, (None, []))
        plan = _plan_of(project, scenario, lines, catalogue)
        variance = _variance_of(plan, cells.get(project.pk) or _nothing_billed())
        by_currency[project.currency].append((project, variance))
    return [
        CurrencyVariance(
            currency,
            summed_years([variance for _, variance in rows]),
            tuple(project for project, _ in rows),
            tuple(variance for _, variance in rows),
        )
        for currency, rows in sorted(by_currency.items())
    ]


def has_actuals(project: Project) -> bool:
    """Whether anything was billed to the project (matched to a kind of line or not)."""
    return ActualAmount.objects.filter(project=project).exists()


type Cells = tuple[dict[tuple[int, str], Decimal], dict[int, float], dict[tuple[int, str], int]]


def _nothing_billed() -> Cells:
    return {}, {}, {}


def actual_cells(project: Project) -> Cells:
    """Actual money per (month_index, kind), accelerator-hours per month, tokens per (month,
    token type), in two queries."""
    return actual_cells_of([project]).get(project.pk) or _nothing_billed()


def actual_cells_of(projects: Iterable[Project]) -> dict[int, Cells]:
    """actual_cells of each of these projects that has matched actuals, by project id, in two
    queries however many projects."""
    money: dict[int, dict] = defaultdict(dict)
    hours: dict[int, dict] = defaultdict(lambda: defaultdict(float))
    tokens: dict[int, dict] = defaultdict(lambda: defaultdict(int))
    matched = ActualAmount.objects.filter(project__in=list(projects)).exclude(kind="")
    for row in matched.values("project_id", "month", "kind").annotate(amount=Sum("amount")):
        money[row["project_id"]][month_index(row["month"]), row["kind"]] = row["amount"]
    for row in matched.values("project_id", "month", "token_type").annotate(
        hours=Sum("accelerator_hours"), tokens=Sum("tokens")
    ):
        project, month = row["project_id"], month_index(row["month"])
        hours[project][month] += row["hours"] or 0.0
        if row["token_type"]:
            tokens[project][month, row["token_type"]] += row["tokens"] or 0
    return {
        project: (money[project], dict(hours[project]), dict(tokens[project]))
        for project in money.keys() | hours.keys()
    }


def project_variance(project: Project, catalogue: Catalogue | None = None) -> tuple[Plan, Variance]:
    plan = project_plan(project, catalogue)
    return plan, _variance_of(plan, actual_cells(project))


def _variance_of(plan: Plan, cells: Cells) -> Variance:
    money, hours, tokens = cells
    return plan_against_actual(
        plan.years,
        plan.money,
        money,
        hours_plan=plan.accelerator_hours,
        hours=hours,
        tokens=tokens,
        kinds_order=KINDS,
        tokens_plan=plan.tokens,
    )


def measured_demand_of(project: Project, plan: Plan, today: date) -> MeasuredDemand | None:
    """The demand measured from the project's actuals (apps.actuals.replan) up to the last full
    month before `today`'s: from the tokens billed where the plan counts tokens and some were
    billed, else from the inference accelerator-hours billed."""
    before = month_index(today)
    matched = ActualAmount.objects.filter(project=project).exclude(kind="")
    if plan.request_tokens:
        tokens = {
            month_index(row["month"]): float(row["tokens"] or 0)
            for row in matched.values("month").annotate(tokens=Sum("tokens"))
        }
        demand = measured_demand(tokens, plan.request_tokens, before=before, basis=TOKENS)
        if demand is not None:
            return demand
    if plan.request_accelerator_hours:
        hours = {
            month_index(row["month"]): row["hours"] or 0.0
            for row in matched.filter(kind="inference_compute")
            .values("month")
            .annotate(hours=Sum("accelerator_hours"))
        }
        return measured_demand(
            hours, plan.request_accelerator_hours, before=before, basis=ACCELERATOR_HOURS
        )
    return None


_STAMP_SQL = (
    "SELECT p.owner_id, p.status, p.updated_at, s.id, s.version, s.updated_at,"
    " a.rows, a.last, a.amount, a.tokens, a.hours"
    f" FROM {Project._meta.db_table} p"
    f" LEFT JOIN {Scenario._meta.db_table} s ON s.project_id = p.id AND s.is_baseline = %s,"
    " (SELECT COUNT(*) AS rows, MAX(id) AS last, SUM(amount) AS amount, SUM(tokens) AS tokens,"
    f" SUM(accelerator_hours) AS hours FROM {ActualAmount._meta.db_table}"
    " WHERE project_id = %s) a"
    " WHERE p.id = %s"
)


def variance_stamp(user, project_id: int) -> list | None:
    """What says whether a project's variance may have changed, read in one light query: when
    the project was last saved (its currency, fiscal calendar, period and budget settings),
    its baseline's id, version and when it was last saved (a cost line saved or deleted marks
    it: apps.budget.wiring), what its actuals add up to (an import or an entry replaces rows,
    so each changes their count or last id), and this month. None when the user may not see
    the project (project_for_variance's rule)."""
    # Raw SQL, as the budget API's stamp: the ORM's compilation costs more than the query on
    # this hot endpoint; the tables are the models' own.
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_SQL, [True, project_id, project_id])
        row = cursor.fetchone()
    if row is None:
        return None
    owner_id, status, *changed = row
    member = is_member_of(user, owner_id=owner_id, project_id=project_id)
    if not member and not (can_review(user) and status in REVIEWED):
        return None
    return [project_id, *(str(value) for value in changed), timezone.localdate().strftime("%Y-%m")]


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
