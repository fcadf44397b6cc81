"""Project pages: the list, creating, reading and editing a project, adding a scenario to it and
comparing its scenarios side by side. A scenario's own page is in views_scenario, its versions'
in views_versions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import EstimateInputError
from apps.projects import page_parts, services
from apps.projects.currency import project_exchange
from apps.projects.forms import ProjectForm
from apps.projects.guards import refuses_frozen_projects
from apps.projects.models import Project
from apps.projects.presets import DEFAULT_PRESET, PRESETS, PRESETS_BY_SLUG
from apps.projects.quick_start import OWN_SOURCES, QUICK_STARTS, QuickStartForm
from apps.projects.scenario_compare import compare_rows
from apps.projects.selectors import can_create_projects, project_for_user


@login_required
@require_GET
def project_list(request: HttpRequest) -> TemplateResponse:
    projects = (
        Project.objects.for_user(request.user)
        .select_related("owner")
        .annotate(scenario_count=Count("scenarios", distinct=True))
    )
    return TemplateResponse(
        request,
        "projects/project_list.html",
        {"projects": projects, "can_create": can_create_projects(request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def project_create(request: HttpRequest) -> HttpResponse:
    if not can_create_projects(request.user):
        raise PermissionDenied(gettext("Only managers plan projects."))
    form = QuickStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        project = services.project_create(
            owner=request.user,
            fields=form.project_fields(),
            collaborators=[],
            preset=form.chosen_preset,
            inputs=form.inputs(),
        )
        messages.success(
            request,
            gettext(
                "Project “%(title)s” created with a first scenario, its budget and its decision "
                "view. Its budget settings, unit, data classification and collaborators are on "
                "its settings page, at their defaults."
            )
            % {"title": project.title},
        )
        scenario = project.scenarios.get()
        if form.is_own:
            # General figures, not the manager's: said plainly, with their sources, and the
            # page opened at the inputs to replace.
            messages.warning(
                request,
                gettext(
                    "These are general figures, not yours: replace them with your own below. "
                    "Where they come from: %(sources)s."
                )
                % {
                    "sources": pgettext("between the items of a list", "; ").join(
                        str(source) for source in OWN_SOURCES.values()
                    )
                },
            )
            return redirect(f"{scenario.get_absolute_url()}#inputs-heading")
        return redirect("scenario-detail", scenario_id=scenario.pk)
    return TemplateResponse(
        request, "projects/quick_start.html", {"form": form, "presets": QUICK_STARTS}
    )


@login_required
@require_GET
def project_detail(request: HttpRequest, project_id: int) -> TemplateResponse:
    project = project_for_user(request.user, project_id)
    scenarios = list(project.scenarios.prefetch_related("cost_lines"))
    baseline_budget = page_parts.project_context(scenarios)
    last_change = None
    if project.status != Project.Status.DRAFT:
        last_change = project.status_changes.select_related("changed_by").last()
    return TemplateResponse(
        request,
        "projects/project_detail.html",
        {
            "project": project,
            "scenarios": scenarios,
            "presets": PRESETS,
            "hosting_warning": project.hosting_warning(s.inputs for s in scenarios),
            "is_owner": project.owner_id == request.user.pk,
            "last_change": last_change,
            **baseline_budget,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@refuses_frozen_projects
def project_edit(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    if project.owner_id != request.user.pk:
        raise PermissionDenied(
            gettext("Only the project's owner changes its details and collaborators.")
        )
    project.check_can_edit()  # before the form is shown, not only when it is saved
    form = ProjectForm(request.POST or None, instance=project, owner=request.user)
    if request.method == "POST" and form.is_valid():
        fields = {k: v for k, v in form.cleaned_data.items() if k != "collaborators"}
        services.project_update(
            project=project, fields=fields, collaborators=form.cleaned_data["collaborators"]
        )
        messages.success(request, gettext("Project details saved."))
        return redirect("project-detail", project_id=project.pk)
    return TemplateResponse(
        request, "projects/project_form.html", {"form": form, "project": project, "creating": False}
    )


@login_required
@require_POST
@refuses_frozen_projects
def scenario_add(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    preset = PRESETS_BY_SLUG.get(request.POST.get("preset", ""), DEFAULT_PRESET)
    scenario = services.scenario_create(
        project=project, name=preset.name, inputs=preset.inputs, user=request.user
    )
    messages.success(
        request,
        gettext("Scenario “%(name)s” added; change any figure below.") % {"name": scenario.name},
    )
    return redirect("scenario-detail", scenario_id=scenario.pk)


@login_required
@require_GET
def project_compare(request: HttpRequest, project_id: int) -> TemplateResponse:
    project = project_for_user(request.user, project_id)
    all_scenarios = list(project.scenarios.all())
    ids = [int(i) for i in request.GET.getlist("s") if i.isdigit()]
    start = request.GET.get("with", "")
    if not ids and start.isdigit():
        # From a scenario's page: that scenario and the project's first three others.
        ids = [int(start), *[s.pk for s in all_scenarios if s.pk != int(start)][:3]]
    by_pk = {s.pk: s for s in all_scenarios}
    scenarios = [by_pk[pk] for pk in dict.fromkeys(ids) if pk in by_pk]  # in the order asked
    error = None
    if not 2 <= len(scenarios) <= 4:
        error = (
            gettext("This project has one scenario: duplicate it or add another to compare.")
            if len(all_scenarios) < 2
            else gettext("Choose two to four scenarios to compare.")
        )
        scenarios = []
    catalogue = Catalogue.load() if scenarios else None
    estimates = []
    for scenario in scenarios:
        try:
            exchange = project_exchange(project, catalogue)
            estimates.append(
                (scenario, estimate_from_request(scenario.inputs, catalogue, exchange)[0])
            )
        except EstimateInputError:
            estimates.append((scenario, None))
    return TemplateResponse(
        request,
        "projects/compare.html",
        {
            "project": project,
            "all_scenarios": all_scenarios,
            "selected": ids,
            "error": error,
            "estimates": estimates,
            "rows": compare_rows(estimates),
        },
    )
