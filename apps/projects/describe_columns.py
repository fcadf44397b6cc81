"""The paragraphs of "describe this without the diagram" on its two columns: what the training
run uses and costs, and what each request and the months of inference use and cost.

Worded through gettext in the active language; every number through `formatting` (Babel).
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.catalogue.names import catalogue_name
from apps.estimates.results import InferenceResult, TrainingResult
from apps.projects.cost_strip import (
    always_on,
    growing,
    horizon_text,
    month_cost_varies,
    per_request_cost,
    sentence,
)
from apps.words.formatting import (
    count,
    emissions_kg,
    energy_kwh,
    flop,
    hours,
    money,
    per_second,
    seconds,
)


def training_column(training: TrainingResult, currency: str) -> str:
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
    return sentence(
        _(
            "On the left, training starts with data, model settings and processing resources. "
            "These enter a training run that repeats many calculations and produces a trained "
            "model."
        ),
        uses % values,
        costs,
        *thresholds,
    )


def inference_column(inference: InferenceResult, currency: str, view: str) -> str:
    per_request = inference.per_request
    uses = hours(per_request.accelerator_seconds, "accelerator-seconds").text
    if per_request.flop is not None:
        uses = _("%(seconds)s (%(flop)s)") % {"seconds": uses, "flop": flop(per_request.flop).text}
    values = {
        "uses": uses,
        "latency": seconds(per_request.latency_seconds).text,
        "cost": per_request_cost(per_request, currency),
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
        return sentence(opening, each % values, _("The pattern repeats for every new request."))
    return sentence(
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
    varies = month_cost_varies(inference)
    if not growing(inference):
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
        "horizon": horizon_text(inference),
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
    return sentence(
        adds_up % values,
        _("Capacity is kept always on, so the cost counts every provisioned hour, busy or idle.")
        if always_on(inference)
        else "",
        peak,
    )
