"""A project as JSON: a backup that imports back into an identical project, and reading one.

The document holds what makes the project what it is (its details and every scenario's name,
baseline flag and inputs) and, for people and scripts, each scenario's estimate response. Under
"source" it records where it came from (ids, owner, status, dates); an import ignores that and
recomputes the results, so a file can never plant figures the inputs do not give.
"""

import json

from django.utils.translation import gettext

from apps.api.parsers import reject_constant
from apps.exports.report import Report

FORMAT = "compute-planner-project"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_SCENARIOS = 100


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def project_document(report: Report) -> dict:
    project = report.project
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "source": {
            "project_id": project.pk,
            "owner": project.owner.get_username(),
            "collaborators": sorted(user.get_username() for user in project.collaborators.all()),
            "status": project.status,
            "created_at": _iso(project.created_at),
            "updated_at": _iso(project.updated_at),
            "exported_at": _iso(report.exported_at),
            "exported_by": report.exported_by,
        },
        "project": {
            "title": project.title,
            "unit": project.unit,
            "description": project.description,
            "currency": project.currency,
            "classification": project.classification,
            "period_start": _iso(project.period_start),
            "period_end": _iso(project.period_end),
            "scenarios": [
                {
                    "name": s.scenario.name,
                    "is_baseline": s.scenario.is_baseline,
                    "inputs": s.scenario.inputs,
                    "results": s.response,
                    "error": s.error or None,
                    "budget": s.budget,
                    "budget_error": s.budget_error or None,
                    "options": s.options,
                    "source": {
                        "scenario_id": s.scenario.pk,
                        "version": s.scenario.version,
                        "updated_at": _iso(s.scenario.updated_at),
                    },
                }
                for s in report.scenarios
            ],
        },
    }


def project_json(report: Report) -> bytes:
    return json.dumps(
        project_document(report), indent=2, ensure_ascii=False, allow_nan=False
    ).encode()


class DocumentError(ValueError):
    """The bytes are not a JSON document this site could read; the message says why."""


def read_document(raw: bytes) -> object:
    """Parse an uploaded document: at most MAX_IMPORT_BYTES of UTF-8 JSON, numbers finite."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise DocumentError(
            gettext("The file is larger than %(megabytes)d MB.")
            % {"megabytes": MAX_IMPORT_BYTES // (1024 * 1024)}
        )
    if not raw.strip():
        raise DocumentError(gettext("The file is empty."))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentError(
            gettext("The file is not UTF-8 text, so it is not a JSON export.")
        ) from None
    try:
        return json.loads(text, parse_constant=reject_constant)
    except (ValueError, RecursionError) as error:
        raise DocumentError(
            gettext("The file is not valid JSON: %(error)s") % {"error": error}
        ) from None
