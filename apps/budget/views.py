"""Budget pages: a scenario's budget, and its cost lines added, changed and deleted.

Each page works as a plain form post; with HTMX the same views answer with the budget section
alone (the page's `budget_section` partial), so the budget changes without a reload.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.budget import services
from apps.budget.forms import CostLineForm, FiscalYearRatesForm, VersionForm
from apps.budget.line_templates import LINE_TEMPLATES
from apps.budget.models import CostLine, Kind
from apps.budget.presentation import budget_section
from apps.budget.selectors import BudgetUnavailable, scenario_budget
from apps.projects.guards import refuses_frozen_projects
from apps.projects.models import Scenario
from apps.projects.selectors import scenario_for_user
from apps.projects.services import ScenarioConflict, project_update
from apps.projects.version_diff import edit_conflict
from apps.words.currencies import rate_text

ORIGINS = {"scenario", "budget"}


def _origin(request: HttpRequest) -> str:
    origin = request.GET.get("from", "")
    return origin if origin in ORIGINS else "scenario"


def _back(scenario: Scenario, origin: str) -> str:
    """Where a change to a line leads back to: the budget page, or the scenario page's budget."""
    if origin == "budget":
        return reverse("scenario-budget-page", args=[scenario.pk])
    return f"{scenario.get_absolute_url()}#budget"


