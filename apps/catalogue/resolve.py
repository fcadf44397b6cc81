"""Turn an estimate request (catalogue slugs and numbers) into estimate-engine inputs.

The API and the pages both go through `estimate_input_from_request`, so there is one path from
catalogue rows to the numbers the engine sees. Unknown slugs, precisions an accelerator does not
support and missing prices are reported like any other invalid input, keyed by the request field.
"""

from dataclasses import dataclass, field
from decimal import Decimal
from statistics import median

from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile, PriceOffer
from apps.estimates import EnergyProfile as EngineEnergyProfile
from apps.estimates import (
    EstimateInput,
    EstimateInputError,
    EstimateResult,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
)
from apps.estimates.units import BYTES_PER_PARAMETER, TERA

DEFAULT_ENERGY_PROFILE = "world-average-grid-industry-pue"
DEFAULT_LIFETIME_YEARS = 5.0

TRAINING_NUMBERS = (
    "parameters",
    "tokens",
    "flop_per_parameter_token",
    "runs",
    "total_flop",
    "accelerator_hours",
    "accelerator_count",
    "mfu",
    "goodput",
)
INFERENCE_NUMBERS = (
    "accelerator_seconds_per_request",
    "parameters",
    "input_tokens",
    "output_tokens",
    "utilization",
    "latency_seconds",
    "requests_per_month",
    "monthly_growth",
    "months",
    "peak_to_average",
    "target_utilization",
    "revenue_per_request",
)


@dataclass
class Resolution:
    """The catalogue rows an estimate used, and plain-language notes on where figures came from."""

    accelerators: dict[str, Accelerator] = field(default_factory=dict)
    energy_profile: EnergyProfile | None = None
    notes: dict[str, list[str]] = field(default_factory=dict)

    def note(self, section: str, text: str) -> None:
        self.notes.setdefault(section, []).append(text)


class _Errors:
    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, key: str, message: str) -> None:
        self.errors.setdefault(key, []).append(message)

    def raise_if_any(self) -> None:
        if self.errors:
            raise EstimateInputError(self.errors)


def _hardware(accelerator: Accelerator, precision: str) -> Hardware:
    peak_tflops = accelerator.peak_tflops(precision)
    return Hardware(
        peak_flops_per_second=peak_tflops * TERA,
        memory_bandwidth_bytes_per_second=accelerator.memory_bandwidth_tbps * TERA,
        power_watts=accelerator.power_watts,
    )


def _median_price(offers: list[PriceOffer], attribute: str) -> Decimal | None:
    prices = [getattr(offer, attribute) for offer in offers]
    prices = [price for price in prices if price is not None]
    return Decimal(median(prices)).quantize(Decimal("0.0001")) if prices else None


def _pricing(
    section: str,
    data: dict,
    accelerator: Accelerator | None,
    errors: _Errors,
    resolution: Resolution,
) -> Pricing:
    mode = data.get("pricing_mode", "rent")
    offers = list(accelerator.price_offers.all()) if accelerator else []
    if mode == "rent":
        price = data.get("price_per_accelerator_hour")
        if price is None:
            rents = [o for o in offers if o.kind == PriceOffer.Kind.RENT]
            price = _median_price(rents, "price_per_accelerator_hour")
            if price is None:
                errors.add(
                    f"{section}.price_per_accelerator_hour",
                    "Give a price per accelerator-hour: the catalogue has no rental price "
                    + (f"for {accelerator}." if accelerator else "without an accelerator."),
                )
                return Pricing(mode="rent")
            resolution.note(
                section,
                f"Price {price} USD per accelerator-hour: the median of {len(rents)} rental "
                f"offers for {accelerator} in the catalogue.",
            )
        return Pricing(mode="rent", price_per_accelerator_hour=float(price))
    purchase_price = data.get("purchase_price")
    lifetime = data.get("lifetime_years")
    if purchase_price is None:
        purchases = [o for o in offers if o.kind == PriceOffer.Kind.PURCHASE]
        purchase_price = _median_price(purchases, "purchase_price")
        if purchase_price is None:
            errors.add(
                f"{section}.purchase_price",
                "Give a purchase price: the catalogue has no purchase price "
                + (f"for {accelerator}." if accelerator else "without an accelerator."),
            )
            return Pricing(mode="own")
        lifetimes = [o.lifetime_years for o in purchases if o.lifetime_years]
        if lifetime is None and lifetimes:
            lifetime = median(lifetimes)
        resolution.note(
            section,
            f"Purchase price {purchase_price} USD per accelerator: the median of "
            f"{len(purchases)} purchase prices for {accelerator} in the catalogue.",
        )
    return Pricing(
        mode="own",
        purchase_price=float(purchase_price),
        lifetime_years=float(lifetime if lifetime is not None else DEFAULT_LIFETIME_YEARS),
        utilization_of_owned=data.get("utilization_of_owned", 0.7),
    )


