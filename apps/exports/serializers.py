"""The JSON export's shape: documented in the OpenAPI schema and checked strictly on import.

What an import keeps is validated as the pages and the API validate it: the project's details
within the model's limits, and each scenario's inputs through the estimate request contract and
the engine (apps.projects.api.EstimateRequestField). Results and "source" are read-only: an
import ignores them and recomputes the results.
"""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.api.serializers import EstimateResponseSerializer, StrictSerializer
from apps.budget.serializers import BudgetSerializer
from apps.core.planning_dates import PlanningDateField
from apps.exports.json_export import FORMAT, FORMAT_VERSION, MAX_SCENARIOS
from apps.options.serializers import OptionsResponseSerializer
from apps.projects.models import Classification
from apps.projects.serializers import EstimateRequestField


def _text(max_length: int | None = None, **kwargs) -> serializers.CharField:
    # Kept exactly as exported, spaces included: a backup must not tidy what it restores.
    return serializers.CharField(max_length=max_length, trim_whitespace=False, **kwargs)


class ProjectSourceSerializer(serializers.Serializer):
    """Where an export came from; an import ignores it."""

    project_id = serializers.IntegerField()
    owner = serializers.CharField()
    collaborators = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    exported_at = serializers.DateTimeField()
    exported_by = serializers.CharField()


class ScenarioSourceSerializer(serializers.Serializer):
    """The scenario an export was made from; an import ignores it."""

    scenario_id = serializers.IntegerField()
    version = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class ScenarioDocumentSerializer(StrictSerializer):
    """A scenario: its name, whether it is the baseline, its inputs, and their results."""

    name = _text(200)
    is_baseline = serializers.BooleanField(
        default=False,
        help_text="At most one scenario is the baseline; when none is, the first becomes it.",
    )
    inputs = EstimateRequestField(
        help_text="An estimate request, as POST /api/v1/estimate/ takes it; stored as sent."
    )
    results = EstimateResponseSerializer(
        read_only=True,
        allow_null=True,
        help_text="The estimate response for the inputs when exported; null when the inputs no "
        "longer fit the catalogue. Ignored on import, which recomputes it.",
    )
    error = serializers.CharField(
        read_only=True, allow_null=True, help_text="Why there are no results, if there are none."
    )
    budget = BudgetSerializer(
        read_only=True,
        allow_null=True,
        help_text="The budget when exported, as GET /api/v1/scenarios/{id}/budget/ gives it; "
        "null when it could not be drawn up. Ignored on import.",
    )
    budget_error = serializers.CharField(
        read_only=True, allow_null=True, help_text="Why there is no budget, if there is none."
    )
    options = OptionsResponseSerializer(
        read_only=True,
        allow_null=True,
        help_text="The decision view when exported, as GET /api/v1/scenarios/{id}/options/ "
        "gives it; null when the options could not be compared. Ignored on import.",
    )
    source = ScenarioSourceSerializer(read_only=True)


class ProjectDetailsSerializer(StrictSerializer):
    """A project's details and every one of its scenarios, the baseline first."""

    title = _text(200)
    unit = _text(200, allow_blank=True, default="")
    description = _text(allow_blank=True, default="")
    currency = serializers.ChoiceField(choices=[("USD", "US dollar")], default="USD")
    classification = serializers.ChoiceField(
        choices=Classification.choices, default=Classification.PUBLIC
    )
    period_start = PlanningDateField(allow_null=True, default=None)
    period_end = PlanningDateField(allow_null=True, default=None)
    scenarios = ScenarioDocumentSerializer(many=True, max_length=MAX_SCENARIOS)

    def validate_scenarios(self, scenarios: list[dict]) -> list[dict]:
        if sum(scenario["is_baseline"] for scenario in scenarios) > 1:
            raise serializers.ValidationError(gettext("At most one scenario can be the baseline."))
        return scenarios

    def validate(self, attrs: dict) -> dict:
        start, end = attrs.get("period_start"), attrs.get("period_end")
        if start and end and end < start:
            raise serializers.ValidationError(
                {"period_end": gettext("The end of the planning period is before its start.")}
            )
        return attrs


@extend_schema_field({"type": "integer", "enum": [FORMAT_VERSION]})
class FormatVersionField(serializers.IntegerField):
    """The document's version: the schema names the one this site reads, which
    `validate_format_version` checks with its own message."""


class ProjectDocumentSerializer(StrictSerializer):
    """A project's JSON export, which POST /api/v1/projects/import/ takes back; fields that
    are not part of the format are refused."""

    format = serializers.ChoiceField(
        choices=[(FORMAT, "A Compute Planner project")],
        help_text="What the document is; files of any other kind are refused.",
    )
    format_version = FormatVersionField(
        help_text=f"The version of this document's shape; this site reads {FORMAT_VERSION}."
    )
    source = ProjectSourceSerializer(
        read_only=True, help_text="Where the export came from; ignored on import."
    )
    project = ProjectDetailsSerializer()

    def validate_format_version(self, version: int) -> int:
        if version != FORMAT_VERSION:
            raise serializers.ValidationError(
                gettext("This site reads format version %(ours)s; the file is version %(theirs)s.")
                % {"ours": FORMAT_VERSION, "theirs": version}
            )
        return version
