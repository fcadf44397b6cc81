"""The plain-language assumptions behind each section's figures, with the numbers used."""

from apps.estimates.inputs import EnergyProfile, InferenceInput, Pricing, TrainingInput
from apps.estimates.messages import Message, _, g6, number
from apps.estimates.results import ServingResult
from apps.estimates.section_figures import InferenceFigures
from apps.estimates.serving_report import serving_assumptions
from apps.estimates.units import HOURS_PER_MONTH

DEFAULT_TRAINING = TrainingInput(method="parameters_tokens")


def training_assumptions(
    training: TrainingInput, energy: EnergyProfile, flop_known: bool
) -> tuple[Message, ...]:
    notes = []
    if training.method == "parameters_tokens":
        notes.append(
            _(
                "FLOP = %(flop_per_parameter_token)s × parameters × tokens × %(runs)s run(s).",
                flop_per_parameter_token=g6(training.flop_per_parameter_token),
                runs=g6(training.runs),
            )
        )
    elif training.method == "total_flop":
        notes.append(_("Total FLOP given directly."))
    else:
        notes.append(_("Accelerator-hours given directly."))
    efficiency = {"mfu": g6(training.mfu), "goodput": g6(training.goodput)}
    if training.method != "accelerator_hours":
        notes.append(
            _(
                "Accelerator-hours = FLOP ÷ (peak FLOP/s × MFU %(mfu)s × goodput %(goodput)s) "
                "÷ 3,600.",
                **efficiency,
            )
        )
    elif flop_known:
        notes.append(
            _(
                "FLOP = accelerator-hours × 3,600 × peak FLOP/s × MFU %(mfu)s × goodput "
                "%(goodput)s.",
                **efficiency,
            )
        )
    else:
        notes.append(_("FLOP and thresholds not computed: no accelerator was chosen."))
    if flop_known and training.mfu == DEFAULT_TRAINING.mfu:
        notes.append(_default_mfu_note(training))
    notes.append(
        _(
            "Wall-clock = accelerator-hours ÷ %(count)s accelerator(s) working in parallel.",
            count=g6(training.accelerator_count),
        )
    )
    power = None if training.hardware is None else training.hardware.power_watts
    return (*notes, *_pricing_assumptions(training.pricing, energy, power))


def _default_mfu_note(training: TrainingInput) -> Message:
    """Where the default MFU comes from: the effective MFU of four published runs, 6 × N × D ÷
    (dense BF16 peak × published GPU-hours × 3,600), and their geometric mean, which is 0.2523
    (tests/integration/test_calibration.py recomputes it from the calibration table)."""
    return _(
        "MFU %(mfu)s is the default: the geometric mean of the MFU that four published training "
        "runs imply (6 × parameters × tokens ÷ (BF16 peak × the GPU-hours published)): Llama "
        "3.1 8B 0.14, 70B 0.25 and 405B 0.35 on H100 (Meta’s Llama 3.1 model card, July 2024) "
        "and DeepSeek-V3 0.33 on H800 (DeepSeek-V3 technical report, arXiv 2412.19437, December "
        "2024). Small models train at a lower MFU; give your own when you have measured it.",
        mfu=g6(training.mfu),
    )


def _latency_note(method: str) -> Message:
    if method == "given":
        return _("Latency given.")
    if method == "roofline":
        return _(
            "Latency: roofline estimate at batch 1 (prefill limited by compute, each output "
            "token by reading the weights from memory); excludes queueing and network."
        )
    if method == "accelerator_seconds":
        return _(
            "Latency taken as the accelerator-seconds per request (no bandwidth or token "
            "figures for a roofline estimate)."
        )
    return _("Latency: the user's wait in the serving plan where the model fits.")


def _tokens_note(inference: InferenceInput) -> Message:
    return _(
        "Per request: %(output)s output tokens and %(reasoning)s reasoning tokens, both "
        "decoded one by one; %(cached)s of the %(input)s input tokens come from a prefix cache, "
        "so their prefill is skipped while their KV cache is still held in memory.",
        output=g6(inference.output_tokens),
        reasoning=g6(inference.reasoning_tokens),
        cached=g6(inference.cached_input_tokens),
        input=g6(inference.input_tokens),
    )