def _section(request: HttpRequest, scenario: Scenario, origin: str, **extra) -> TemplateResponse:
    """The budget section alone (HTMX), with whatever form or message `extra` holds."""
    context = {**budget_section(scenario, origin=origin), **extra}
    response = TemplateResponse(request, "budget/budget.html#budget_section", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def scenario_budget_page(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    if request.htmx and not request.htmx.history_restore_request:
        return _section(request, scenario, _origin(request))
    response = TemplateResponse(
        request, "budget/budget.html", budget_section(scenario, origin="budget")
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


def _line_form_page(
    request: HttpRequest,
    scenario: Scenario,
    form: CostLineForm,
    *,
    origin: str,
    action: str,
    line: CostLine | None = None,
    conflict: dict | None = None,
) -> TemplateResponse:
    """The form to add or change a line: inside the budget section (HTMX) or on its own page."""
    kind = form["kind"].value() or Kind.OTHER
    extra = {
        "line_form": form,
        "line_form_action": f"{action}?from={origin}",
        "line_form_kind": LINE_TEMPLATES.get(kind, LINE_TEMPLATES[Kind.OTHER]).name,
        "editing_line": line,
        "conflict": conflict,
        "cancel_href": _back(scenario, origin),
        "cancel_hx": f"{reverse('scenario-budget-page', args=[scenario.pk])}?from={origin}",
    }
    if request.htmx and not request.htmx.history_restore_request:
        return _section(request, scenario, origin, **extra)
    context = {"scenario": scenario, "project": scenario.project, "origin": origin, **extra}
    return TemplateResponse(request, "budget/cost_line_form.html", context)


def _saved(request: HttpRequest, scenario: Scenario, origin: str, message: str) -> HttpResponse:
    if request.htmx:  # a POST
        return _section(request, scenario, origin, budget_status=message)
    messages.success(request, message)
    return redirect(_back(scenario, origin))


@login_required
@require_http_methods(["GET", "POST"])
@refuses_frozen_projects
def cost_line_new(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    scenario.project.check_can_edit()
    origin = _origin(request)
    action = reverse("cost-line-new", args=[scenario.pk])
    if request.method == "POST":
        form = CostLineForm(
            request.POST, instance=CostLine(scenario=scenario), project=scenario.project
        )
        if form.is_valid():
            line = services.cost_line_create(
                scenario=scenario, fields=form.line_fields(), user=request.user
            )
            message = _("“%(name)s” added; the budget includes it.") % {"name": line.name}
            return _saved(request, scenario, origin, message)
    else:
        form = CostLineForm.for_kind(request.GET.get("kind", ""), project=scenario.project)
    return _line_form_page(request, scenario, form, origin=origin, action=action)


@login_required
@require_http_methods(["GET", "POST"])
@refuses_frozen_projects
def cost_line_edit(request: HttpRequest, scenario_id: int, line_id: int) -> HttpResponse:
    """Change a line; a save based on a version of the scenario someone else has saved since
    is refused (409) with what they saved, the form kept and now based on the latest."""
    scenario = scenario_for_user(request.user, scenario_id)
    line = get_object_or_404(CostLine, scenario=scenario, pk=line_id)
    line.scenario = scenario
    scenario.project.check_can_edit()
    origin = _origin(request)
    action = reverse("cost-line-edit", args=[scenario.pk, line.pk])
    form = CostLineForm(
        request.POST or None,
        instance=line,
        initial={"version": scenario.version},
        project=scenario.project,
    )
    conflict = None
    if request.method == "POST" and form.is_valid():
        try:
            services.cost_line_update(
                line=line,
                fields=form.line_fields(),
                user=request.user,
                expected_version=form.cleaned_data["version"],
            )
        except ScenarioConflict as stale:
            conflict = edit_conflict(scenario, form.cleaned_data["version"], stale.latest)
            form.data = form.data.copy()
            form.data["version"] = stale.latest.number
        else:
            message = _("“%(name)s” saved; the budget follows it.") % {"name": line.name}
            return _saved(request, scenario, origin, message)
    response = _line_form_page(
        request, scenario, form, origin=origin, action=action, line=line, conflict=conflict
    )
    if conflict and not request.htmx:  # HTMX swaps only successful answers in
        response.status_code = 409
    return response


@login_required
@require_POST
@refuses_frozen_projects
def cost_line_delete(request: HttpRequest, scenario_id: int, line_id: int) -> HttpResponse:
    """Delete a line; the button carries the scenario's version it was shown with, and a delete
    based on a version someone else has saved since is refused (409) with what they saved, as
    a stale edit is."""
    scenario = scenario_for_user(request.user, scenario_id)
    line = get_object_or_404(CostLine, scenario=scenario, pk=line_id)
    line.scenario = scenario
    origin = _origin(request)
    version = VersionForm(request.POST)
    expected_version = version.cleaned_data["version"] if version.is_valid() else None
    try:
        services.cost_line_delete(line=line, user=request.user, expected_version=expected_version)
    except ScenarioConflict as stale:
        conflict = {**edit_conflict(scenario, expected_version, stale.latest), "deleting": line}
        scenario.version = stale.latest.number
        return _delete_refused(request, scenario, origin, conflict)
    message = _("“%(name)s” deleted from the budget.") % {"name": line.name}
    return _saved(request, scenario, origin, message)


def _delete_refused(
    request: HttpRequest, scenario: Scenario, origin: str, conflict: dict
) -> TemplateResponse:
    """The budget with who saved since, its lines' buttons now based on the latest version: on
    its own page with a 409, or the budget section alone (HTMX swaps only successful answers)."""
    if request.htmx:
        return _section(request, scenario, origin, conflict=conflict)
    context = {**budget_section(scenario, origin=origin), "conflict": conflict}
    response = TemplateResponse(request, "budget/budget.html", context, status=409)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_http_methods(["GET", "POST"])
@refuses_frozen_projects
def fiscal_year_rates(request: HttpRequest, scenario_id: int) -> HttpResponse:
    """The project's rate per fiscal year, for the years of this scenario's budget: the owner
    changes it, as the project's other settings."""
    scenario = scenario_for_user(request.user, scenario_id)
    project = scenario.project
    if project.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the project's owner changes its settings."))
    project.check_can_edit()
    context = {"scenario": scenario, "project": project}
    try:
        drawn_up = scenario_budget(scenario, ranges=False)
    except BudgetUnavailable as error:
        return TemplateResponse(
            request, "budget/fiscal_year_rates.html", {**context, "budget_error": error.reason()}
        )
    labels = [year.label for year in drawn_up.budget.fiscal_years]
    form = FiscalYearRatesForm(request.POST or None, labels=labels, project=project)
    if request.method == "POST" and form.is_valid():
        try:
            project_update(
                project=project,
                fields={"fiscal_year_rates": form.rates(project)},
                collaborators=list(project.collaborators.all()),
            )
        except ValidationError as error:  # keyed by the project's field, not one of the form's
            form.add_error(None, error.messages)
        else:
            messages.success(request, _("Exchange rates per fiscal year saved."))
            return redirect("scenario-budget-page", scenario_id=scenario.pk)
    context.update(form=form, rate=drawn_up.exchange and rate_text(drawn_up.exchange))
    return TemplateResponse(request, "budget/fiscal_year_rates.html", context)
