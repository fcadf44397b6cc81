"""The plain-language assumptions behind each section's figures, with the numbers used."""

from apps.estimates.inputs import EnergyProfile, InferenceInput, Pricing, TrainingInput
from apps.estimates.results import ServingResult
from apps.estimates.sections import InferenceFigures
from apps.estimates.serving_report import serving_assumptions
from apps.estimates.units import HOURS_PER_MONTH


def _g(value: object) -> str:
    return f"{float(value):,.6g}"


def training_assumptions(
    training: TrainingInput, energy: EnergyProfile, flop_known: bool
) -> tuple[str, ...]:
    notes = []
    if training.method == "parameters_tokens":
        notes.append(
            f"FLOP = {_g(training.flop_per_parameter_token)} × parameters × tokens × "
            f"{_g(training.runs)} run(s)."
        )
    elif training.method == "total_flop":
        notes.append("Total FLOP given directly.")
    else:
        notes.append("Accelerator-hours given directly.")
    efficiency = f"MFU {_g(training.mfu)} × goodput {_g(training.goodput)}"
    if training.method != "accelerator_hours":
        notes.append(f"Accelerator-hours = FLOP ÷ (peak FLOP/s × {efficiency}) ÷ 3,600.")
    elif flop_known:
        notes.append(f"FLOP = accelerator-hours × 3,600 × peak FLOP/s × {efficiency}.")
    else:
        notes.append("FLOP and thresholds not computed: no accelerator was chosen.")
    notes.append(
        f"Wall-clock = accelerator-hours ÷ {_g(training.accelerator_count)} accelerator(s) "
        "working in parallel."
    )
    power = None if training.hardware is None else training.hardware.power_watts
    return (*notes, *_pricing_assumptions(training.pricing, energy, power))


def inference_assumptions(
    inference: InferenceInput,
    energy: EnergyProfile,
    figures: InferenceFigures,
    serving: ServingResult | None,
) -> tuple[str, ...]:
    notes = []
    if serving is not None:
        notes.extend(serving_assumptions(inference, serving))
    elif inference.method == "tokens":
        notes.append(
            "FLOP per request = 2 × active parameters × (input + output tokens); "
            f"accelerator-seconds = FLOP ÷ (peak FLOP/s × utilisation {_g(inference.utilization)})."
        )
    else:
        notes.append("Accelerator-seconds per request given directly.")
    notes.append(
        {
            "given": "Latency given.",
            "roofline": "Latency: roofline estimate at batch 1 (prefill limited by compute, "
            "each output token by reading the weights from memory); excludes queueing and network.",
            "accelerator_seconds": "Latency taken as the accelerator-seconds per request "
            "(no bandwidth or token figures for a roofline estimate).",
            "serving": "Latency: the user's wait in the serving plan where the model fits.",
        }[figures.latency_method]
    )
    notes.append(
        f"Demand: {_g(inference.requests_per_month)} requests in month 1, growing "
        f"{float(inference.monthly_growth):+.2%} a month, over {int(inference.months)} months; "
        f"month = {_g(HOURS_PER_MONTH)} hours."
    )
    if serving is None or not serving.fits:
        notes.append(
            "Accelerators at peak (Little's law) = peak arrival rate × accelerator-seconds ÷ "
            f"target utilisation {_g(inference.target_utilization)}, peak-to-average "
            f"{_g(inference.peak_to_average)}."
        )
    notes.append(
        "Cost: always-on, accelerators at peak paid every hour of the horizon."
        if figures.always_on
        else "Cost: pay-per-use, busy accelerator-hours × price."
    )
    power = None if inference.hardware is None else inference.hardware.power_watts
    notes.extend(_pricing_assumptions(inference.pricing, energy, power))
    if power is not None:
        notes.append("Energy counts busy accelerator-hours only; idle capacity is not included.")
    return tuple(notes)


def _pricing_assumptions(
    pricing: Pricing, energy: EnergyProfile, power_watts: object | None
) -> tuple[str, ...]:
    notes = []
    if pricing.mode == "rent":
        notes.append(f"Rented at {_g(pricing.price_per_accelerator_hour)} per accelerator-hour.")
    else:
        notes.append(
            f"Owned: purchase price written off over {_g(pricing.lifetime_years)} years, busy "
            f"{float(pricing.utilization_of_owned):.0%} of the time; excludes financing, staff "
            "and buildings."
        )
        if power_watts is None or energy.electricity_price_per_kwh is None:
            notes.append("Electricity not included in the owned cost: power or price unknown.")
    if power_watts is None:
        notes.append("Energy and emissions not computed: the accelerator's power is unknown.")
    else:
        notes.append(f"Energy = accelerator-hours × {_g(power_watts)} W × PUE {_g(energy.pue)}.")
        if energy.kg_co2e_per_kwh is None:
            notes.append("Emissions not computed: grid carbon intensity unknown.")
    return tuple(notes)
