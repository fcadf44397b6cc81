"""A scenario's saved versions: the list, newest first, and what changed between two."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from apps.projects import page_parts
from apps.projects.selectors import scenario_for_user
from apps.projects.version_diff import inputs_changes, results_changes


def _version_number(request: HttpRequest, key: str, default: int) -> int:
    value = request.GET.get(key, "")
    return int(value) if value.isdigit() else default


@login_required
@require_GET
def scenario_versions(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    """Every saved version of a scenario, newest first: who saved it, when, with which engine."""
    scenario = scenario_for_user(request.user, scenario_id)
    versions = list(scenario.versions.select_related("created_by").defer("results", "catalogue"))
    return TemplateResponse(
        request,
        "projects/versions.html",
        {
            "scenario": scenario,
            "project": scenario.project,
            "versions": versions,
            "numbers": [version.number for version in versions],
        },
    )


@login_required
@require_GET
def scenario_version_diff(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    """What changed between two versions (?old=&new=; by default the latest and the one before):
    the inputs, old → new, and the headline figures from the results stored with each."""
    scenario = scenario_for_user(request.user, scenario_id)
    new_number = _version_number(request, "new", scenario.version)
    old_number = _version_number(request, "old", max(new_number - 1, 1))
    versions = {
        v.number: v
        for v in scenario.versions.filter(number__in=[old_number, new_number]).select_related(
            "created_by"
        )
    }
    if old_number not in versions or new_number not in versions:
        raise Http404(gettext("No such version of this scenario."))
    old, new = versions[old_number], versions[new_number]
    return TemplateResponse(
        request,
        "projects/version_diff.html",
        {
            "scenario": scenario,
            "project": scenario.project,
            "old": old,
            "new": new,
            "numbers": range(scenario.version, 0, -1),
            "inputs_changes": inputs_changes(old, new),
            "results_changes": results_changes(old, new),
            **page_parts.versions_context(old, new),
        },
    )