def _accelerator_for(
    section: str, data: dict, accelerators: dict[str, Accelerator], errors: _Errors
) -> tuple[Accelerator | None, Hardware | None]:
    slug = data.get("accelerator")
    if not slug:
        return None, None
    accelerator = accelerators.get(slug)
    if accelerator is None:
        errors.add(f"{section}.accelerator", f"No accelerator {slug!r} in the catalogue.")
        return None, None
    precision = data.get("precision", "bf16")
    if accelerator.peak_tflops(precision) is None:
        supported = ", ".join(accelerator.supported_precisions) or "none recorded"
        errors.add(
            f"{section}.precision",
            f"{accelerator} has no published dense {precision} figure; choose one of: {supported}.",
        )
        return accelerator, None
    return accelerator, _hardware(accelerator, precision)


def _numbers(data: dict, names: tuple[str, ...]) -> dict:
    return {name: data[name] for name in names if data.get(name) is not None}


@dataclass
class Catalogue:
    """The catalogue rows an estimate may need, fetched in a fixed number of queries."""

    accelerators: dict[str, Accelerator]
    energy_profiles: dict[str, EnergyProfile]
    thresholds: list[ComputeThreshold]

    @classmethod
    def load(cls, *, accelerator_slugs=None, energy_profile_slugs=None) -> "Catalogue":
        """Everything (for forms that list the choices), or only the slugs given (for the API)."""
        accelerators = Accelerator.objects.prefetch_related("price_offers")
        profiles = EnergyProfile.objects.all()
        if accelerator_slugs is not None:
            accelerators = accelerators.filter(slug__in=accelerator_slugs)
        if energy_profile_slugs is not None:
            profiles = profiles.filter(slug__in=energy_profile_slugs)
        return cls(
            accelerators={a.slug: a for a in accelerators} if accelerator_slugs != set() else {},
            energy_profiles={p.slug: p for p in profiles},
            thresholds=list(ComputeThreshold.objects.all()),
        )

    @classmethod
    def for_request(cls, request: dict) -> "Catalogue":
        slugs = {
            section["accelerator"]
            for section in (request.get("training"), request.get("inference"))
            if isinstance(section, dict) and section.get("accelerator")
        }
        profile = request.get("energy_profile") or DEFAULT_ENERGY_PROFILE
        return cls.load(accelerator_slugs=slugs, energy_profile_slugs={profile})


def estimate_input_from_request(
    request: dict, catalogue: Catalogue | None = None
) -> tuple[EstimateInput, Resolution]:
    """Resolve slugs against the catalogue; raise EstimateInputError keyed like the request."""
    catalogue = catalogue or Catalogue.for_request(request)
    training_data = request.get("training")
    inference_data = request.get("inference")
    accelerators = catalogue.accelerators
    resolution = Resolution(accelerators=accelerators)
    errors = _Errors()

    profile_slug = request.get("energy_profile") or DEFAULT_ENERGY_PROFILE
    profile = catalogue.energy_profiles.get(profile_slug)
    if profile is None and request.get("energy_profile"):
        errors.add("energy_profile", f"No energy profile {profile_slug!r} in the catalogue.")
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
    )

    training = None
    if training_data:
        accelerator, hardware = _accelerator_for("training", training_data, accelerators, errors)
        if (
            hardware is None
            and accelerator is None
            and training_data["method"] != ("accelerator_hours")
        ):
            errors.add(
                "training.accelerator",
                "Choose an accelerator: it turns FLOP into accelerator-hours.",
            )
        training = TrainingInput(
            method=training_data["method"],
            hardware=hardware,
            pricing=_pricing("training", training_data, accelerator, errors, resolution),
            **_numbers(training_data, TRAINING_NUMBERS),
        )

    inference = None
    if inference_data:
        accelerator, hardware = _accelerator_for("inference", inference_data, accelerators, errors)
        precision = inference_data.get("precision", "bf16")
        inference = InferenceInput(
            method=inference_data["method"],
            hardware=hardware,
            bytes_per_parameter=float(BYTES_PER_PARAMETER[precision]),
            provisioning=inference_data.get("provisioning", "pay_per_use"),
            pricing=_pricing("inference", inference_data, accelerator, errors, resolution),
            **_numbers(inference_data, INFERENCE_NUMBERS),
        )

    errors.raise_if_any()
    thresholds = (
        tuple(Threshold(name=t.name, flop=t.flop) for t in catalogue.thresholds) if training else ()
    )
    return (
        EstimateInput(training=training, inference=inference, energy=energy, thresholds=thresholds),
        resolution,
    )


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
    request: dict, catalogue: Catalogue | None = None
) -> tuple[EstimateResult, Resolution]:
    """Resolve and estimate; every error is keyed by the request field it is about."""
    try:
        inputs, resolution = estimate_input_from_request(request, catalogue)
        return estimate(inputs), resolution
    except EstimateInputError as error:
        remapped: dict[str, list[str]] = {}
        for key, messages in error.errors.items():
            remapped.setdefault(request_key(key), []).extend(messages)
        raise EstimateInputError(remapped) from None
