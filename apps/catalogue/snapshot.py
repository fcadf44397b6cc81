"""The catalogue as estimates read it: one snapshot of its rows per process, with each
accelerator's hardware figures and median prices worked out once.

The snapshot is rebuilt when the catalogue version in the shared cache changes
(apps.catalogue.models), so an edit is seen by the next estimate.
"""

import hashlib
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from decimal import Decimal
from statistics import median

from apps.catalogue.models import (
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
    catalogue_version,
)
from apps.estimates import Hardware, Threshold
from apps.estimates.units import TERA

DEFAULT_ENERGY_PROFILE = "world-average-grid-industry-pue"
# A change the version does not announce (a bulk update, another process whose cache is its own
# memory) still reaches every process after this long.
SNAPSHOT_MAX_AGE_SECONDS = 60.0

GB = 1e9


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
        embodied_kg_co2e=accelerator.embodied_kg_co2e,
        embodied_lifetime_years=accelerator.embodied_lifetime_years,
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
    # Discounts for capacity rented on commitment, by (provider, term in years, payment).
    commitment_discounts: dict[tuple[str, int, str], CommitmentDiscount] = field(
        default_factory=dict
    )
    # A digest of every row's values: equal digests, equal catalogues (whichever process read it).
    digest: str = ""

    @classmethod
    def from_rows(
        cls,
        accelerators: list[Accelerator],
        energy_profiles: list[EnergyProfile],
        thresholds: list[ComputeThreshold],
        models: list[LanguageModel] = (),
        commitment_discounts: list[CommitmentDiscount] = (),
    ) -> "Catalogue":
        """Accelerators with their price offers prefetched, energy profiles, thresholds,
        language models and commitment discounts."""
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
            commitment_discounts={
                (d.provider, d.term_years, d.payment): d for d in commitment_discounts
            },
            digest=_rows_digest(
                [*accelerators, *(o for a in accelerators for o in a.price_offers.all())],
                energy_profiles,
                thresholds,
                list(models),
                list(commitment_discounts),
            ),
        )

    @classmethod
    def from_database(
        cls, accelerators: Collection[str] | None = None, models: Collection[str] | None = None
    ) -> "Catalogue":
        """The catalogue as the database holds it now (six queries), no snapshot; only the
        accelerators and language models named, when their slugs are given (a sweep's chunk
        reads what it uses, not every row with its digest)."""
        accelerator_rows = Accelerator.objects.with_offers()
        model_rows = LanguageModel.objects.all()
        if accelerators is not None:
            accelerator_rows = accelerator_rows.filter(slug__in=accelerators)
        if models is not None:
            model_rows = model_rows.filter(slug__in=models)
        return cls.from_rows(
            list(accelerator_rows),
            list(EnergyProfile.objects.all()),
            list(ComputeThreshold.objects.all()),
            list(model_rows),
            list(CommitmentDiscount.objects.all()),
        )

    @classmethod
    def load(cls) -> "Catalogue":
        """The whole catalogue: this process's snapshot while the catalogue version is the one it
        was built at (one cache read, no query), else a new snapshot (six queries)."""
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
