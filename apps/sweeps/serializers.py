"""Serializers of the sweep API: the definition a client sends, and what it reads back."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.api.fields import FiniteFloatField, StrictIntegerField
from apps.api.serializers import MODEL_SLUG, StrictSerializer
from apps.exchange.serializers import ExchangeRateSerializer, exchange_rate_representation
from apps.sweeps.definition import MAX_ACCELERATORS, MAX_MODELS, MAX_POINTS, SECTIONS
from apps.sweeps.inputs import SWEEPABLE
from apps.sweeps.metrics import METRICS, RANKINGS
from apps.sweeps.models import Sweep


class VariedInputSerializer(StrictSerializer):
    # The definition refuses a value given twice (apps.sweeps.definition); the schema says so.
    unique_items = ("values",)

    field = serializers.ChoiceField(
        choices=[(path, spec.label) for path, spec in SWEEPABLE.items()],
        help_text="The input's path in the estimate request, e.g. inference.requests_per_month.",
    )
    kind = serializers.ChoiceField(
        choices=(
            ("linear", "evenly spaced from start to stop"),
            ("log", "evenly spaced on a log scale from start to stop (both above 0)"),
            ("list", "the values given"),
        ),
    )
    start = FiniteFloatField(required=False, help_text="First value of a linear or log range.")
    stop = FiniteFloatField(required=False, help_text="Last value of a linear or log range.")
    steps = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=MAX_POINTS,
        help_text="How many values a linear or log range has, start and stop included.",
    )
    values = serializers.ListField(
        child=FiniteFloatField(),
        required=False,
        max_length=MAX_POINTS,
        help_text="The values of a list, each once, in the order the points use them.",
    )


class SweepCreateSerializer(StrictSerializer):
    # The definition refuses a slug given twice (apps.sweeps.definition); the schema says so.
    unique_items = ("accelerators", "models")

    name = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Named after its inputs if empty.",
    )
    inputs = VariedInputSerializer(
        many=True,
        required=False,
        help_text="Inputs to vary, in units of the estimate request (shares as 0–1). Every "
        f"combination is a point; at most {MAX_POINTS} points in all.",
    )
    accelerators = serializers.ListField(
        child=serializers.SlugField(),
        required=False,
        max_length=MAX_ACCELERATORS,
        help_text="Catalogue slugs of accelerators to compare, each one a further axis.",
    )
    accelerator_sections = serializers.ListField(
        child=serializers.ChoiceField(choices=SECTIONS),
        required=False,
        min_length=1,
        help_text="Where the listed accelerators replace the scenario's [every section it has]: "
        "sections it has.",
    )

    models = serializers.ListField(
        child=serializers.RegexField(MODEL_SLUG),
        required=False,
        max_length=MAX_MODELS,
        help_text="Language model slugs to compare (the scenario's inference by tokens), each "
        "one a further axis after the accelerators; each brings its own dimensions.",
    )

    def definition(self) -> dict:
        data = self.validated_data
        return {
            "inputs": [dict(item) for item in data.get("inputs", [])],
            "accelerators": data.get("accelerators", []),
            **({"models": data["models"]} if data.get("models") else {}),
            **(
                {"accelerator_sections": data["accelerator_sections"]}
                if "accelerator_sections" in data
                else {}
            ),
        }


class SweepSerializer(serializers.ModelSerializer):
    scenario = serializers.IntegerField(source="scenario_id", read_only=True)
    percent_done = serializers.IntegerField(read_only=True)
    has_results = serializers.BooleanField(
        read_only=True, help_text="Results of a completed run can be read (stale ones included)."
    )
    currency = serializers.CharField(
        read_only=True,
        help_text="The currency of every amount of the sweep's figures: its project's when the "
        "sweep was made (ISO 4217).",
    )
    exchange_rates = serializers.SerializerMethodField(
        help_text="The rate prices were converted at, pinned when the sweep was made; empty in "
        "US dollars. Varied prices are given in US dollars, as the scenario's inputs are."
    )
    links = serializers.SerializerMethodField()

    class Meta:
        model = Sweep
        fields = (
            "id", "scenario", "name", "status", "definition", "total_points", "points_done",
            "total_chunks", "chunks_done", "percent_done", "chunk_size", "has_results",
            "stale_since", "error", "created_at", "started_at", "finished_at", "currency",
            "exchange_rates", "links",
        )  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(ExchangeRateSerializer(many=True))
    def get_exchange_rates(self, sweep: Sweep) -> list[dict]:
        exchange = sweep.exchange_rate
        return [] if exchange is None else [exchange_rate_representation(exchange)]

    def get_links(self, sweep: Sweep) -> dict[str, str]:
        """The sweep's page and its API endpoints."""
        links = {"page": sweep.get_absolute_url()}
        for name in ("sweep-detail", "sweep-results", "sweep-summary", "sweep-csv", "sweep-cancel"):
            links[name.removeprefix("sweep-")] = reverse(f"api:{name}", args=[sweep.pk])
        links["self"] = links.pop("detail")
        return links


class ConfigurationSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The point's number, 0-based.")
    inputs = serializers.DictField(
        child=serializers.JSONField(),
        help_text='"accelerator" (a slug, when the sweep lists accelerators) and each varied '
        "input's value, by request path.",
    )


class PointSerializer(ConfigurationSerializer):
    figures = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Every figure by name (see the summary for labels and units); null where it "
        "cannot be computed (an embodied_kg_co2e or water_litres figure: not published for "
        "the hardware or the energy profile), or was not computed (the summary's `computed`).",
    )


class ResultsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Points in the sweep.")
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    stale_since = serializers.DateTimeField(allow_null=True)
    results = PointSerializer(many=True)


class FigureSummarySerializer(serializers.Serializer):
    label = serializers.CharField()
    unit = serializers.CharField()
    count = serializers.IntegerField(help_text="Points where the figure can be computed.")
    missing = serializers.IntegerField(help_text="Points where it cannot.")
    min = serializers.FloatField(allow_null=True)
    mean = serializers.FloatField(allow_null=True)
    max = serializers.FloatField(allow_null=True)
    min_at = ConfigurationSerializer(allow_null=True)
    max_at = ConfigurationSerializer(allow_null=True)
    computed = serializers.BooleanField(
        help_text="False: the sweep was computed before this figure was added, so its points "
        "hold none (null in the results, an empty CSV cell); define the sweep again to compute "
        "it."
    )


class SummarySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Sweep.Status.choices)
    stale_since = serializers.DateTimeField(allow_null=True)
    total_points = serializers.IntegerField()
    figures = serializers.DictField(
        child=FigureSummarySerializer(),
        help_text=f"By figure name: {', '.join(metric.name for metric in METRICS)}.",
    )
    rankings = serializers.DictField(
        child=PointSerializer(many=True),
        help_text="The best points, best first: "
        + "; ".join(f"{name} by {a}, then {b}" for name, (a, b) in RANKINGS.items())
        + ".",
    )
