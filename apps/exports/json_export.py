"""A project as JSON: a backup that imports back into an identical project, and reading one.

The document is the project's whole record (format version 2): its details and budget settings,
and every scenario's name, baseline flag, inputs (ranges and seed included), timing and cost
lines; and, for people and scripts, each scenario's estimate response, budget and options.
Under "source" it records where it came from (ids, owner, status, dates); an import ignores that
and works the results out again, so a file can never plant figures the inputs do not give.
Files of format version 1 hold no budget settings, timing or cost lines; they still import, with
defaults in their place (`import_notes` says which).
"""

import json

from django.utils.translation import gettext, gettext_lazy
from rest_framework.renderers import JSONRenderer

from apps.api.parsers import reject_constant
from apps.exports.report import Report
from apps.exports.serializers import FORMAT, FORMAT_VERSION, CostLineDocumentSerializer
from apps.projects.models import BUDGET_SETTINGS
from apps.projects.serializers import BudgetSettingsSerializer

MAX_IMPORT_BYTES = 2 * 1024 * 1024
# What a scenario of a file that leaves a field out has instead, as an import's notes say.
MISSING_SCENARIO_FIELDS = {
    "training_start": gettext_lazy(
        "The file gives no training_start for %(scenarios)s: training starts at the start of "
        "the planning period, as by default."
    ),
    "service_start": gettext_lazy(
        "The file gives no service_start for %(scenarios)s: serving starts once training has "
        "ended, as by default."
    ),
    "cost_lines": gettext_lazy(
        "The file gives no cost_lines for %(scenarios)s: they have no cost lines, only their "
        "compute."
    ),
}


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def _plain(data) -> dict | list:
    """A serializer's data as JSON values, decimals as the API writes them."""
    return json.loads(JSONRenderer().render(data))


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
            "rate_date": _iso(project.rate_date),
            "rate_low": _decimal(project.rate_low),
            "rate_high": _decimal(project.rate_high),
            "fiscal_year_rates": dict(project.fiscal_year_rates or {}),
            "classification": project.classification,
            "period_start": _iso(project.period_start),
            "period_end": _iso(project.period_end),
            **_plain(BudgetSettingsSerializer(project).data),
            "scenarios": [
                {
                    "name": s.scenario.name,
                    "is_baseline": s.scenario.is_baseline,
                    "inputs": s.scenario.inputs,
                    "training_start": _iso(s.scenario.training_start),
                    "service_start": _iso(s.scenario.service_start),
                    "cost_lines": _plain(
                        CostLineDocumentSerializer(s.scenario.cost_lines.all(), many=True).data
                    ),
                    "results": s.response,
                    "error": s.error or None,
                    "budget": s.budget,
                    "budget_error": s.budget_error or None,
                    "options": s.options_response,
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


def _decimal(value) -> str | None:
    return None if value is None else str(value)


def _names(scenarios: list[dict]) -> str:
    return ", ".join(gettext("“%(name)s”") % {"name": scenario["name"]} for scenario in scenarios)


def import_notes(document: dict) -> list[str]:
    """What a validated document (a ProjectDocumentSerializer's data) leaves out, which the
    imported project therefore has by default, in the reader's language; empty when nothing."""
    details, notes = document["project"], []
    if document["format_version"] < FORMAT_VERSION:
        notes.append(
            gettext(
                "The file is of format version %(version)s, written before exports held the "
                "budget settings, timing and cost lines."
            )
            % {"version": document["format_version"]}
        )
    settings = [name for name in BUDGET_SETTINGS if name not in details]
    if settings:
        notes.append(
            gettext("The file gives no %(settings)s: the project has the default of each.")
            % {"settings": ", ".join(settings)}
        )
    for field, note in MISSING_SCENARIO_FIELDS.items():
        lacking = [scenario for scenario in details["scenarios"] if field not in scenario]
        if lacking:
            notes.append(note % {"scenarios": _names(lacking)})
    return notes


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
