"""The serving block of a scenario's estimate (inference.serving) as export rows with units.

A language model's serving plan: does it fit, what limits the batch, weights, KV cache per token,
the copy of the model (accelerators, tensor parallel, pipeline stages), batch, tokens/s, first
token time, time per token and copies at peak. Read from the estimate response alone, as the
other figures (apps.exports.figures); None where the model fits no replica.
"""

from django.utils.translation import gettext, gettext_lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from apps.exports.figures import FigureRow

SERVING_PATH = "inference.serving"

# (response key, label, unit)
SERVING_SPECS = (
    ("fits", gettext_lazy("The model fits the accelerators"), ""),
    ("limited_by", gettext_lazy("What limits the batch"), ""),
    ("weights_gb", gettext_lazy("Weights"), gettext_lazy("GB")),
    ("kv_cache_bytes_per_token", gettext_lazy("KV cache per token"), gettext_lazy("bytes")),
    (
        "accelerators_per_replica",
        gettext_lazy("Accelerators per copy of the model"),
        gettext_lazy("accelerators"),
    ),
    ("tensor_parallel", gettext_lazy("Tensor parallel degree"), gettext_lazy("accelerators")),
    ("pipeline_parallel", gettext_lazy("Pipeline stages"), gettext_lazy("stages")),
    (
        "kv_cache_capacity_tokens",
        gettext_lazy("KV cache room per copy of the model"),
        gettext_lazy("tokens"),
    ),
    (
        "max_concurrent_requests",
        gettext_lazy("Most requests at once per copy (memory)"),
        gettext_lazy("requests"),
    ),
    ("batch_size", gettext_lazy("Requests decoding together (batch)"), gettext_lazy("requests")),
    (
        "output_tokens_per_second",
        gettext_lazy("Output speed per copy of the model"),
        gettext_lazy("tokens/s"),
    ),
    (
        "requests_per_second",
        gettext_lazy("Requests per second per copy of the model"),
        gettext_lazy("requests/s"),
    ),
    ("ttft_seconds", gettext_lazy("Time to first token"), gettext_lazy("seconds")),
    ("tpot_seconds", gettext_lazy("Time per output token"), gettext_lazy("seconds")),
    ("replicas_at_peak", gettext_lazy("Copies of the model at peak"), gettext_lazy("copies")),
)
LIMITED_BY = {
    "memory": gettext_lazy("memory (the KV cache)"),
    "compute": gettext_lazy("memory; the decode step is compute-bound"),
    "latency_target": gettext_lazy("the latency targets"),
}


def serving_rows(response: dict) -> list["FigureRow"]:
    """One row per serving figure, in the API's units; none without a serving plan."""
    from apps.exports.figures import FigureRow

    serving = (response.get("inference") or {}).get("serving")
    if not serving:
        return []
    section = gettext("Inference, serving the model")
    rows = []
    for key, label, unit in SERVING_SPECS:
        value = serving.get(key)
        if key == "fits":
            value = gettext("yes") if value else gettext("no")
        elif key == "limited_by" and serving.get("fits"):
            value = str(LIMITED_BY.get(value, value))
        elif key == "limited_by":
            value = gettext("the model does not fit: no copy of it can run")
        rows.append(
            FigureRow(
                section=section,
                figure=str(label),
                value=value,
                unit=str(unit),
                field=f"{SERVING_PATH}.{key}",
            )
        )
    return rows
