"""Turn an estimate request (catalogue slugs and numbers) into estimate-engine inputs.

The API and the pages both go through `estimate_input_from_request`, so there is one path from
catalogue rows to the numbers the engine sees. Unknown slugs, precisions an accelerator does not
support and missing prices are reported like any other invalid input, keyed by the request field.

The rows come from the catalogue snapshot each process keeps between requests
(apps.catalogue.snapshot); accelerators and their prices are resolved in
apps.catalogue.resolve_accelerator, language models in apps.catalogue.resolve_model. The
methods a vendor's API prices (external-API inference, fine-tuning through an API) are resolved by
the API price catalogue, which sits above this one and registers them when Django starts it
(`register_api_methods`).
"""

from collections.abc import Callable
from dataclasses import replace

from apps.catalogue.resolution import RequestErrors, Resolution
from apps.catalogue.resolve_accelerator import accelerator_for, pricing_for
from apps.catalogue.resolve_commitment import commitment_for
from apps.catalogue.resolve_model import base_model_for, model_numbers_for
from apps.catalogue.snapshot import DEFAULT_ENERGY_PROFILE, Catalogue
from apps.estimates import EnergyProfile as EngineEnergyProfile
from apps.estimates import (
    EstimateInput,
    EstimateInputError,
    EstimateResult,
    InferenceInput,
    TrainingInput,
    estimate,
)
from apps.estimates.currency import ExchangeRate, converted
from apps.estimates.messages import _, exact
from apps.estimates.units import BYTES_PER_PARAMETER
from apps.estimates.validation import REQUEST_SERVING_NUMBERS, TRAINING_NUMBERS

# The API price catalogue's resolvers, registered by apps.apiprices when Django starts it.
_API_METHODS: dict[str, Callable] = {}


def register_api_methods(
    *,
    external_api: Callable[[dict, RequestErrors, Resolution], InferenceInput],
    api_fine_tune: Callable[[dict], TrainingInput],
) -> None:
    _API_METHODS.update(external_api=external_api, api_fine_tune=api_fine_tune)


INFERENCE_NUMBERS = (
    "accelerator_seconds_per_request",
    "parameters",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
    "utilization",
    "latency_seconds",
    "requests_per_month",
    "monthly_growth",
    "months",
    "peak_to_average",
    "target_utilization",
    "revenue_per_request",
    *REQUEST_SERVING_NUMBERS,
)


def _numbers(data: dict, names: tuple[str, ...]) -> dict:
    return {name: data[name] for name in names if data.get(name) is not None}


