"""The whole audit log, for administrators: a page of events with filters, and its CSV file."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.audit.csv_export import events_csv
from apps.audit.forms import AuditFilterForm
from apps.audit.models import AuditEvent
from apps.audit.presentation import event_rows


def can_read_whole_log(user) -> bool:
    """Administrators (superusers), and whoever an administrator lets view audit events."""
    return user.is_superuser or user.has_perm("audit.view_auditevent")


def _filtered(request: HttpRequest) -> tuple[AuditFilterForm, object]:
    if not can_read_whole_log(request.user):
        raise PermissionDenied(gettext("Only administrators read the whole audit log."))
    form = AuditFilterForm(request.GET or None)
    return form, form.filter(AuditEvent.objects.newest_first())


@never_cache
@login_required
@require_GET
def audit_log(request: HttpRequest) -> TemplateResponse:
    form, events = _filtered(request)
    page = Paginator(events, settings.AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return TemplateResponse(
        request,
        "audit/audit_log.html",
        {
            "form": form,
            "page": page,
            "events": event_rows(page.object_list),
            "query": query.urlencode(),
        },
    )


@login_required
@require_GET
def audit_log_csv(request: HttpRequest) -> HttpResponse:
    _, events = _filtered(request)
    return events_csv(events, "audit-log")
