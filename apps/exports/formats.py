"""The export formats, and a download of a report in one of them."""

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.http import content_disposition_header

from apps.audit.services import Action, audit_event_create
from apps.exports.csv_export import project_csv
from apps.exports.json_export import project_json
from apps.exports.pdf_export import project_pdf
from apps.exports.report import Report
from apps.exports.xlsx_export import project_xlsx

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class ExportFormat:
    name: str  # also the file extension
    media_type: str
    charset: str | None
    write: Callable[[Report], bytes]

    @property
    def content_type(self) -> str:
        return f"{self.media_type}; charset={self.charset}" if self.charset else self.media_type


FORMATS = {
    export.name: export
    for export in (
        ExportFormat("csv", "text/csv", "utf-8", project_csv),
        ExportFormat("xlsx", XLSX_MEDIA_TYPE, None, project_xlsx),
        ExportFormat("pdf", "application/pdf", None, project_pdf),
        ExportFormat("json", "application/json", "utf-8", project_json),
    )
}


def report_language(export_format: str):
    """The language a report is drawn up in: the reader's, except for JSON, whose keys and
    values stay unlocalised (the engine's notes included), whoever downloads it."""
    if export_format == "json":
        return translation.override(settings.LANGUAGE_CODE)
    return nullcontext()


def download(report: Report, export: ExportFormat, *, user) -> HttpResponse:
    """The report as an attachment, in the report's language, that no cache keeps: exports hold
    unpublished plans. The download is in the audit log."""
    with translation.override(report.language):
        content = export.write(report)
    audit_event_create(
        action=Action.EXPORT_DOWNLOADED,
        actor=user,
        subject=report.project,
        project_id=report.project.pk,
        changes={
            "format": [None, export.name],
            "scenarios": [None, [item.scenario.name for item in report.scenarios]],
        },
    )
    response = HttpResponse(content, content_type=export.content_type)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{report.filename}.{export.name}"
    )
    add_never_cache_headers(response)
    return response
