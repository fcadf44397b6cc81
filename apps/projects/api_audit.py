"""API of a project's audit log: GET /api/v1/projects/{id}/audit/, newest first, paged."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.api import PAGE_PARAMETERS, AuditPageSerializer, events_page
from apps.audit.models import AuditEvent
from apps.projects.selectors import project_for_audit


@extend_schema(
    summary="A project's audit log: who did what, when, to which object, and what changed",
    description="Newest first, a page at a time. For the project's owner and collaborators, the "
    "front office once the project is in its queue, and administrators; 404 for anyone else. "
    "The log is append-only: no call changes it.",
    parameters=PAGE_PARAMETERS,
    responses={200: AuditPageSerializer},
    tags=["audit"],
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def project_audit(request: Request, project_id: int) -> Response:
    project = project_for_audit(request.user, project_id)
    return events_page(request, AuditEvent.objects.of_project(project.pk))
