"""One scenario's page: its form and figures (saved, previewed while typing, or in conflict
with a save made meanwhile), and duplicating, making the baseline and deleting it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.catalogue.uncertainty import uncertainty_from_request
from apps.core.fragments import cached_fragment, fragment_key
from apps.core.pages import cached_page
from apps.estimates import EstimateInputError
from apps.projects import page_parts, services
from apps.projects.currency import project_exchange
from apps.projects.forms import NewBaselineForm, ScenarioForm
from apps.projects.guards import refuses_frozen_projects
from apps.projects.models import BaselineNeeded, ProjectFrozen, Scenario, ScenarioVersion
from apps.projects.presentation import comparison_context
from apps.projects.range_inputs import with_typical_range
from apps.projects.roles import navigation_of
from apps.projects.selectors import scenario_for_user
from apps.projects.version_diff import edit_conflict
from apps.projects.versions import current_version, version_estimate
from apps.words.messages import error_line


def _view_mode(request: HttpRequest) -> str:
    return "single" if request.GET.get("view") == "single" else "many"


@login_required
@require_http_methods(["GET", "POST"])
def scenario_detail(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    catalogue = Catalogue.load()
    view = _view_mode(request)
    if request.method == "POST":
        return scenario_save(request, scenario, catalogue, view)
    # The comparison alone; a page that htmx restores from its history is asked for whole.
    if request.htmx and not request.htmx.history_restore_request:
        context = {"scenario": scenario, "project": scenario.project, "view": view}
        context.update(
            saved_figures(scenario, catalogue, view, current_version(scenario, catalogue))
        )
        response = TemplateResponse(request, "projects/scenario.html#comparison", context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return saved_scenario_response(request, scenario, catalogue, view)


def scenario_save(
    request: HttpRequest, scenario: Scenario, catalogue: Catalogue, view: str
) -> HttpResponse:
    """The form posted: saved (then back to the page), else the page around it with its figures
    (and why it was not saved: an error, a frozen project, or a save made meanwhile)."""
    status, conflict = 200, None
    form = ScenarioForm(request.POST, catalogue=catalogue, project=scenario.project)
    # "Use a typical range" fills a Low and High in and shows the figures; it saves nothing.
    typical = request.POST.get("typical_range")
    if typical:
        data, typical_error = with_typical_range(form, typical)
        form = ScenarioForm(data, catalogue=catalogue, project=scenario.project)
    if form.is_valid() and not typical:
        try:
            services.scenario_update(
                scenario=scenario,
                name=form.cleaned_data["name"],
                inputs=form.to_request(),
                user=request.user,
                expected_version=form.cleaned_data["version"],
                timing=form.timing(),
                estimated=form.estimated,
            )
        except ProjectFrozen as frozen:
            form.add_error(None, str(frozen))
            status = 409
        except services.ScenarioConflict as stale:
            conflict = edit_conflict(scenario, form.cleaned_data["version"], stale.latest)
            # The form now stands on the latest version: saving again replaces it knowingly.
            form.data = form.data.copy()
            form.data["version"] = stale.latest.number
            status = 409
        else:
            messages.success(request, gettext("Scenario saved."))
            return redirect(f"{scenario.get_absolute_url()}?view={view}")
    if typical and typical_error:
        form.add_error(typical if typical in form.fields else None, typical_error)
    parts = (
        comparison_context(
            form.result,
            notes=form.notes,
            view=view,
            currency=scenario.project.currency,
            ranges=form.uncertainty,
            exchange=form.exchange,
        )
        if form.result
        else {}
    )
    version = current_version(scenario, catalogue)
    parts.update(page_parts.scenario_context(scenario, catalogue=catalogue, version=version))
    context = {"form": form, "conflict": conflict, **parts}
    return scenario_response(request, scenario, view, context, status=status)


def scenario_response(
    request: HttpRequest, scenario: Scenario, view: str, context: dict, status: int = 200
) -> TemplateResponse:
    """The scenario's whole page around its form (or around the saved page's HTML)."""
    context = {"scenario": scenario, "project": scenario.project, "view": view, **context}
    response = TemplateResponse(request, "projects/scenario.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def saved_figures(
    scenario: Scenario, catalogue: Catalogue, view: str, version: ScenarioVersion | None
) -> dict:
    """The comparison's context for the saved inputs, or the problem the catalogue now finds:
    the estimate `version` kept, when given (the latest, still current), else computed now."""
    currency = scenario.project.currency
    if version is not None:
        kept = version_estimate(version)  # the catalogue's notes are in its assumptions
        return comparison_context(
            kept.result,
            notes={},
            view=view,
            # The currency the version's prices were converted into, at its pinned rate.
            currency=kept.exchange.to_currency if kept.exchange else "USD",
            ranges=kept.ranges,
            exchange=kept.exchange,
        )
    try:
        exchange = project_exchange(scenario.project, catalogue)
        result, resolution = estimate_from_request(scenario.inputs, catalogue, exchange)
        ranges = uncertainty_from_request(scenario.inputs, catalogue, fan=True, exchange=exchange)
    except EstimateInputError as error:
        return {"stored_error": error_line(error.errors)}
    return comparison_context(
        result,
        notes=resolution.notes,
        view=view,
        currency=currency,
        ranges=ranges,
        exchange=exchange,
    )


# The addresses of a saved scenario's page that are cached whole: the page and its two views (any
# other query string is drawn as usual rather than filling the cache).
CACHED_QUERY_STRINGS = frozenset({"", "view=many", "view=single"})


def saved_scenario_response(
    request: HttpRequest, scenario: Scenario, catalogue: Catalogue, view: str
) -> HttpResponse:
    """The saved scenario's page, whole from the cache (apps.core.pages) while its body's key
    (saved_page_key), the user's name and review role as the navigation shows them, and the
    address are the same. Two queries when warm: the user and the scenario with its project."""
    body_key = saved_page_key(scenario, catalogue, view)

    def render(context: dict) -> TemplateResponse:
        html = cached_fragment(
            body_key, lambda: saved_page_body(request, scenario, catalogue, view)
        )
        return scenario_response(request, scenario, view, {"saved_html": html, **context})

    if request.META.get("QUERY_STRING", "") not in CACHED_QUERY_STRINGS:
        return render({})
    key = fragment_key(
        "scenario-whole-page",
        body_key,
        request.user.pk,
        navigation_of(request.user),
        request.get_full_path(),
    )
    response = cached_page(request, key, render)
    patch_vary_headers(response, ["HX-Request"])
    return response


def saved_page_key(scenario: Scenario, catalogue: Catalogue, view: str) -> str:
    """The key of the saved scenario's page but its CSRF tokens and layout: a digest of all it is
    drawn from (the scenario and its version, its timing, its cost lines by when it was last
    saved, the project's title, status, currency and budget settings, the catalogue's rows, the
    view, and the month when the project sets no planning period)."""
    project = scenario.project
    return fragment_key(
        "scenario-page",
        scenario.pk,
        scenario.version,
        scenario.name,
        scenario.inputs,
        scenario.is_baseline,
        project.pk,
        project.title,
        project.status,
        project.currency,
        project.classification,
        page_parts.scenario_stamp(scenario),
        catalogue.digest,
        view,
    )


def saved_page_body(
    request: HttpRequest, scenario: Scenario, catalogue: Catalogue, view: str
) -> str:
    """The saved scenario's page but its CSRF tokens and layout, rendered."""
    initial = ScenarioForm.initial_from_request(scenario.name, scenario.inputs, scenario.version)
    initial.update(training_start=scenario.training_start, service_start=scenario.service_start)
    version = current_version(scenario, catalogue)
    context = {
        "scenario": scenario,
        "project": scenario.project,
        "form": ScenarioForm(initial=initial, catalogue=catalogue),
        "view": view,
        **saved_figures(scenario, catalogue, view, version),
        **page_parts.scenario_context(scenario, catalogue=catalogue, version=version),
    }
    return render_to_string("projects/scenario.html#scenario_page", context, request)


