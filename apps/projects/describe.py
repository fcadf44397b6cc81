"""The comparison in words, in the active language: the bottom strip under the diagram (build
cost, run cost and user speed) and "describe this without the diagram", paragraph by paragraph:
what the diagram compares, its two columns, the summary of the strip, and then one request
against the training, when inference overtakes training and which dominates.

Worded through gettext; every number through `formatting` (Babel), so it is written, and its unit
inflected, as that language does.
"""

from django.utils.translation import gettext_lazy

from apps.catalogue.names import catalogue_name
from apps.estimates.results import (
    ComparisonResult,
    EstimateResult,
    InferenceResult,
    PerRequest,
    TrainingResult,
)
from apps.estimates.units import SECONDS_PER_HOUR
from apps.words.formatting import (
    count,
    emissions_kg,
    energy_kwh,
    flop,
    hours,
    money,
    months,
    per_second,
    percent,
    seconds,
)
from apps.words.language import gettext as _
from apps.words.language import ngettext

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


def describe(
    result: EstimateResult,
    *,
    currency: str = "USD",
    view: str = "many",
    strip: dict[str, dict[str, str]] | None = None,
) -> list[str]:
    """The "describe this without the diagram" text of the worked example of the UN Learn AI
    glossary, as paragraphs of plain language in the active language.

    Every number comes from `result` through `formatting`, so it carries its unit; figures the
    engine could not compute are left out rather than shown as "not available". `view` "single"
    describes one request; "many" the months of the horizon, the break-even point and the shares.
    `strip` is the bottom strip of the same result, currency and view, when the caller has it.
    """
    _check_view(view)
    training, inference, comparison = result.training, result.inference, result.comparison
    paragraphs = [_what_it_compares(result, view)]
    if training is not None:
        paragraphs.append(_training_column(training, currency))
    if inference is not None:
        paragraphs.append(_inference_column(inference, currency, view))
    paragraphs.append(_summary(result, strip or bottom_strip(result, currency, view=view)))
    if training is not None and inference is not None and view == "single":
        paragraphs.append(_one_request_against_training(training, inference))
    if comparison is not None and inference is not None and view == "many":
        paragraphs.append(_break_even(comparison, inference))
        paragraphs.append(_dominance(comparison, inference))
    return [paragraph for paragraph in paragraphs if paragraph]


def _what_it_compares(result: EstimateResult, view: str) -> str:
    if result.inference is None:
        return _(
            "This diagram shows the compute used to train the model. The scenario has no "
            "inference, so there is no continuing cost of using the model to compare."
        )
    strip = (
        _("a single request")
        if view == "single"
        else _("many requests over %(horizon)s") % {"horizon": _horizon_text(result.inference)}
    )
    if result.training is None:
        return _(
            "This diagram shows the compute used each time the model is used (inference). The "
            "scenario has no training, so there is no one-off cost of building the model to "
            "compare. The figures at the bottom are for %(strip)s."
        ) % {"strip": strip}
    return _(
        "This diagram compares two uses of compute: training, the one-off work of building the "
        "model, on the left, and inference, the repeated work of using it, on the right. Read "
        "each column from top to bottom, then compare the build cost, run cost and user speed "
        "at the bottom, shown for %(strip)s."
    ) % {"strip": strip}


def bottom_strip(
    result: EstimateResult, currency: str = "USD", *, view: str = "many"
) -> dict[str, dict[str, str]]:
    """Build cost, run cost and user speed, each as {"label", "text", "detail"}.

    `view` "single" shows one request (cost and response time per request); "many" shows the
    first month, the horizon and the accelerators needed at peak.
    """
    _check_view(view)
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
            _("%(cost)s per request") % {"cost": _per_request_cost(per_request, currency)},
            _("%(cost)s per 1,000 requests; %(seconds)s each")
            % {"cost": per_1000, "seconds": seconds_each},
        )
    first = inference.monthly[0]
    values = {
        "cost": money(first.cost, currency).text,
        "hours": hours(first.accelerator_hours).text,
    }
    text = (
        _("%(cost)s in the first month") if _month_cost_varies(inference) else _("%(cost)s a month")
    ) % values
    detail = {
        "total": money(inference.total.cost, currency).text,
        "horizon": _horizon_text(inference),
        "hours": values["hours"],
    }
    if _growing(inference):
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


