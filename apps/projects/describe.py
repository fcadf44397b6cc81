"""The comparison in words: "describe this without the diagram" and the bottom strip's figures."""

from apps.estimates.results import (
    ComparisonResult,
    EstimateResult,
    InferenceResult,
    PerRequest,
    TrainingResult,
)
from apps.estimates.units import SECONDS_PER_HOUR
from apps.projects.formatting import (
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

VIEWS = ("single", "many")

_LATENCY_METHODS = {
    "given": "response time as given",
    "roofline": "roofline estimate at batch 1, excluding queueing and network",
    "accelerator_seconds": "taken as the accelerator time per request",
    "serving": "first token plus every output token at the batch served, excluding network",
}


def _check_view(view: str) -> None:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}.")


def _sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _horizon(inference: InferenceResult) -> str:
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


def _build_cost(training: TrainingResult, currency: str) -> tuple[str, str]:
    """The build cost's figure and what it consists of."""
    accelerator_hours = hours(training.accelerator_hours).text
    if training.cost is None:
        return accelerator_hours, "of training, once"
    return money(training.cost, currency).text, f"{accelerator_hours} of training, once"


def _run_cost(inference: InferenceResult, currency: str, view: str) -> tuple[str, str]:
    per_request = inference.per_request
    if view == "single" or not inference.monthly:
        per_1000 = money(per_request.cost_per_1000, currency).text
        seconds_each = hours(per_request.accelerator_seconds, "accelerator-seconds").text
        return (
            f"{_per_request_cost(per_request, currency)} per request",
            f"{per_1000} per 1,000 requests; {seconds_each} each",
        )
    first = inference.monthly[0]
    cost_when = "in the first month" if _month_cost_varies(inference) else "a month"
    hours_when = "in the first month" if _growing(inference) else "a month"
    return (
        f"{money(first.cost, currency).text} {cost_when}",
        f"{money(inference.total.cost, currency).text} over {_horizon(inference)}; "
        f"{hours(first.accelerator_hours).text} {hours_when}",
    )


def _user_speed(inference: InferenceResult, view: str) -> tuple[str, str]:
    per_request = inference.per_request
    latency = f"{seconds(per_request.latency_seconds).text} a request"
    if view == "single":
        return latency, _LATENCY_METHODS.get(per_request.latency_method, "")
    accelerators = count(inference.peak_accelerators, "accelerators").text
    rate = per_second(inference.peak_requests_per_second).text
    return latency, f"{accelerators} needed at peak ({rate})"


def bottom_strip(
    result: EstimateResult, currency: str = "USD", *, view: str = "many"
) -> dict[str, dict[str, str]]:
    """Build cost, run cost and user speed, each as {"label", "text", "detail"}.

    `view` "single" shows one request (cost and response time per request); "many" shows the
    first month, the horizon and the accelerators needed at peak.
    """
    _check_view(view)
    no_training = ("not in this scenario", "This scenario has no training.")
    no_inference = ("not in this scenario", "This scenario has no inference.")
    training, inference = result.training, result.inference
    build = no_training if training is None else _build_cost(training, currency)
    run = no_inference if inference is None else _run_cost(inference, currency, view)
    speed = no_inference if inference is None else _user_speed(inference, view)
    return {
        key: {"label": label, "text": text, "detail": detail}
        for key, label, (text, detail) in (
            ("build_cost", "Build cost", build),
            ("run_cost", "Run cost", run),
            ("user_speed", "User speed", speed),
        )
    }


def describe(result: EstimateResult, *, currency: str = "USD", view: str = "many") -> list[str]:
    """The "describe this without the diagram" text of seed 000, as paragraphs of plain language.

    Every number comes from `result` through `formatting`, so it carries its unit; figures the
    engine could not compute are left out rather than shown as "not available". `view` "single"
    describes one request; "many" the months of the horizon, the break-even point and the shares.
    """
    _check_view(view)
    training, inference, comparison = result.training, result.inference, result.comparison
    paragraphs = [_what_it_compares(result, view)]
    if training is not None:
        paragraphs.append(_training_column(training, currency))
    if inference is not None:
        paragraphs.append(_inference_column(inference, currency, view))
    paragraphs.append(_summary(result, currency, view))
    if training is not None and inference is not None and view == "single":
        paragraphs.append(_one_request_against_training(training, inference))
    if comparison is not None and inference is not None and view == "many":
        paragraphs.append(_break_even(comparison, inference))
        paragraphs.append(_dominance(comparison, inference))
    return [paragraph for paragraph in paragraphs if paragraph]


