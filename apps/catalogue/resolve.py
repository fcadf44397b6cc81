"""Turn an estimate request (catalogue slugs and numbers) into estimate-engine inputs.

The API and the pages both go through `estimate_input_from_request`, so there is one path from
catalogue rows to the numbers the engine sees. Unknown slugs, precisions an accelerator does not
support and missing prices are reported like any other invalid input, keyed by the request field.

The rows come from a snapshot of the whole catalogue that each process keeps between requests,
with the figures resolution needs worked out once; it is rebuilt when the catalogue version in
the shared cache changes (apps.catalogue.models), so an edit is seen by the next estimate.
"""

import hashlib
import time
from dataclasses import dataclass, field, replace
from decimal import Decimal
from statistics import median

from django.utils.translation import gettext, ngettext

from apps.apiprices.resolve import api_fine_tune_training, external_api_inference
from apps.catalogue.models import (
    Accelerator,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
    catalogue_version,
)
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
from apps.projects.locale_numbers import date_text, decimal_text

DEFAULT_ENERGY_PROFILE = "world-average-grid-industry-pue"
DEFAULT_LIFETIME_YEARS = 5.0
# A change the version does not announce (a bulk update, another process whose cache is its own
# memory) still reaches every process after this long.
SNAPSHOT_MAX_AGE_SECONDS = 60.0

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
    # Serving a language model
    "total_parameters",
    "layers",
    "kv_heads",
    "head_dim",
    "kv_cache_bytes_per_token",
    "kv_cache_bytes_per_element",
    "memory_utilization",
    "memory_efficiency",
    "accelerators_per_replica",
    "ttft_target_seconds",
    "tpot_target_seconds",
    "sliding_window",
    "sliding_window_layers",
)
GB = 1e9


@dataclass
class Resolution:
    """The catalogue rows an estimate used, and plain-language notes on where figures came from."""

    accelerators: dict[str, Accelerator] = field(default_factory=dict)
    energy_profile: EnergyProfile | None = None
    model: LanguageModel | None = None
    notes: dict[str, list[str]] = field(default_factory=dict)
    api_models: dict = field(default_factory=dict)  # slug → apps.apiprices PriceInForce

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
    interconnect = accelerator.interconnect_gb_per_second
    return Hardware(
        peak_flops_per_second=peak_tflops * TERA,
        memory_bandwidth_bytes_per_second=accelerator.memory_bandwidth_tbps * TERA,
        power_watts=accelerator.power_watts,
        memory_bytes=accelerator.memory_gb * GB,
        accelerators_per_node=accelerator.accelerators_per_node,
        interconnect_bytes_per_second=None if interconnect is None else interconnect * GB,
    )


def _median_price(offers: list[PriceOffer], attribute: str) -> Decimal | None:
    prices = [getattr(offer, attribute) for offer in offers]
    prices = [price for price in prices if price is not None]
    return Decimal(median(prices)).quantize(Decimal("0.0001")) if prices else None


@dataclass(frozen=True)
class Prices:
    """Median catalogue prices of one accelerator, and how many offers each median is of."""

    rent: Decimal | None = None  # per accelerator-hour
    rent_offers: int = 0
    purchase: Decimal | None = None  # per accelerator
    purchase_offers: int = 0
    lifetime_years: float | None = None  # median of the purchase offers that give one

    @classmethod
    def of(cls, accelerator: Accelerator) -> "Prices":
        offers = list(accelerator.price_offers.all())
        rents = [o for o in offers if o.kind == PriceOffer.Kind.RENT]
        purchases = [o for o in offers if o.kind == PriceOffer.Kind.PURCHASE]
        lifetimes = [o.lifetime_years for o in purchases if o.lifetime_years]
        return cls(
            rent=_median_price(rents, "price_per_accelerator_hour"),
            rent_offers=len(rents),
            purchase=_median_price(purchases, "purchase_price"),
            purchase_offers=len(purchases),
            lifetime_years=median(lifetimes) if lifetimes else None,
        )


