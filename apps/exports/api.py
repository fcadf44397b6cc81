"""Export and import API: the pages' downloads and import, with their permissions."""

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.exceptions import NotFound, ParseError, PermissionDenied
from rest_framework.parsers import BaseParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.exports import services
from apps.exports.formats import FORMATS, XLSX_MEDIA_TYPE, download, report_language
from apps.exports.json_export import MAX_IMPORT_BYTES, DocumentError, import_notes, read_document
from apps.exports.report import Report, project_report, scenario_report
from apps.exports.serializers import ProjectDocumentSerializer, ProjectImportedSerializer
from apps.projects.selectors import can_create_projects, project_for_user, scenario_for_user


class ExportRenderer(BaseRenderer):
    """Lets content negotiation choose a format (?format= or Accept); the view writes the bytes."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class JSONExportRenderer(ExportRenderer):
    media_type, format, charset = "application/json", "json", "utf-8"


class CSVExportRenderer(ExportRenderer):
    media_type, format, charset = "text/csv", "csv", "utf-8"


class XLSXExportRenderer(ExportRenderer):
    media_type, format, charset = XLSX_MEDIA_TYPE, "xlsx", None


class PDFExportRenderer(ExportRenderer):
    media_type, format, charset = "application/pdf", "pdf", None


EXPORT_SCHEMA = {
    "parameters": [
        OpenApiParameter(
            "format",
            str,
            OpenApiParameter.QUERY,
            enum=list(FORMATS),
            description="The file to download; JSON when neither this nor Accept chooses one.",
        )
    ],
    "responses": {
        (200, "application/json"): ProjectDocumentSerializer,
        (200, "text/csv"): OpenApiTypes.STR,
        (200, XLSX_MEDIA_TYPE): OpenApiTypes.BINARY,
        (200, "application/pdf"): OpenApiTypes.BINARY,
    },
}


class ExportView(APIView):
    """A download in the negotiated format; errors stay JSON, which every client can read."""

    permission_classes = (IsAuthenticated,)
    renderer_classes = (
        JSONExportRenderer,
        CSVExportRenderer,
        XLSXExportRenderer,
        PDFExportRenderer,
    )

    def perform_content_negotiation(self, request: Request, force: bool = False):
        try:
            return super().perform_content_negotiation(request, force)
        except Http404:
            raise NotFound(
                gettext("No export format %(format)s: choose one of %(formats)s.")
                % {
                    "format": repr(request.query_params.get("format")),
                    "formats": ", ".join(FORMATS),
                }
            ) from None

    def report(self, request: Request, **kwargs) -> Report:
        raise NotImplementedError

    def get(self, request: Request, **kwargs) -> HttpResponse:
        with report_language(request.accepted_renderer.format):
            report = self.report(request, **kwargs)
        return download(report, FORMATS[request.accepted_renderer.format], user=request.user)


@extend_schema(
    summary="Download a project: every scenario's figures as JSON, CSV, XLSX or PDF",
    **EXPORT_SCHEMA,
)
class ProjectExportView(ExportView):
    def report(self, request: Request, project_id: int) -> Report:
        return project_report(project_for_user(request.user, project_id), user=request.user)


@extend_schema(
    summary="Download a scenario's figures as JSON, CSV, XLSX or PDF",
    **EXPORT_SCHEMA,
)
class ScenarioExportView(ExportView):
    def report(self, request: Request, scenario_id: int) -> Report:
        return scenario_report(scenario_for_user(request.user, scenario_id), user=request.user)


class DocumentParser(BaseParser):
    """A JSON export of up to MAX_IMPORT_BYTES: larger than API bodies may otherwise be."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(MAX_IMPORT_BYTES + 1) if stream is not None else b""
        try:
            return read_document(raw)
        except DocumentError as error:
            raise ParseError(str(error)) from None


@extend_schema(
    request=ProjectDocumentSerializer,
    responses={201: ProjectImportedSerializer},
    summary="Import a project from its JSON export, as a new draft project that you own",
    description="The export's whole record comes back: details, budget settings, and every "
    "scenario's inputs, timing and cost lines, saved as its version 1. A file of format version "
    "1 (or one that leaves these out) still imports: what it lacks takes its default, and the "
    "answer's `notes` say which.",
)
@api_view(["POST"])
@parser_classes([DocumentParser])
@permission_classes([IsAuthenticated])
def project_import(request: Request) -> Response:
    if not can_create_projects(request.user):
        raise PermissionDenied(gettext("Only managers plan projects."))
    serializer = ProjectDocumentSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    project = services.project_import(
        owner=request.user, details=serializer.validated_data["project"]
    )
    location = reverse("api:project-detail", args=[project.pk])
    context = {"request": request, "notes": import_notes(serializer.validated_data)}
    data = ProjectImportedSerializer(project, context=context).data
    return Response(data, status=201, headers={"Location": request.build_absolute_uri(location)})
