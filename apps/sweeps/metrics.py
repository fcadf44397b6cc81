"""The figures a sweep stores for every point: the engine's `Figures` and the total cost.

Sweeps computed before a figure was added have no column for it: readers take it as not computed
(apps.sweeps.selectors), never as a figure that cannot be computed.
"""

from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The words of the units a CSV header gives, in the reader's language; symbols and codes (USD,
# FLOP, kWh, kg CO2e, s) are the same in every language.
UNIT_WORDS = {
    "accelerator-hours": _("accelerator-hours"),
    "hours": _("hours"),
    "requests": _("requests"),
    "accelerators": _("accelerators"),
    "months": _("months"),
    "share": _("share"),
    "copies": _("copies"),
    "tokens/s": _("tokens per second"),
}


@dataclass(frozen=True)
class Metric:
    name: str  # a `Figures` field, or "total_cost"
    label: str | Promise
    kind: str  # a `{% figure %}` kind: how the pages format it
    unit: str  # the unit of the stored value, for the API (a machine name) and the CSV header
    term: str  # the glossary term that explains it: its "What is this?" link on the pages

    @property
    def unit_words(self) -> str:
        """The unit as a CSV header names it, in the active language."""
        return str(UNIT_WORDS.get(self.unit, self.unit))


METRICS = (
    Metric("total_cost", _("Total cost (training + inference)"), "money", "USD", "compute"),
    Metric("training_flop", _("Training compute"), "flop", "FLOP", "training-compute"),
    Metric(
        "training_accelerator_hours",
        _("Training accelerator-hours"),
        "hours",
        "accelerator-hours",
        "accelerator-hour",
    ),
    Metric(
        "training_wall_clock_hours", _("Training wall-clock time"), "hours", "hours", "wall-clock"
    ),
    Metric("training_cost", _("Training cost"), "money", "USD", "accelerator-hour"),
    Metric("training_energy_kwh", _("Training energy"), "kwh", "kWh", "energy"),
    Metric("training_emissions_kg_co2e", _("Training emissions"), "co2e", "kg CO2e", "emissions"),
    Metric(
        "training_embodied_kg_co2e",
        _("Training embodied emissions"),
        "embodied",
        "kg CO2e",
        "embodied-emissions",
    ),
    Metric("training_water_litres", _("Training water"), "water", "L", "water"),
    Metric(
        "inference_accelerator_seconds_per_request",
        _("Accelerator time per request"),
        "seconds",
        "s",
        "accelerator-hour",
    ),
    Metric(
        "inference_latency_seconds",
        _("User speed (latency per request)"),
        "seconds",
        "s",
        "latency",
    ),
    Metric(
        "inference_total_requests", _("Requests over the horizon"), "count", "requests", "horizon"
    ),
    Metric(
        "inference_accelerator_hours",
        _("Inference accelerator-hours over the horizon"),
        "hours",
        "accelerator-hours",
        "horizon",
    ),
    Metric("inference_cost", _("Inference cost over the horizon"), "money", "USD", "horizon"),
    Metric("inference_energy_kwh", _("Inference energy over the horizon"), "kwh", "kWh", "energy"),
    Metric(
        "inference_emissions_kg_co2e",
        _("Inference emissions over the horizon"),
        "co2e",
        "kg CO2e",
        "emissions",
    ),
    Metric(
        "inference_embodied_kg_co2e",
        _("Inference embodied emissions over the horizon"),
        "embodied",
        "kg CO2e",
        "embodied-emissions",
    ),
    Metric("inference_water_litres", _("Inference water over the horizon"), "water", "L", "water"),
    Metric(
        "peak_accelerators",
        _("Accelerators needed at peak"),
        "count",
        "accelerators",
        "peak-to-average",
    ),
    Metric("cost_per_request", _("Cost per request"), "money", "USD", "cost-per-request"),
    Metric(
        "break_even_months", _("Break-even (accelerator-hours)"), "months", "months", "break-even"
    ),
    Metric(
        "training_share",
        _("Training share of accelerator-hours"),
        "percent",
        "share",
        "training-compute",
    ),
    Metric(
        "serving_accelerators_per_replica",
        _("Accelerators per copy of the model"),
        "count",
        "accelerators",
        "model-copy",
    ),
    Metric(
        "serving_batch_size", _("Requests served at once per copy"), "count", "requests", "batching"
    ),
    Metric(
        "serving_output_tokens_per_second",
        _("Output speed per copy of the model"),
        "per_second",
        "tokens/s",
        "time-per-output-token",
    ),
    Metric("serving_ttft_seconds", _("Time to first token"), "seconds", "s", "first-token-time"),
    Metric(
        "serving_tpot_seconds", _("Time per output token"), "seconds", "s", "time-per-output-token"
    ),
    Metric(
        "serving_replicas_at_peak",
        _("Copies of the model at peak"),
        "count",
        "copies",
        "model-copy",
    ),
)
METRICS_BY_NAME = {metric.name: metric for metric in METRICS}


def metrics_in(currency: str) -> dict[str, "Metric"]:
    """Every metric by name, its amounts in `currency` (a sweep's: its project's when it was
    made); the stored figures are already in it (apps.sweeps.compute converts the prices)."""
    return {
        name: replace(metric, unit=currency) if metric.kind == "money" else metric
        for name, metric in METRICS_BY_NAME.items()
    }


# The figures the sweep page's table and charts offer; the API and the CSV carry all of them.
TABLE_METRICS = (
    "total_cost",
    "training_cost",
    "inference_cost",
    "inference_latency_seconds",
    "peak_accelerators",
    "cost_per_request",
    "break_even_months",
)
CHART_METRICS = (
    "total_cost",
    "training_cost",
    "inference_cost",
    "cost_per_request",
    "inference_latency_seconds",
    "peak_accelerators",
    "inference_accelerator_hours",
    "training_wall_clock_hours",
    "inference_energy_kwh",
    "inference_emissions_kg_co2e",
    "inference_embodied_kg_co2e",
    "inference_water_litres",
    "break_even_months",
)

# Rankings the summary keeps: by the first figure, ties broken by the second (then by index).
RANKINGS = {
    "cheapest": ("total_cost", "inference_latency_seconds"),
    "fastest_answer": ("inference_latency_seconds", "total_cost"),
    "fastest_training": ("training_wall_clock_hours", "total_cost"),
}
RANKING_LABELS = {
    "cheapest": _("Cheapest configurations (total cost)"),
    "fastest_answer": _("Fastest answers (latency per request)"),
    "fastest_training": _("Fastest training (wall-clock time)"),
}
TOP = 5