def _pricing(
    section: str,
    data: dict,
    accelerator: Accelerator | None,
    catalogue: "Catalogue",
    errors: _Errors,
    resolution: Resolution,
) -> Pricing:
    mode = data.get("pricing_mode", "rent")
    prices = catalogue.prices[accelerator.slug] if accelerator else Prices()
    if mode == "rent":
        price = data.get("price_per_accelerator_hour")
        if price is None:
            price = prices.rent
            if price is None:
                errors.add(
                    f"{section}.price_per_accelerator_hour",
                    gettext(
                        "Give a price per accelerator-hour: the catalogue has no rental price for "
                        "%(accelerator)s."
                    )
                    % {"accelerator": accelerator}
                    if accelerator
                    else gettext(
                        "Give a price per accelerator-hour: the catalogue has no rental price "
                        "without an accelerator."
                    ),
                )
                return Pricing(mode="rent")
            resolution.note(
                section,
                ngettext(
                    "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental "
                    "offer for %(accelerator)s in the catalogue.",
                    "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental "
                    "offers for %(accelerator)s in the catalogue.",
                    prices.rent_offers,
                )
                % {
                    "price": decimal_text(Decimal(str(price))),
                    "offers": prices.rent_offers,
                    "accelerator": accelerator,
                },
            )
        return Pricing(mode="rent", price_per_accelerator_hour=float(price))
    purchase_price = data.get("purchase_price")
    lifetime = data.get("lifetime_years")
    if purchase_price is None:
        purchase_price = prices.purchase
        if purchase_price is None:
            errors.add(
                f"{section}.purchase_price",
                gettext(
                    "Give a purchase price: the catalogue has no purchase price for "
                    "%(accelerator)s."
                )
                % {"accelerator": accelerator}
                if accelerator
                else gettext(
                    "Give a purchase price: the catalogue has no purchase price without an "
                    "accelerator."
                ),
            )
            return Pricing(mode="own")
        if lifetime is None:
            lifetime = prices.lifetime_years
        resolution.note(
            section,
            ngettext(
                "Purchase price %(price)s USD per accelerator: the median of %(offers)s purchase "
                "price for %(accelerator)s in the catalogue.",
                "Purchase price %(price)s USD per accelerator: the median of %(offers)s purchase "
                "prices for %(accelerator)s in the catalogue.",
                prices.purchase_offers,
            )
            % {
                "price": decimal_text(Decimal(str(purchase_price))),
                "offers": prices.purchase_offers,
                "accelerator": accelerator,
            },
        )
    return Pricing(
        mode="own",
        purchase_price=float(purchase_price),
        lifetime_years=float(lifetime if lifetime is not None else DEFAULT_LIFETIME_YEARS),
        utilization_of_owned=data.get("utilization_of_owned", 0.7),
    )


def _accelerator_for(
    section: str, data: dict, catalogue: "Catalogue", errors: _Errors, resolution: Resolution
) -> tuple[Accelerator | None, Hardware | None]:
    slug = data.get("accelerator")
    if not slug:
        return None, None
    accelerator = catalogue.accelerators.get(slug)
    if accelerator is None:
        errors.add(
            f"{section}.accelerator",
            gettext("No accelerator %(slug)s in the catalogue.") % {"slug": repr(slug)},
        )
        return None, None
    resolution.accelerators[slug] = accelerator
    precision = data.get("precision", "bf16")
    hardware = catalogue.hardware.get((slug, precision))
    if hardware is None:
        supported = ", ".join(accelerator.supported_precisions) or gettext("none recorded")
        errors.add(
            f"{section}.precision",
            gettext(
                "%(accelerator)s has no published dense %(precision)s figure; choose one of: "
                "%(supported)s."
            )
            % {"accelerator": accelerator, "precision": precision, "supported": supported},
        )
    return accelerator, hardware


def _model_numbers(model: LanguageModel) -> dict:
    """A catalogue model's figures as inference inputs (active parameters as `parameters`)."""
    numbers = {
        "parameters": model.active_parameters,
        "total_parameters": model.total_parameters,
        "layers": model.layers,
        "query_heads": model.query_heads,
        "head_dim": model.head_dim,
        "hidden_size": model.hidden_size,
        "experts_total": model.experts_total,
        "experts_active": model.experts_active,
        "sliding_window": model.sliding_window,
        "sliding_window_layers": model.sliding_window_layers,
    }
    if model.uses_mla:
        numbers["kv_latent_width"] = model.mla_kv_lora_rank + model.mla_rope_head_dim
    else:
        numbers["kv_heads"] = model.kv_heads
    return {name: value for name, value in numbers.items() if value is not None}