def _training_column(training: TrainingResult, currency: str) -> str:
    values = {
        "hours": hours(training.accelerator_hours).text,
        "wall_clock": hours(training.wall_clock_hours, "hours").text,
    }
    if training.flop is None:
        uses = _("This training run uses %(hours)s and takes %(wall_clock)s of wall-clock time.")
    else:
        values["flop"] = flop(training.flop).text
        uses = _(
            "This training run performs %(flop)s, or %(hours)s, and takes %(wall_clock)s of "
            "wall-clock time."
        )
    costs = ""
    cost = money(training.cost, currency).text if training.cost is not None else None
    if training.energy_kwh is not None:
        energy = energy_kwh(training.energy_kwh).text
        if training.emissions_kg_co2e is not None:
            emissions = emissions_kg(training.emissions_kg_co2e).text
            costs = (
                _("It costs %(cost)s and uses %(energy)s of energy (%(emissions)s).")
                if cost
                else _("It uses %(energy)s of energy (%(emissions)s).")
            ) % {"cost": cost, "energy": energy, "emissions": emissions}
        else:
            costs = (
                _("It costs %(cost)s and uses %(energy)s of energy.")
                if cost
                else _("It uses %(energy)s of energy.")
            ) % {"cost": cost, "energy": energy}
    elif cost:
        costs = _("It costs %(cost)s.") % {"cost": cost}
    thresholds = [
        (
            _("It exceeds the %(name)s threshold of %(flop)s.")
            if threshold.exceeded
            else _("It stays below the %(name)s threshold of %(flop)s.")
        )
        % {"name": catalogue_name(threshold.name), "flop": flop(threshold.flop).text}
        for threshold in training.thresholds
    ]
    return _sentence(
        _(
            "On the left, training starts with data, model settings and processing resources. "
            "These enter a training run that repeats many calculations and produces a trained "
            "model."
        ),
        uses % values,
        costs,
        *thresholds,
    )


def _inference_column(inference: InferenceResult, currency: str, view: str) -> str:
    per_request = inference.per_request
    uses = hours(per_request.accelerator_seconds, "accelerator-seconds").text
    if per_request.flop is not None:
        uses = _("%(seconds)s (%(flop)s)") % {"seconds": uses, "flop": flop(per_request.flop).text}
    values = {
        "uses": uses,
        "latency": seconds(per_request.latency_seconds).text,
        "cost": _per_request_cost(per_request, currency),
        "per_1000": money(per_request.cost_per_1000, currency).text,
    }
    if per_request.energy_kwh is not None:
        values["energy"] = energy_kwh(per_request.energy_kwh).text
        each = _(
            "Each request uses %(uses)s, the user waits about %(latency)s for the answer, and "
            "it costs %(cost)s (%(per_1000)s per 1,000 requests) and uses %(energy)s of energy."
        )
    else:
        each = _(
            "Each request uses %(uses)s, the user waits about %(latency)s for the answer, and "
            "it costs %(cost)s (%(per_1000)s per 1,000 requests)."
        )
    opening = _(
        "On the right, inference starts with a user request plus the trained model. These "
        "enter one inference step and produce one output."
    )
    if view == "single" or not inference.monthly:
        return _sentence(opening, each % values, _("The pattern repeats for every new request."))
    return _sentence(
        opening, each % values, _monthly(inference, currency), _horizon_total(inference, currency)
    )


