"""The JSON export's shape: documented in the OpenAPI schema and checked strictly on import.

What an import keeps is validated as the pages and the API validate it: the project's details
and budget settings within the model's limits, each scenario's inputs through the estimate
request contract and the engine (apps.projects.api.EstimateRequestField), its timing as the
scenario API takes it, and its cost lines as the cost line API takes them. Results, budgets,
options and "source" are read-only: an import ignores them and works them out again.
"""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.api.serializers import EstimateResponseSerializer, StrictSerializer
from apps.api.strict import KnownFieldsOnly
from apps.budget.records import LINE_FIELDS
from apps.budget.serializers import BudgetSerializer, CostLineSerializer
from apps.core.planning_dates import PlanningDateField
from apps.options.serializers import OptionsResponseSerializer
from apps.projects.models import Classification
from apps.projects.serializers import (
    BudgetSettingsSerializer,
    EstimateRequestField,
    ProjectSerializer,
    exchange_rate_field,
    fiscal_year_rates_field,
    validate_project_details,
)
from apps.words.currencies import active_currencies

FORMAT = "compute-planner-project"
# 2, written and read: the project's whole record, version 1's and its budget settings, and each
# scenario's timing and cost lines. 1, still read: files exported before version 2, with the
# project's details and each scenario's name, baseline flag and inputs.
FORMAT_VERSION = 2
FORMAT_VERSIONS = (1, 2)
MAX_SCENARIOS = 100


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


class CostLineDocumentSerializer(KnownFieldsOnly, CostLineSerializer):
    """A cost line as the cost line API takes and gives it, without its id."""

    class Meta(CostLineSerializer.Meta):
        fields = LINE_FIELDS


class ScenarioDocumentSerializer(StrictSerializer):
    """A scenario: its name, whether it is the baseline, its inputs, timing and cost lines, and
    their results."""

    name = _text(200)
    is_baseline = serializers.BooleanField(
        default=False,
        help_text="At most one scenario is the baseline; when none is, the first becomes it.",
    )
    inputs = EstimateRequestField(
        help_text="An estimate request, as POST /api/v1/estimate/ takes it; stored as sent."
    )
    training_start = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="When training starts; null: at the planning period's start. Left out (files "
        "of format version 1): null, and the import's answer says so.",
    )
    service_start = PlanningDateField(
        allow_null=True,
        required=False,
        help_text="When serving starts; null: the first of the month after training ends. Left "
        "out (files of format version 1): null, and the import's answer says so.",
    )
    cost_lines = CostLineDocumentSerializer(
        many=True,
        required=False,
        help_text="What the scenario costs besides its compute, in the budget table's order, "
        "each as the cost line API takes it. Left out (files of format version 1): none, and "
        "the import's answer says so.",
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


class ProjectDetailsSerializer(BudgetSettingsSerializer, StrictSerializer):
    """A project's details, its budget settings and every one of its scenarios, the baseline
    first. A budget setting left out (files of format version 1) takes its default, and the
    import's answer says so."""

    title = _text(200)
    unit = _text(200, allow_blank=True, default="")
    description = _text(allow_blank=True, default="")
    currency = serializers.ChoiceField(
        choices=active_currencies(),
        default="USD",
        help_text="Any active ISO 4217 code; one no exchange rate converts into is refused.",
    )
    rate_date = PlanningDateField(
        allow_null=True,
        default=None,
        help_text="The day whose rate converts prices; null: the date of the catalogue's prices.",
    )
    rate_low = exchange_rate_field(
        allow_null=True,
        default=None,
        help_text="The low end of the rate's 90 % range, as the project API gives it and with "
        "its rules: more than 0, both ends or neither, the low end at most the high end, none "
        "on a project in US dollars.",
    )
    rate_high = exchange_rate_field(
        allow_null=True,
        default=None,
        help_text="The high end of the rate's 90 % range, as the project API gives it (see "
        "`rate_low`).",
    )
    fiscal_year_rates = fiscal_year_rates_field(
        default=dict,
        help_text="A rate of its own for some fiscal years, by label, as the project API gives it "
        "and with its rules: more than 0, a label of at most 20 characters, none on a project in "
        "US dollars.",
    )
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
        return validate_project_details(attrs)


@extend_schema_field({"type": "integer", "enum": list(FORMAT_VERSIONS)})
class FormatVersionField(serializers.IntegerField):
    """The document's version: the schema names those this site reads, which
    `validate_format_version` checks with its own message."""


class ProjectDocumentSerializer(StrictSerializer):
    """A project's JSON export, which POST /api/v1/projects/import/ takes back; fields that
    are not part of the format are refused."""

    format = serializers.ChoiceField(
        choices=[(FORMAT, "A Compute Planner project")],
        help_text="What the document is; files of any other kind are refused.",
    )
    format_version = FormatVersionField(
        help_text=f"The version of this document's shape; this site writes {FORMAT_VERSION} and "
        "reads 1 and 2. Version 2 is the project's whole record: version 1's details, scenarios "
        "and inputs (ranges and seed included), with the project's budget settings and each "
        "scenario's training_start, service_start and cost_lines. A file of version 1 has none "
        "of these: importing it gives them their defaults, and the answer's `notes` say which."
    )
    source = ProjectSourceSerializer(
        read_only=True, help_text="Where the export came from; ignored on import."
    )
    project = ProjectDetailsSerializer()

    def validate_format_version(self, version: int) -> int:
        if version not in FORMAT_VERSIONS:
            raise serializers.ValidationError(
                gettext("This site reads format versions %(ours)s; the file is version %(theirs)s.")
                % {"ours": ", ".join(map(str, FORMAT_VERSIONS)), "theirs": version}
            )
        return version


class ProjectImportedSerializer(ProjectSerializer):
    """The imported project, with what the import gave a default because the file left it out."""

    notes = serializers.SerializerMethodField()

    class Meta(ProjectSerializer.Meta):
        fields = (*ProjectSerializer.Meta.fields, "notes")

    def get_notes(self, project) -> list[str]:
        """What the file did not give and the project now has by default (a file of format
        version 1 gives no budget settings, timing or cost lines); empty when it gave all."""
        return self.context.get("notes", [])