def _billions(parameters: float) -> str:
    """Parameters in billions to four significant figures, as the active language writes them."""
    return decimal_text(Decimal(f"{parameters / 1e9:.4g}"))


def _model_for(data: dict, catalogue: "Catalogue", errors: _Errors, resolution: Resolution) -> dict:
    """The numbers the chosen catalogue model fills in, where the request gives none."""
    slug = data.get("model")
    if not slug:
        return {}
    model = catalogue.models.get(slug)
    if model is None:
        errors.add(
            "inference.model", gettext("No model %(slug)s in the catalogue.") % {"slug": repr(slug)}
        )
        return {}
    resolution.model = model
    filled = {
        name: value for name, value in _model_numbers(model).items() if data.get(name) is None
    }
    resolution.note(
        "inference",
        gettext(
            "Model %(name)s: %(attention)s attention, %(layers)s layers, %(total)s B parameters "
            "(%(active)s B active) from the model catalogue (%(source)s, as of %(date)s)."
        )
        % {
            "name": model.name,
            "attention": model.attention_kind,
            "layers": decimal_text(Decimal(model.layers)),
            "total": _billions(model.total_parameters),
            "active": _billions(model.active_parameters),
            "source": model.source,
            "date": date_text(model.as_of),
        },
    )
    if model.sliding_window is not None and model.sliding_window_layers is not None:
        resolution.note(
            "inference",
            gettext(
                "%(sliding)s of its %(layers)s layers keep only the last %(window)s tokens in "
                "their KV cache (sliding window)."
            )
            % {
                "sliding": decimal_text(Decimal(model.sliding_window_layers)),
                "layers": decimal_text(Decimal(model.layers)),
                "window": decimal_text(Decimal(model.sliding_window)),
            },
        )
    return filled


def _numbers(data: dict, names: tuple[str, ...]) -> dict:
    return {name: data[name] for name in names if data.get(name) is not None}


@dataclass(frozen=True)
class Catalogue:
    """Catalogue rows for estimates, with what resolving a request needs worked out once.

    `load` shares one per process between requests: read it, never change it.
    """

    accelerators: dict[str, Accelerator]
    energy_profiles: dict[str, EnergyProfile]
    thresholds: list[ComputeThreshold]
    hardware: dict[tuple[str, str], Hardware]  # by (slug, precision); published figures only
    prices: dict[str, Prices]  # by slug
    engine_thresholds: tuple[Threshold, ...]
    models: dict[str, LanguageModel] = field(default_factory=dict)  # language models by slug
    # A digest of every row's values: equal digests, equal catalogues (whichever process read it).
    digest: str = ""

    @classmethod
    def from_rows(
        cls,
        accelerators: list[Accelerator],
        energy_profiles: list[EnergyProfile],
        thresholds: list[ComputeThreshold],
        models: list[LanguageModel] = (),
    ) -> "Catalogue":
        """Accelerators with their price offers prefetched, energy profiles, thresholds and
        language models."""
        return cls(
            accelerators={a.slug: a for a in accelerators},
            energy_profiles={p.slug: p for p in energy_profiles},
            thresholds=thresholds,
            hardware={
                (a.slug, precision): _hardware(a, precision)
                for a in accelerators
                for precision in a.supported_precisions
            },
            prices={a.slug: Prices.of(a) for a in accelerators},
            engine_thresholds=tuple(Threshold(name=t.name, flop=t.flop) for t in thresholds),
            models={m.slug: m for m in models},
            digest=_rows_digest(
                [*accelerators, *(o for a in accelerators for o in a.price_offers.all())],
                energy_profiles,
                thresholds,
                list(models),
            ),
        )

    @classmethod
    def from_database(cls) -> "Catalogue":
        """The catalogue as the database holds it now (five queries), no snapshot."""
        return cls.from_rows(
            list(Accelerator.objects.with_offers()),
            list(EnergyProfile.objects.all()),
            list(ComputeThreshold.objects.all()),
            list(LanguageModel.objects.all()),
        )

    @classmethod
    def load(cls) -> "Catalogue":
        """The whole catalogue: this process's snapshot while the catalogue version is the one it
        was built at (one cache read, no query), else a new snapshot (five queries)."""
        global _snapshot
        # Read before the rows: a change committed while they are read brings a newer version.
        version = catalogue_version()
        now = time.monotonic()
        snapshot = _snapshot
        if (
            snapshot is not None
            and snapshot.version == version
            and now - snapshot.built_at < SNAPSHOT_MAX_AGE_SECONDS
        ):
            return snapshot.catalogue
        catalogue = cls.from_database()
        if version is not None:
            _snapshot = _Snapshot(version=version, built_at=now, catalogue=catalogue)
        return catalogue

    @classmethod
    def for_request(cls, request: dict) -> "Catalogue":
        """The rows a request names: its accelerators and its energy profile (or the default)."""
        catalogue = cls.load()
        slugs = {
            section["accelerator"]
            for section in (request.get("training"), request.get("inference"))
            if isinstance(section, dict) and section.get("accelerator")
        }
        profile = request.get("energy_profile") or DEFAULT_ENERGY_PROFILE
        return replace(
            catalogue,
            accelerators={s: a for s, a in catalogue.accelerators.items() if s in slugs},
            energy_profiles={s: p for s, p in catalogue.energy_profiles.items() if s == profile},
        )