def _monthly(inference: InferenceResult, currency: str) -> str:
    first, last = inference.monthly[0], inference.monthly[-1]
    values = {
        "first_cost": money(first.cost, currency).text,
        "last_cost": money(last.cost, currency).text,
        "first_requests": count(first.requests, "requests").text,
        "last_requests": count(last.requests, "requests").text,
        "first_hours": hours(first.accelerator_hours).text,
        "last_hours": hours(last.accelerator_hours).text,
        "month": last.month,
    }
    varies = _month_cost_varies(inference)
    if not _growing(inference):
        if varies:
            text = _(
                "The pattern repeats for every new request: at %(first_requests)s a month, "
                "inference uses %(first_hours)s a month and costs %(first_cost)s and "
                "%(last_cost)s."
            )
        else:
            text = _(
                "The pattern repeats for every new request: at %(first_requests)s a month, "
                "inference uses %(first_hours)s a month and costs %(first_cost)s a month."
            )
    elif varies:
        text = _(
            "The pattern repeats for every new request: demand goes from %(first_requests)s in "
            "the first month to %(last_requests)s in month %(month)s, so inference uses "
            "%(first_hours)s in the first month and %(last_hours)s in the last, costing "
            "%(first_cost)s and %(last_cost)s."
        )
    else:
        text = _(
            "The pattern repeats for every new request: demand goes from %(first_requests)s in "
            "the first month to %(last_requests)s in month %(month)s, so inference uses "
            "%(first_hours)s in the first month and %(last_hours)s in the last, costing "
            "%(first_cost)s a month."
        )
    return text % values


def _horizon_total(inference: InferenceResult, currency: str) -> str:
    total = inference.total
    values = {
        "horizon": _horizon_text(inference),
        "requests": count(total.requests, "requests").text,
        "hours": hours(total.accelerator_hours).text,
        "cost": money(total.cost, currency).text,
    }
    if total.energy_kwh is None:
        adds_up = _("Over %(horizon)s that adds up to %(requests)s, %(hours)s and %(cost)s.")
    elif total.emissions_kg_co2e is None:
        values["energy"] = energy_kwh(total.energy_kwh).text
        adds_up = _(
            "Over %(horizon)s that adds up to %(requests)s, %(hours)s and %(cost)s, using "
            "%(energy)s of energy."
        )
    else:
        values["energy"] = energy_kwh(total.energy_kwh).text
        values["emissions"] = emissions_kg(total.emissions_kg_co2e).text
        adds_up = _(
            "Over %(horizon)s that adds up to %(requests)s, %(hours)s and %(cost)s, using "
            "%(energy)s of energy (%(emissions)s)."
        )
    accelerators = inference.peak_accelerators
    peak = (
        ngettext(
            "At peak, %(accelerators)s is needed to keep up with %(rate)s.",
            "At peak, %(accelerators)s are needed to keep up with %(rate)s.",
            1 if accelerators == 1 else 2,
        )
        % {
            "accelerators": count(accelerators, "accelerators").text,
            "rate": per_second(inference.peak_requests_per_second).text,
        }
        if inference.peak_requests_per_second > 0
        else ""
    )
    return _sentence(
        adds_up % values,
        _committed(inference, currency)
        if inference.commitment is not None
        else _(
            "Capacity is kept always on, so the cost counts every provisioned hour, busy or idle."
        )
        if _always_on(inference)
        else "",
        peak,
    )


def _committed(inference: InferenceResult, currency: str) -> str:
    commitment = inference.commitment
    return _(
        "Capacity is committed for terms of %(term)s at %(discount)s off on demand and paid "
        "whether used or not: %(idle)s of it is left idle."
    ) % {
        "term": months(commitment.term_months).text,
        "discount": percent(commitment.discount).text,
        "idle": money(commitment.idle_cost, currency).text,
    }


