"""A project's audit log page and its CSV file."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.audit.csv_export import events_csv
from apps.audit.models import AuditEvent
from apps.audit.presentation import event_rows
from apps.projects.selectors import project_for_audit


@never_cache
@login_required
@require_GET
def project_audit(request: HttpRequest, project_id: int) -> TemplateResponse:
    project = project_for_audit(request.user, project_id)
    events = AuditEvent.objects.of_project(project.pk).newest_first()
    page = Paginator(events, settings.AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    return TemplateResponse(
        request,
        "projects/project_audit.html",
        {"project": project, "page": page, "events": event_rows(page.object_list)},
    )


@login_required
@require_GET
def project_audit_csv(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_audit(request.user, project_id)
    events = AuditEvent.objects.of_project(project.pk).newest_first()
    return events_csv(events, f"audit-project-{project.pk}")