@login_required
@require_GET
def scenario_precisions(request: HttpRequest, section: str) -> HttpResponse:
    """The scenario form's number format for the accelerator chosen (htmx, when it changes):
    that accelerator's precisions, and the one chosen. Without htmx nothing asks for it: back to
    the projects."""
    if section not in ("training", "inference"):
        raise Http404
    if not request.htmx:
        return redirect("project-list")
    initial = {
        name: request.GET.get(name, "")
        for name in (f"{section}_accelerator", f"{section}_precision")
    }
    form = ScenarioForm(initial=initial, catalogue=Catalogue.load())
    item = form.precision_item(section)
    context = {"field": item["field"], "methods": item["methods"]}
    response = TemplateResponse(request, "projects/scenario.html#precision_field", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def scenario_preview(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    """The live figures while a manager types: the comparison for the form as it stands."""
    scenario = scenario_for_user(request.user, scenario_id)
    form = ScenarioForm(request.POST, catalogue=Catalogue.load(), project=scenario.project)
    view = _view_mode(request)
    valid = form.is_valid()
    context = {"scenario": scenario, "form": form, "preview": True, "view": view}
    if valid:
        context.update(
            comparison_context(
                form.result,
                notes=form.notes,
                view=view,
                currency=scenario.project.currency,
                ranges=form.uncertainty,
                exchange=form.exchange,
            )
        )
    return TemplateResponse(request, "projects/scenario.html#comparison", context)


@login_required
@require_POST
@refuses_frozen_projects
def scenario_duplicate(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    copy = services.scenario_duplicate(scenario=scenario, user=request.user)
    messages.success(request, gettext("“%(name)s” created.") % {"name": copy.name})
    return redirect("scenario-detail", scenario_id=copy.pk)


@login_required
@require_POST
@refuses_frozen_projects
def scenario_set_baseline(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    services.scenario_set_baseline(scenario=scenario)
    messages.success(request, gettext("“%(name)s” is now the baseline.") % {"name": scenario.name})
    return redirect("project-detail", project_id=scenario.project_id)


@login_required
@require_POST
@refuses_frozen_projects
def scenario_delete(request: HttpRequest, scenario_id: int) -> HttpResponse:
    """Delete the scenario; the baseline of a project with other scenarios first asks which of
    them becomes the baseline (a page of its own, so it works without JavaScript)."""
    scenario = scenario_for_user(request.user, scenario_id)
    project_id = scenario.project_id
    others = scenario.project.scenarios.exclude(pk=scenario.pk)
    form = NewBaselineForm(
        request.POST if "new_baseline" in request.POST else None, scenarios=others
    )
    try:
        services.scenario_delete(
            scenario=scenario,
            new_baseline=form.cleaned_data["new_baseline"] if form.is_valid() else None,
        )
    except BaselineNeeded as needed:
        context = {"scenario": scenario, "project": scenario.project, "form": form}
        context["question"] = str(needed)
        return TemplateResponse(request, "projects/scenario_delete_baseline.html", context)
    messages.success(request, gettext("Scenario “%(name)s” deleted.") % {"name": scenario.name})
    return redirect("project-detail", project_id=project_id)
