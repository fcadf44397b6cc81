"""The plan-against-actual page: the variance tables and chart, the upload form, the mapping
rules, the unmatched rows and a month entered by hand. The team works on it; the front office
reads it for workplans in review or cleared."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from apps.actuals import services
from apps.actuals.alerts import alert_text, alerts_raise
from apps.actuals.currency import rates_of
from apps.actuals.forms import ActualForm, RuleForm, ThresholdsForm, UploadForm
from apps.actuals.kinds import kind_name
from apps.actuals.models import MappingRule
from apps.actuals.reading import PLAIN_UNITS, template_csv
from apps.actuals.selectors import (
    alert_thresholds,
    alerts_of,
    can_import,
    import_of,
    imports_of,
    measured_demand_of,
    project_for_variance,
    project_plan,
    project_variance,
    rules_of,
    unmatched_of,
    usage_by_model,
)
from apps.estimates.budget.fiscal import month_start
from apps.projects.guards import refuses_frozen_projects
from apps.projects.selectors import project_for_user
from apps.words.currencies import rate_text


def _chart(variance, currency: str) -> tuple[dict, list[dict]]:
    """Cumulative plan and actual month by month over the planning period, for the chart and
    its table."""
    rows, plan, actual = [], 0, 0
    for year in variance.years:
        for month in year.months:
            plan += month.total.plan
            actual += month.total.actual
            passed = variance.through is not None and month.start <= variance.through
            rows.append(
                {
                    "label": month.label,
                    "start": month.start,
                    "plan": plan,
                    "actual": actual if passed else None,
                }
            )
    data = {
        "labels": [row["label"] for row in rows],
        "plan": [float(row["plan"]) for row in rows],
        "actual": [None if row["actual"] is None else float(row["actual"]) for row in rows],
        "plan_label": gettext("Cumulative plan"),
        "actual_label": gettext("Cumulative actual"),
        "unit": currency,
    }
    return data, rows


@login_required
@require_GET
def actuals_page(request: HttpRequest, project_id: int) -> TemplateResponse:
    project = project_for_variance(request.user, project_id)
    return _actuals(request, project)


def _actuals(
    request: HttpRequest, project, thresholds_form: ThresholdsForm | None = None, status=200
) -> TemplateResponse:
    """The page; `thresholds_form` bound and in error after a refused change."""
    plan, variance = project_variance(project)
    chart, chart_rows = _chart(variance, project.currency)
    team = can_import(request.user, project)
    shown_import = None
    if team and request.GET.get("import", "").isdigit():
        shown_import = import_of(project, int(request.GET["import"]))
    thresholds = alert_thresholds(project)
    return TemplateResponse(
        request,
        "actuals/actuals.html",
        {
            "project": project,
            "plan": plan,
            "variance": variance,
            "kind_names": {kind: kind_name(kind) for kind in variance.kinds},
            "chart": chart,
            "chart_rows": chart_rows,
            "chart_last": next((r for r in reversed(chart_rows) if r["actual"] is not None), None),
            "team": team,
            "shown_import": shown_import,
            "shown_rates": [
                rate_text(rate) for rate in rates_of(shown_import and shown_import.exchange_rates)
            ],
            "imports": imports_of(project) if team else [],
            "rules": rules_of(project) if team else [],
            "unmatched": unmatched_of(project) if team else [],
            "usage": usage_by_model(project),
            "alerts": [alert_text(alert, project.currency) for alert in alerts_of(project)],
            "thresholds": thresholds,
            "thresholds_form": thresholds_form or ThresholdsForm.of(thresholds),
            "upload_form": UploadForm(),
            "rule_form": RuleForm(),
            "actual_form": ActualForm(),
        },
        status=status,
    )


def _page(project_id: int, tail: str = "") -> HttpResponse:
    return redirect(reverse("project-actuals", args=[project_id]) + tail)


def _errors(request: HttpRequest, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(
                request,
                gettext("%(label)s: %(error)s") % {"label": label, "error": error}
                if label
                else error,
            )


@login_required
@require_POST
def actuals_upload(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        _errors(request, form)
        return _page(project.pk, "#upload")
    record = services.actuals_import_create(
        project=project,
        user=request.user,
        upload=form.cleaned_data["file"],
        source=form.cleaned_data["source"],
    )
    return _page(project.pk, f"?import={record.pk}#import")


@login_required
@require_POST
def rule_add(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    form = RuleForm(request.POST)
    if form.is_valid():
        services.mapping_rule_create(project=project, **form.cleaned_data)
        messages.success(request, gettext("Rule added: import the bill again to apply it."))
    else:
        _errors(request, form)
    return _page(project.pk, "#rules")


@login_required
@require_POST
def rule_delete(request: HttpRequest, project_id: int, rule_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    rule = MappingRule.objects.filter(project=project, pk=rule_id).first()
    if rule is not None:
        services.mapping_rule_delete(rule=rule)
        messages.success(request, gettext("Rule deleted."))
    return _page(project.pk, "#rules")


@login_required
@require_POST
def actual_add(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    form = ActualForm(request.POST)
    if form.is_valid():
        services.actual_enter(project=project, **form.cleaned_data)
        alerts_raise(project=project)
        messages.success(request, gettext("Actual saved."))
    else:
        _errors(request, form)
    return _page(project.pk, "#by-hand")


@login_required
@require_GET
def replan_confirm(request: HttpRequest, project_id: int) -> TemplateResponse:
    """What re-planning from the actuals would create, and the button that creates it."""
    project = project_for_user(request.user, project_id)
    demand = measured_demand_of(project, project_plan(project), timezone.localdate())
    return TemplateResponse(
        request,
        "actuals/replan.html",
        {
            "project": project,
            "demand": demand,
            "month": None if demand is None else month_start(demand.month),
        },
    )


@login_required
@require_POST
@refuses_frozen_projects
def replan(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    try:
        scenario = services.scenario_replan(
            project=project, user=request.user, today=timezone.localdate()
        )
    except services.ReplanRefused as refused:
        messages.error(request, str(refused))
        return redirect("actuals-replan", project_id=project.pk)
    messages.success(request, gettext("Scenario re-planned from the actuals."))
    return redirect(scenario.get_absolute_url())


@login_required
@require_POST
def thresholds_save(request: HttpRequest, project_id: int) -> HttpResponse:
    """Change when alerts are raised; a refused change shows the page again, each error beside
    its field."""
    project = project_for_user(request.user, project_id)
    form = ThresholdsForm(request.POST)
    if not form.is_valid():
        return _actuals(request, project, thresholds_form=form, status=400)
    services.alert_thresholds_update(project=project, **form.cleaned_data)
    alerts_raise(project=project)
    messages.success(request, gettext("Alert thresholds saved."))
    return _page(project.pk, "#thresholds")


TEMPLATE_HEADERS = {
    "en": ["month", "kind", "amount", "currency", "quantity", "unit"],
    "fr": ["mois", "nature", "montant", "devise", "quantité", "unité"],
}


@require_GET
def actuals_template(request: HttpRequest, language: str) -> HttpResponse:
    """The plain CSV's template, its header in English or French, with example rows."""
    header = TEMPLATE_HEADERS.get(language)
    if header is None:
        return HttpResponse(status=404)
    rows = [
        ["2026-01", "storage", "1250.00", "USD", "", ""],
        ["2026-01", "training_compute", "24000.00", "USD", "8000", PLAIN_UNITS[0]],
        ["2026-01", "inference_compute", "310.50", "USD", "62000000", PLAIN_UNITS[3]],
    ]
    response = HttpResponse(template_csv(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="actuals-template-{language}.csv"'
    return response
