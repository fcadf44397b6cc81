"""The closing paragraphs of "describe this without the diagram": the summary of the bottom
strip, one request against the training, when inference overtakes training and which dominates.

Worded through gettext in the active language; every number through `formatting` (Babel).
"""

from django.utils.translation import gettext as _

from apps.estimates.results import ComparisonResult, EstimateResult, InferenceResult, TrainingResult
from apps.estimates.units import SECONDS_PER_HOUR
from apps.projects.cost_strip import bottom_strip, horizon_text, sentence
from apps.words.formatting import (
    count,
    hours,
    months,
    percent,
    seconds,
)


def summary(result: EstimateResult, currency: str, view: str) -> str:
    strip = bottom_strip(result, currency, view=view)
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


def one_request_against_training(training: TrainingResult, inference: InferenceResult) -> str:
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


def break_even(comparison: ComparisonResult, inference: InferenceResult) -> str:
    horizon = horizon_text(inference)
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
    return sentence(where % {"when": when, "horizon": horizon}, by_cost)


def dominance(comparison: ComparisonResult, inference: InferenceResult) -> str:
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
        "horizon": horizon_text(inference),
        "training": training_share,
        "inference": inference_share,
    }