def _rows_digest(*groups: list) -> str:
    digest = hashlib.sha256()
    for rows in groups:
        for row in rows:
            values = [(f.attname, getattr(row, f.attname)) for f in row._meta.concrete_fields]
            digest.update(f"{type(row).__name__}{values!r}".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class _Snapshot:
    version: str
    built_at: float  # time.monotonic()
    catalogue: Catalogue


_snapshot: _Snapshot | None = None


def estimate_input_from_request(
    request: dict, catalogue: Catalogue | None = None
) -> tuple[EstimateInput, Resolution]:
    """Resolve slugs against the catalogue; raise EstimateInputError keyed like the request."""
    catalogue = catalogue or Catalogue.load()
    training_data = request.get("training")
    inference_data = request.get("inference")
    resolution = Resolution()
    errors = _Errors()

    profile_slug = request.get("energy_profile") or DEFAULT_ENERGY_PROFILE
    profile = catalogue.energy_profiles.get(profile_slug)
    if profile is None and request.get("energy_profile"):
        errors.add(
            "energy_profile",
            gettext("No energy profile %(slug)s in the catalogue.") % {"slug": repr(profile_slug)},
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
    )

    training = None
    if training_data and training_data["method"] == "api_fine_tune":
        training = api_fine_tune_training(training_data)
    elif training_data:
        accelerator, hardware = _accelerator_for(
            "training", training_data, catalogue, errors, resolution
        )
        if (
            hardware is None
            and accelerator is None
            and training_data["method"] != ("accelerator_hours")
        ):
            errors.add(
                "training.accelerator",
                gettext("Choose an accelerator: it turns FLOP into accelerator-hours."),
            )
        training = TrainingInput(
            method=training_data["method"],
            hardware=hardware,
            pricing=_pricing("training", training_data, accelerator, catalogue, errors, resolution),
            **_numbers(training_data, TRAINING_NUMBERS),
        )

    inference = None
    if inference_data and inference_data["method"] == "external_api":
        inference = external_api_inference(inference_data, errors, resolution)
    elif inference_data:
        accelerator, hardware = _accelerator_for(
            "inference", inference_data, catalogue, errors, resolution
        )
        precision = inference_data.get("precision", "bf16")
        bytes_per_parameter = inference_data.get("bytes_per_parameter")
        model_numbers = _model_for(inference_data, catalogue, errors, resolution)
        inference = InferenceInput(
            method=inference_data["method"],
            hardware=hardware,
            bytes_per_parameter=float(
                BYTES_PER_PARAMETER[precision]
                if bytes_per_parameter is None
                else bytes_per_parameter
            ),
            provisioning=inference_data.get("provisioning", "pay_per_use"),
            pricing=_pricing(
                "inference", inference_data, accelerator, catalogue, errors, resolution
            ),
            **model_numbers,
            **_numbers(inference_data, INFERENCE_NUMBERS),
        )

    errors.raise_if_any()
    thresholds = catalogue.engine_thresholds if training else ()
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