def _summary(result: EstimateResult, strip: dict[str, dict[str, str]]) -> str:
    build_cost = strip["build_cost"]
    values = {
        "build": build_cost["text"],
        "build_detail": build_cost["detail"],
        "run": strip["run_cost"]["text"],
    }
    if result.inference is None:
        return (
            _("In short, training compute is a build-stage cost of %(build)s (%(build_detail)s).")
            % values
        )
    values["latency"] = seconds(result.inference.per_request.latency_seconds).text
    if result.training is None:
        return (
            _(
                "In short, inference compute is a continuing run-stage cost of %(run)s that "
                "affects speed and scale; each answer takes about %(latency)s."
            )
            % values
        )
    return (
        _(
            "In short, training compute is mainly a build-stage cost of %(build)s "
            "(%(build_detail)s), while inference compute is a continuing run-stage cost of "
            "%(run)s that affects speed and scale; each answer takes about %(latency)s."
        )
        % values
    )


def _one_request_against_training(training: TrainingResult, inference: InferenceResult) -> str:
    accelerator_seconds = inference.per_request.accelerator_seconds
    if accelerator_seconds <= 0:
        return ""
    requests = training.accelerator_hours * SECONDS_PER_HOUR / accelerator_seconds
    return _(
        "One request uses %(seconds)s against the %(hours)s of training: it takes about "
        "%(requests)s to use as much compute as the training did."
    ) % {
        "seconds": hours(accelerator_seconds, "accelerator-seconds").text,
        "hours": hours(training.accelerator_hours).text,
        "requests": count(requests, "requests").text,
    }


def _break_even(comparison: ComparisonResult, inference: InferenceResult) -> str:
    horizon = _horizon_text(inference)
    months_to_break_even = comparison.break_even_months
    if months_to_break_even is None:
        return _(
            "At this demand, cumulative inference never overtakes the one-off training in "
            "accelerator-hours."
        )
    if months_to_break_even <= 0:
        return _("Inference outweighs the one-off training from the start.")
    when = months(months_to_break_even).text
    by_cost = ""
    months_by_cost = comparison.break_even_months_cost
    if months_by_cost is not None and months(months_by_cost).text != when:
        by_cost = _("Counted in money, it does so after about %(months)s.") % {
            "months": months(months_by_cost).text
        }
    where = (
        _(
            "Counting accelerator-hours, cumulative inference overtakes the one-off training "
            "after about %(when)s, within the horizon of %(horizon)s."
        )
        if comparison.within_horizon
        else _(
            "Counting accelerator-hours, cumulative inference overtakes the one-off training "
            "after about %(when)s, beyond the horizon of %(horizon)s."
        )
    )
    return _sentence(where % {"when": when, "horizon": horizon}, by_cost)


def _dominance(comparison: ComparisonResult, inference: InferenceResult) -> str:
    if comparison.training_share is None or comparison.inference_share is None:
        return ""
    training_share = percent(comparison.training_share).text
    inference_share = percent(comparison.inference_share).text
    if training_share == inference_share:
        text = _(
            "Over %(horizon)s, training accounts for %(training)s of the accelerator-hours and "
            "inference for %(inference)s, so the two are about equal."
        )
    elif comparison.training_share > comparison.inference_share:
        text = _(
            "Over %(horizon)s, training accounts for %(training)s of the accelerator-hours and "
            "inference for %(inference)s, so training dominates the compute estimate."
        )
    else:
        text = _(
            "Over %(horizon)s, training accounts for %(training)s of the accelerator-hours and "
            "inference for %(inference)s, so inference dominates the compute estimate."
        )
    return text % {
        "horizon": _horizon_text(inference),
        "training": training_share,
        "inference": inference_share,
    }


def _check_view(view: str) -> None:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}.")


def _sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _horizon_text(inference: InferenceResult) -> str:
    return months(len(inference.monthly)).text


def _growing(inference: InferenceResult) -> bool:
    return inference.monthly[0].requests != inference.monthly[-1].requests


def _month_cost_varies(inference: InferenceResult) -> bool:
    # Always-on capacity costs the same every month even when demand grows.
    return inference.monthly[0].cost != inference.monthly[-1].cost


def _always_on(inference: InferenceResult) -> bool:
    total = inference.total
    return total.cost == total.always_on_cost != total.pay_per_use_cost


def _per_request_cost(per_request: PerRequest, currency: str) -> str:
    return money(per_request.precise_cost, currency).text
