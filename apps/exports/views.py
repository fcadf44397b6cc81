"""Export pages: downloads of a project or scenario, and the form that imports a project."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from apps.exports import services
from apps.exports.formats import FORMATS, download, report_language
from apps.exports.forms import ProjectImportForm
from apps.exports.json_export import import_notes
from apps.exports.report import project_report, scenario_report
from apps.projects.selectors import can_create_projects, project_for_user, scenario_for_user


@login_required
@require_GET
def project_export(request: HttpRequest, project_id: int, export_format: str) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    with report_language(export_format):
        report = project_report(project, user=request.user)
    return download(report, FORMATS[export_format], user=request.user)


@login_required
@require_GET
def scenario_export(request: HttpRequest, scenario_id: int, export_format: str) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    with report_language(export_format):
        report = scenario_report(scenario, user=request.user)
    return download(report, FORMATS[export_format], user=request.user)


@login_required
@require_http_methods(["GET", "POST"])
def project_import(request: HttpRequest) -> HttpResponse:
    if not can_create_projects(request.user):
        raise PermissionDenied(gettext("Only managers plan projects."))
    if request.method == "POST":
        form = ProjectImportForm(request.POST, request.FILES)
        if form.is_valid():
            document = form.cleaned_data["file"]
            project = services.project_import(owner=request.user, details=document["project"])
            messages.success(
                request, gettext("Project “%(title)s” imported.") % {"title": project.title}
            )
            for note in import_notes(document):
                messages.info(request, note)
            return redirect(project)
    else:
        form = ProjectImportForm()
    return TemplateResponse(request, "exports/project_import.html", {"form": form})