def inference_assumptions(
    inference: InferenceInput,
    energy: EnergyProfile,
    figures: InferenceFigures,
    serving: ServingResult | None,
) -> tuple[Message, ...]:
    notes = []
    if serving is not None:
        notes.extend(serving_assumptions(inference, serving))
    elif inference.method == "tokens":
        notes.append(
            _(
                "FLOP per request = 2 × active parameters × (input − cached input + output + "
                "reasoning tokens); accelerator-seconds = FLOP ÷ (peak FLOP/s × utilisation "
                "%(utilisation)s).",
                utilisation=g6(inference.utilization),
            )
        )
    if inference.method == "tokens" and (
        inference.reasoning_tokens or inference.cached_input_tokens
    ):
        notes.append(_tokens_note(inference))
    else:
        notes.append(_("Accelerator-seconds per request given directly."))
    notes.append(_latency_note(figures.latency_method))
    notes.append(
        _(
            "Demand: %(requests)s requests in month 1, growing %(growth)s a month, over "
            "%(months)s months; month = %(hours)s hours.",
            requests=g6(inference.requests_per_month),
            growth=number(inference.monthly_growth, "signed_percent"),
            months=int(inference.months),
            hours=g6(HOURS_PER_MONTH),
        )
    )
    if serving is None or not serving.fits:
        notes.append(
            _(
                "Accelerators at peak (Little's law) = peak arrival rate × accelerator-seconds ÷ "
                "target utilisation %(target)s, peak-to-average %(peak)s.",
                target=g6(inference.target_utilization),
                peak=g6(inference.peak_to_average),
            )
        )
    if figures.committed is not None:
        notes.append(
            _(
                "Cost: committed for terms of %(months)s months, the committed accelerators "
                "paid every hour of every term at the price less %(discount)s, whether busy or "
                "not; busy hours beyond what they serve at the target utilisation paid per use "
                "at the full price.",
                months=g6(figures.committed.term_months),
                discount=number(inference.commitment_discount, "percent"),
            )
        )
    else:
        notes.append(
            _("Cost: always-on, accelerators at peak paid every hour of the horizon.")
            if figures.always_on
            else _("Cost: pay-per-use, busy accelerator-hours × price.")
        )
    power = None if inference.hardware is None else inference.hardware.power_watts
    notes.extend(_pricing_assumptions(inference.pricing, energy, power))
    if power is not None:
        notes.append(_("Energy counts busy accelerator-hours only; idle capacity is not included."))
    return tuple(notes)


def missing_price(pricing: Pricing) -> Message | None:
    """Which price is missing, so that training is not priced; None when it has its price."""
    if pricing.mode == "rent" and pricing.price_per_accelerator_hour is None:
        return _(
            "Not priced: no price per accelerator-hour was given and none is known for this "
            "accelerator, so the training has no cost. FLOP, accelerator-hours, wall-clock, "
            "energy and emissions need no price; give a price per accelerator-hour to cost it."
        )
    if pricing.mode == "own" and pricing.purchase_price is None:
        return _(
            "Not priced: no purchase price was given and none is known for this accelerator, "
            "so the training has no cost. FLOP, accelerator-hours, wall-clock, energy and "
            "emissions need no price; give a purchase price to cost it."
        )
    return None


def _pricing_assumptions(
    pricing: Pricing, energy: EnergyProfile, power_watts: object | None
) -> tuple[Message, ...]:
    notes = []
    missing = missing_price(pricing)
    if missing is not None:
        notes.append(missing)
    elif pricing.mode == "rent":
        notes.append(
            _(
                "Rented at %(price)s per accelerator-hour.",
                price=g6(pricing.price_per_accelerator_hour),
            )
        )
    else:
        notes.append(
            _(
                "Owned: purchase price written off over %(years)s years, busy %(busy)s of the "
                "time; excludes financing, staff and buildings.",
                years=g6(pricing.lifetime_years),
                busy=number(pricing.utilization_of_owned, "percent"),
            )
        )
        if power_watts is None or energy.electricity_price_per_kwh is None:
            notes.append(_("Electricity not included in the owned cost: power or price unknown."))
    if power_watts is None:
        notes.append(_("Energy and emissions not computed: the accelerator's power is unknown."))
    else:
        notes.append(
            _(
                "Energy = accelerator-hours × %(watts)s W × PUE %(pue)s.",
                watts=g6(power_watts),
                pue=g6(energy.pue),
            )
        )
        if energy.kg_co2e_per_kwh is None:
            notes.append(_("Emissions not computed: grid carbon intensity unknown."))
    return tuple(notes)