def _what_it_compares(result: EstimateResult, view: str) -> str:
    if result.inference is None:
        return (
            "This diagram shows the compute used to train the model. The scenario has no "
            "inference, so there is no continuing cost of using the model to compare."
        )
    strip = (
        "a single request"
        if view == "single"
        else f"many requests over {_horizon(result.inference)}"
    )
    if result.training is None:
        return (
            "This diagram shows the compute used each time the model is used (inference). The "
            "scenario has no training, so there is no one-off cost of building the model to "
            f"compare. The figures at the bottom are for {strip}."
        )
    return (
        "This diagram compares two uses of compute: training, the one-off work of building the "
        "model, on the left, and inference, the repeated work of using it, on the right. Read "
        "each column from top to bottom, then compare the build cost, run cost and user speed "
        f"at the bottom, shown for {strip}."
    )


def _training_column(training: TrainingResult, currency: str) -> str:
    accelerator_hours = hours(training.accelerator_hours).text
    uses = (
        f"This training run uses {accelerator_hours}"
        if training.flop is None
        else f"This training run performs {flop(training.flop).text}, or {accelerator_hours},"
    )
    wall_clock = hours(training.wall_clock_hours, "hours").text
    costs = ""
    if training.cost is not None:
        costs = f"It costs {money(training.cost, currency).text}"
    if training.energy_kwh is not None:
        energy = f"{energy_kwh(training.energy_kwh).text} of energy"
        if training.emissions_kg_co2e is not None:
            energy += f" ({emissions_kg(training.emissions_kg_co2e).text})"
        costs = f"{costs} and uses {energy}" if costs else f"It uses {energy}"
    thresholds = [
        f"It {'exceeds' if threshold.exceeded else 'stays below'} the {threshold.name} "
        f"threshold of {flop(threshold.flop).text}."
        for threshold in training.thresholds
    ]
    return _sentence(
        "On the left, training starts with data, model settings and processing resources. These "
        "enter a training run that repeats many calculations and produces a trained model.",
        f"{uses} and takes {wall_clock} of wall-clock time.",
        f"{costs}." if costs else "",
        *thresholds,
    )


def _inference_column(inference: InferenceResult, currency: str, view: str) -> str:
    per_request = inference.per_request
    uses = hours(per_request.accelerator_seconds, "accelerator-seconds").text
    if per_request.flop is not None:
        uses += f" ({flop(per_request.flop).text})"
    each = (
        f"Each request uses {uses}, the user waits about "
        f"{seconds(per_request.latency_seconds).text} for the answer, and it costs "
        f"{_per_request_cost(per_request, currency)} "
        f"({money(per_request.cost_per_1000, currency).text} per 1,000 requests)"
    )
    if per_request.energy_kwh is not None:
        each += f" and uses {energy_kwh(per_request.energy_kwh).text} of energy"
    each += "."
    opening = (
        "On the right, inference starts with a user request plus the trained model. These enter "
        "one inference step and produce one output."
    )
    if view == "single" or not inference.monthly:
        return _sentence(opening, each, "The pattern repeats for every new request.")
    return _sentence(
        opening, each, _monthly(inference, currency), _horizon_total(inference, currency)
    )


def _monthly(inference: InferenceResult, currency: str) -> str:
    first, last = inference.monthly[0], inference.monthly[-1]
    costs = (
        f"{money(first.cost, currency).text} and {money(last.cost, currency).text}"
        if _month_cost_varies(inference)
        else f"{money(first.cost, currency).text} a month"
    )
    if not _growing(inference):
        return (
            "The pattern repeats for every new request: at "
            f"{count(first.requests, 'requests').text} a month, inference uses "
            f"{hours(first.accelerator_hours).text} a month and costs "
            f"{costs}."
        )
    return (
        "The pattern repeats for every new request: demand goes from "
        f"{count(first.requests, 'requests').text} in the first month to "
        f"{count(last.requests, 'requests').text} in month {last.month}, so inference uses "
        f"{hours(first.accelerator_hours).text} in the first month and "
        f"{hours(last.accelerator_hours).text} in the last, costing {costs}."
    )


