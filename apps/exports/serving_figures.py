"""The serving block of a scenario's estimate (inference.serving) as export rows with units.

A language model's serving plan: does it fit, what limits the batch, weights, KV cache per token,
the copy of the model (accelerators, tensor parallel, pipeline stages), batch, tokens/s, first
token time, time per token and copies at peak; then why that copy size was used and each size
considered (inference.serving.replica_choice), figure by figure. Read from the estimate response
alone, as the other figures (apps.exports.figures); None where the model fits no replica.
"""

from django.utils.translation import gettext, gettext_lazy, ngettext

from apps.exports.figure_row import FigureRow
from apps.words.messages import message_text

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
# Each copy size considered: (response key, label, unit), as the page's table of them.
REPLICA_CHOICE_SPECS = (
    (
        "accelerators_per_replica",
        gettext_lazy("Accelerators per copy"),
        gettext_lazy("accelerators"),
    ),
    ("fits", gettext_lazy("Fits"), ""),
    ("batch_size", gettext_lazy("Requests served at once"), gettext_lazy("requests")),
    ("output_tokens_per_second", gettext_lazy("Output speed per copy"), gettext_lazy("tokens/s")),
    ("replicas_at_peak", gettext_lazy("Copies at peak"), gettext_lazy("copies")),
    ("meets_targets", gettext_lazy("Meets the latency targets"), ""),
)
LIMITED_BY = {
    "memory": gettext_lazy("memory (the KV cache)"),
    "compute": gettext_lazy("memory; the decode step is compute-bound"),
    "latency_target": gettext_lazy("the latency targets"),
}


def serving_rows(response: dict) -> list[FigureRow]:
    """One row per serving figure, in the API's units; none without a serving plan."""
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
    if serving.get("replica_chosen_because"):
        rows.append(
            FigureRow(
                section=section,
                figure=gettext("Why this copy size"),
                value=message_text(serving["replica_chosen_because"]),
                unit="",
                field=f"{SERVING_PATH}.replica_chosen_because",
            )
        )
    return rows + replica_choice_rows(serving)


def replica_choice_rows(serving: dict) -> list[FigureRow]:
    """Each copy size considered, one row per figure: "2 accelerators per copy (used): Fits"."""
    section = gettext("Inference, copy sizes considered")
    rows = []
    for index, option in enumerate(serving.get("replica_choice") or ()):
        size = option["accelerators_per_replica"]
        if size == serving.get("accelerators_per_replica"):
            name = ngettext(
                "%(count)s accelerator per copy (used)",
                "%(count)s accelerators per copy (used)",
                size,
            )
        else:
            name = ngettext(
                "%(count)s accelerator per copy", "%(count)s accelerators per copy", size
            )
        for key, label, unit in REPLICA_CHOICE_SPECS:
            value = option.get(key)
            if isinstance(value, bool):
                value = gettext("yes") if value else gettext("no")
            rows.append(
                FigureRow(
                    section=section,
                    figure=gettext("%(size)s: %(figure)s")
                    % {"size": name % {"count": size}, "figure": label},
                    value=value,
                    unit=str(unit),
                    field=f"{SERVING_PATH}.replica_choice.{index}.{key}",
                )
            )
    return rows
