"""The bottom strip under the comparison (build cost, run cost and user speed) and what the
comparison's words share: the two views, how the latency is worked out, the horizon in months,
whether demand grows and whether capacity is always on.

Worded through gettext in the active language; every number through `formatting` (Babel). The
paragraphs of "describe this without the diagram" are in apps.projects.describe.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.estimates.results import EstimateResult, InferenceResult, PerRequest, TrainingResult
from apps.words.formatting import (
    count,
    hours,
    money,
    months,
    per_second,
    seconds,
)

VIEWS = ("single", "many")

# How the latency is worked out, by the response's latency_method.
LATENCY_METHODS = {
    "given": gettext_lazy("response time as given"),
    "roofline": gettext_lazy("roofline estimate at batch 1, excluding queueing and network"),
    "accelerator_seconds": gettext_lazy("taken as the accelerator time per request"),
    "serving": gettext_lazy(
        "first token plus every output token at the batch served, excluding network"
    ),
    "not_published": gettext_lazy("not published by the API's provider"),
}


def check_view(view: str) -> None:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}.")


def sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def horizon_text(inference: InferenceResult) -> str:
    return months(len(inference.monthly)).text


def growing(inference: InferenceResult) -> bool:
    return inference.monthly[0].requests != inference.monthly[-1].requests


def month_cost_varies(inference: InferenceResult) -> bool:
    # Always-on capacity costs the same every month even when demand grows.
    return inference.monthly[0].cost != inference.monthly[-1].cost


def always_on(inference: InferenceResult) -> bool:
    total = inference.total
    return total.cost == total.always_on_cost != total.pay_per_use_cost


def per_request_cost(per_request: PerRequest, currency: str) -> str:
    return money(per_request.precise_cost, currency).text


def _build_cost(training: TrainingResult, currency: str) -> tuple[str, str]:
    """The build cost's figure and what it consists of."""
    accelerator_hours = hours(training.accelerator_hours).text
    if training.cost is None and training.cost_note:
        return accelerator_hours, _("of training, once; not priced: no price is known")
    if training.cost is None:
        return accelerator_hours, _("of training, once")
    return money(training.cost, currency).text, _("%(hours)s of training, once") % {
        "hours": accelerator_hours
    }


def _run_cost(inference: InferenceResult, currency: str, view: str) -> tuple[str, str]:
    per_request = inference.per_request
    if view == "single" or not inference.monthly:
        per_1000 = money(per_request.cost_per_1000, currency).text
        seconds_each = hours(per_request.accelerator_seconds, "accelerator-seconds").text
        return (
            _("%(cost)s per request") % {"cost": per_request_cost(per_request, currency)},
            _("%(cost)s per 1,000 requests; %(seconds)s each")
            % {"cost": per_1000, "seconds": seconds_each},
        )
    first = inference.monthly[0]
    values = {
        "cost": money(first.cost, currency).text,
        "hours": hours(first.accelerator_hours).text,
    }
    text = (
        _("%(cost)s in the first month") if month_cost_varies(inference) else _("%(cost)s a month")
    ) % values
    detail = {
        "total": money(inference.total.cost, currency).text,
        "horizon": horizon_text(inference),
        "hours": values["hours"],
    }
    if growing(inference):
        return text, _("%(total)s over %(horizon)s; %(hours)s in the first month") % detail
    return text, _("%(total)s over %(horizon)s; %(hours)s a month") % detail


def _user_speed(inference: InferenceResult, view: str) -> tuple[str, str]:
    per_request = inference.per_request
    latency = _("%(seconds)s a request") % {"seconds": seconds(per_request.latency_seconds).text}
    if view == "single":
        method = LATENCY_METHODS.get(per_request.latency_method, "")
        return latency, str(method)
    accelerators = count(inference.peak_accelerators, "accelerators").text
    rate = per_second(inference.peak_requests_per_second).text
    return latency, _("%(accelerators)s needed at peak (%(rate)s)") % {
        "accelerators": accelerators,
        "rate": rate,
    }


def bottom_strip(
    result: EstimateResult, currency: str = "USD", *, view: str = "many"
) -> dict[str, dict[str, str]]:
    """Build cost, run cost and user speed, each as {"label", "text", "detail"}.

    `view` "single" shows one request (cost and response time per request); "many" shows the
    first month, the horizon and the accelerators needed at peak.
    """
    check_view(view)
    no_training = (_("not in this scenario"), _("This scenario has no training."))
    no_inference = (_("not in this scenario"), _("This scenario has no inference."))
    training, inference = result.training, result.inference
    build = no_training if training is None else _build_cost(training, currency)
    run = no_inference if inference is None else _run_cost(inference, currency, view)
    speed = no_inference if inference is None else _user_speed(inference, view)
    return {
        key: {"label": label, "text": text, "detail": detail}
        for key, label, (text, detail) in (
            ("build_cost", _("Build cost"), build),
            ("run_cost", _("Run cost"), run),
            ("user_speed", _("User speed"), speed),
        )
    }