def _horizon_total(inference: InferenceResult, currency: str) -> str:
    total = inference.total
    energy = ""
    if total.energy_kwh is not None:
        energy = f", using {energy_kwh(total.energy_kwh).text} of energy"
        if total.emissions_kg_co2e is not None:
            energy += f" ({emissions_kg(total.emissions_kg_co2e).text})"
    accelerators = inference.peak_accelerators
    verb = "is" if accelerators == 1 else "are"
    peak = (
        f"At peak, {count(accelerators, 'accelerators').text} {verb} needed to keep up with "
        f"{per_second(inference.peak_requests_per_second).text}."
        if inference.peak_requests_per_second > 0
        else ""
    )
    return _sentence(
        f"Over {_horizon(inference)} that adds up to {count(total.requests, 'requests').text}, "
        f"{hours(total.accelerator_hours).text} and {money(total.cost, currency).text}{energy}.",
        "Capacity is kept always on, so the cost counts every provisioned hour, busy or idle."
        if _always_on(inference)
        else "",
        peak,
    )


def _summary(result: EstimateResult, currency: str, view: str) -> str:
    strip = bottom_strip(result, currency, view=view)
    build_cost = strip["build_cost"]
    build = f"a build-stage cost of {build_cost['text']} ({build_cost['detail']})"
    if result.inference is None:
        return f"In short, training compute is {build}."
    latency = seconds(result.inference.per_request.latency_seconds).text
    run = (
        f"a continuing run-stage cost of {strip['run_cost']['text']} that affects speed and "
        f"scale; each answer takes about {latency}"
    )
    if result.training is None:
        return f"In short, inference compute is {run}."
    return f"In short, training compute is mainly {build}, while inference compute is {run}."


def _one_request_against_training(training: TrainingResult, inference: InferenceResult) -> str:
    accelerator_seconds = inference.per_request.accelerator_seconds
    if accelerator_seconds <= 0:
        return ""
    requests = training.accelerator_hours * SECONDS_PER_HOUR / accelerator_seconds
    return (
        f"One request uses {hours(accelerator_seconds, 'accelerator-seconds').text} against "
        f"the {hours(training.accelerator_hours).text} of training: it takes about "
        f"{count(requests, 'requests').text} to use as much compute as the training did."
    )


def _break_even(comparison: ComparisonResult, inference: InferenceResult) -> str:
    horizon = _horizon(inference)
    months_to_break_even = comparison.break_even_months
    if months_to_break_even is None:
        return (
            "At this demand, cumulative inference never overtakes the one-off training in "
            "accelerator-hours."
        )
    if months_to_break_even <= 0:
        return "Inference outweighs the one-off training from the start."
    when = months(months_to_break_even).text
    where = "within" if comparison.within_horizon else "beyond"
    by_cost = ""
    months_by_cost = comparison.break_even_months_cost
    if months_by_cost is not None and months(months_by_cost).text != when:
        by_cost = f"Counted in money, it does so after about {months(months_by_cost).text}."
    return _sentence(
        f"Counting accelerator-hours, cumulative inference overtakes the one-off training after "
        f"about {when}, {where} the horizon of {horizon}.",
        by_cost,
    )


def _dominance(comparison: ComparisonResult, inference: InferenceResult) -> str:
    if comparison.training_share is None or comparison.inference_share is None:
        return ""
    training_share = percent(comparison.training_share).text
    inference_share = percent(comparison.inference_share).text
    if training_share == inference_share:
        verdict = "so the two are about equal"
    elif comparison.training_share > comparison.inference_share:
        verdict = "so training dominates the compute estimate"
    else:
        verdict = "so inference dominates the compute estimate"
    return (
        f"Over {_horizon(inference)}, training accounts for {training_share} of the "
        f"accelerator-hours and inference for {inference_share}, {verdict}."
    )