def estimate_input_from_request(
    request: dict, catalogue: Catalogue | None = None, exchange: ExchangeRate | None = None
) -> tuple[EstimateInput, Resolution]:
    """Resolve slugs against the catalogue; raise EstimateInputError keyed like the request.
    With `exchange`, every price (the catalogue's and the request's, in US dollars) is converted
    at its rate (apps.estimates.currency)."""
    catalogue = catalogue or Catalogue.load()
    training_data = request.get("training")
    inference_data = request.get("inference")
    resolution = Resolution()
    errors = RequestErrors()

    profile_slug = request.get("energy_profile") or DEFAULT_ENERGY_PROFILE
    profile = catalogue.energy_profiles.get(profile_slug)
    if profile is None and request.get("energy_profile"):
        errors.add(
            "energy_profile",
            _("No energy profile %(slug)s in the catalogue.", slug=repr(profile_slug)),
        )
    resolution.energy_profile = profile
    energy = EngineEnergyProfile(
        pue=request.get("pue") or (profile.pue if profile else 1.0),
        kg_co2e_per_kwh=request.get("kg_co2e_per_kwh")
        if request.get("kg_co2e_per_kwh") is not None
        else (profile.kg_co2e_per_kwh if profile else None),
        electricity_price_per_kwh=request.get("electricity_price_per_kwh")
        if request.get("electricity_price_per_kwh") is not None
        else (
            float(profile.electricity_price_per_kwh)
            if profile and profile.electricity_price_per_kwh is not None
            else None
        ),
        wue_litres_per_kwh=profile.wue_litres_per_kwh if profile else None,
        grid_water_litres_per_kwh=profile.grid_water_litres_per_kwh if profile else None,
    )

    training = None
    if training_data and training_data["method"] == "api_fine_tune":
        training = _API_METHODS["api_fine_tune"](training_data)
    elif training_data:
        accelerator, hardware = accelerator_for(
            "training", training_data, catalogue, errors, resolution
        )
        # An accelerator named but not found has its own error: no second one asking for it.
        if not training_data.get("accelerator") and training_data["method"] != "accelerator_hours":
            errors.add(
                "training.accelerator",
                _("Choose an accelerator: it turns FLOP into accelerator-hours."),
            )
        training = TrainingInput(
            method=training_data["method"],
            hardware=hardware,
            pricing=pricing_for(
                "training", training_data, accelerator, catalogue, errors, resolution
            ),
            **_numbers(training_data, TRAINING_NUMBERS),
        )

    if training is not None:
        base_model = base_model_for(training_data, catalogue, errors, resolution)
        if base_model is not None:
            training = replace(training, base_model=base_model)

    inference = None
    if inference_data and inference_data["method"] == "external_api":
        inference = _API_METHODS["external_api"](inference_data, errors, resolution)
    elif inference_data:
        accelerator, hardware = accelerator_for(
            "inference", inference_data, catalogue, errors, resolution
        )
        precision = inference_data.get("precision", "bf16")
        bytes_per_parameter = inference_data.get("bytes_per_parameter")
        model_numbers = model_numbers_for(inference_data, catalogue, errors, resolution)
        inference = InferenceInput(
            method=inference_data["method"],
            hardware=hardware,
            bytes_per_parameter=float(
                BYTES_PER_PARAMETER[precision]
                if bytes_per_parameter is None
                else bytes_per_parameter
            ),
            provisioning=inference_data.get("provisioning", "pay_per_use"),
            pricing=pricing_for(
                "inference", inference_data, accelerator, catalogue, errors, resolution
            ),
            **model_numbers,
            **_numbers(inference_data, INFERENCE_NUMBERS),
            **commitment_for(inference_data, catalogue, errors, resolution),
        )

    errors.raise_if_any()
    thresholds = catalogue.engine_thresholds if training else ()
    inputs = EstimateInput(
        training=training, inference=inference, energy=energy, thresholds=thresholds
    )
    if exchange is None or exchange.is_identity:
        return inputs, resolution
    for section, given in (("training", training), ("inference", inference)):
        if given is not None:
            # Beside the prices the notes quote in their own currency: what they became.
            resolution.note(
                section,
                _(
                    "Prices in %(source)s converted into %(target)s at %(rate)s %(target)s "
                    "per %(source)s.",
                    source=exchange.from_currency,
                    target=exchange.to_currency,
                    rate=exact(exchange.rate),
                ),
            )
    return converted(inputs, exchange), resolution


def request_key(engine_key: str) -> str:
    """Map an engine error key onto the request field a person or integrator typed."""
    section, _, rest = engine_key.partition(".")
    if section == "energy":
        return rest or "energy_profile"
    if rest.startswith("pricing.mode"):
        return f"{section}.pricing_mode"
    if rest.startswith("pricing."):
        return f"{section}.{rest.removeprefix('pricing.')}"
    if rest.startswith("hardware"):
        return f"{section}.accelerator"
    return engine_key


def estimate_from_request(
    request: dict, catalogue: Catalogue | None = None, exchange: ExchangeRate | None = None
) -> tuple[EstimateResult, Resolution]:
    """Resolve and estimate; every error is keyed by the request field it is about."""
    try:
        inputs, resolution = estimate_input_from_request(request, catalogue, exchange)
        return estimate(inputs), resolution
    except EstimateInputError as error:
        remapped: dict[str, list[str]] = {}
        for key, messages in error.errors.items():
            remapped.setdefault(request_key(key), []).extend(messages)
        raise EstimateInputError(remapped) from None
