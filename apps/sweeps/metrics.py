"""The figures a sweep stores for every point: the engine's `Figures` and the total cost."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    name: str  # a `Figures` field, or "total_cost"
    label: str
    kind: str  # a `{% figure %}` kind: how the pages format it
    unit: str  # the unit of the stored value, for the API and the CSV header


METRICS = (
    Metric("total_cost", "Total cost (training + inference)", "money", "USD"),
    Metric("training_flop", "Training compute", "flop", "FLOP"),
    Metric(
        "training_accelerator_hours", "Training accelerator-hours", "hours", "accelerator-hours"
    ),
    Metric("training_wall_clock_hours", "Training wall-clock time", "hours", "hours"),
    Metric("training_cost", "Training cost", "money", "USD"),
    Metric("training_energy_kwh", "Training energy", "kwh", "kWh"),
    Metric("training_emissions_kg_co2e", "Training emissions", "co2e", "kg CO2e"),
    Metric(
        "inference_accelerator_seconds_per_request",
        "Accelerator time per request",
        "seconds",
        "s",
    ),
    Metric("inference_latency_seconds", "User speed (latency per request)", "seconds", "s"),
    Metric("inference_total_requests", "Requests over the horizon", "count", "requests"),
    Metric(
        "inference_accelerator_hours",
        "Inference accelerator-hours over the horizon",
        "hours",
        "accelerator-hours",
    ),
    Metric("inference_cost", "Inference cost over the horizon", "money", "USD"),
    Metric("inference_energy_kwh", "Inference energy over the horizon", "kwh", "kWh"),
    Metric("peak_accelerators", "Accelerators needed at peak", "count", "accelerators"),
    Metric("cost_per_request", "Cost per request", "money", "USD"),
    Metric("break_even_months", "Break-even (accelerator-hours)", "months", "months"),
    Metric("training_share", "Training share of accelerator-hours", "percent", "share"),
    Metric(
        "serving_accelerators_per_replica",
        "Accelerators per copy of the model",
        "count",
        "accelerators",
    ),
    Metric("serving_batch_size", "Requests served at once per copy", "count", "requests"),
    Metric(
        "serving_output_tokens_per_second",
        "Output speed per copy of the model",
        "count",
        "tokens/s",
    ),
    Metric("serving_ttft_seconds", "Time to first token", "seconds", "s"),
    Metric("serving_tpot_seconds", "Time per output token", "seconds", "s"),
    Metric("serving_replicas_at_peak", "Copies of the model at peak", "count", "copies"),
)
METRICS_BY_NAME = {metric.name: metric for metric in METRICS}

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
    "break_even_months",
)

# Rankings the summary keeps: by the first figure, ties broken by the second (then by index).
RANKINGS = {
    "cheapest": ("total_cost", "inference_latency_seconds"),
    "fastest_answer": ("inference_latency_seconds", "total_cost"),
    "fastest_training": ("training_wall_clock_hours", "total_cost"),
}
RANKING_LABELS = {
    "cheapest": "Cheapest configurations (total cost)",
    "fastest_answer": "Fastest answers (latency per request)",
    "fastest_training": "Fastest training (wall-clock time)",
}
TOP = 5
