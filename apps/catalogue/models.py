"""Catalogue rows; every figure carries its source, evidence tag and as-of date."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from uuid import uuid4

from django.core.cache import cache
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from apps.catalogue.language_models import LanguageModel
from apps.catalogue.sourced import Sourced, optional_figure

# The precisions an estimate may compute in, each a dense peak the catalogue records (the engine
# knows their bytes per parameter); FP4 only on the accelerators that have it (Blackwell, MI350…).
PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")


def _tflops_field(precision: str) -> models.FloatField:
    return optional_figure(
        format_lazy(_("dense peak {precision} (TFLOP/s)"), precision=precision.upper()),
        0.001,
        _("Dense (no structured sparsity); empty where the format is unsupported."),
    )


class AcceleratorQuerySet(models.QuerySet):
    def with_offers(self) -> "AcceleratorQuerySet":
        return self.prefetch_related("price_offers")


class Accelerator(Sourced):
    slug = models.SlugField(_("slug"), unique=True, help_text=_("e.g. nvidia-h100-sxm"))
    vendor = models.CharField(_("vendor"), max_length=40)
    name = models.CharField(_("name"), max_length=80)
    year = models.PositiveSmallIntegerField(_("year"))
    memory_gb = models.FloatField(_("memory (GB)"), validators=[MinValueValidator(0.001)])
    memory_bandwidth_tbps = models.FloatField(
        _("memory bandwidth (TB/s)"), validators=[MinValueValidator(0.001)]
    )
    power_watts = optional_figure(_("maximum power (W)"), 1)
    peak_tflops_fp32 = _tflops_field("fp32")
    peak_tflops_tf32 = _tflops_field("tf32")
    peak_tflops_bf16 = _tflops_field("bf16")
    peak_tflops_fp16 = _tflops_field("fp16")
    peak_tflops_fp8 = _tflops_field("fp8")
    peak_tflops_int8 = _tflops_field("int8")
    peak_tflops_fp4 = _tflops_field("fp4")
    accelerators_per_node = models.PositiveSmallIntegerField(
        _("accelerators per node"),
        validators=[MinValueValidator(1)],
        help_text=_(
            "Accelerators in one server, or for TPUs in one host, that share the fast "
            "interconnect below; the notes say which."
        ),
    )
    interconnect_gb_per_second = optional_figure(
        _("interconnect inside a node (GB/s)"),
        0.001,
        _(
            "Per accelerator, both directions together, as the vendor quotes it (e.g. NVLink 4 "
            "on H100 SXM = 900); empty where not published."
        ),
    )
    embodied_kg_co2e = optional_figure(
        _("embodied emissions (kg CO2e)"),
        0.0,
        _(
            "Manufacturing one accelerator and its share of the server, cradle to gate; empty "
            "where no life-cycle source publishes it."
        ),
    )
    embodied_lifetime_years = optional_figure(
        _("service life behind the embodied figure (years)"),
        0.1,
        _("What a rented accelerator's embodied emissions are spread over."),
    )
    embodied_source = models.TextField(
        _("source of the embodied emissions"),
        blank=True,
        help_text=_("The life-cycle data quoted and dated, or why there is none."),
    )

    objects = AcceleratorQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "name"]
        verbose_name = _("accelerator")
        verbose_name_plural = _("accelerators")

    def __str__(self) -> str:
        return f"{self.vendor} {self.name}"

    def peak_tflops(self, precision: str) -> float | None:
        if precision not in PRECISIONS:
            raise ValueError(f"Unknown precision {precision!r}")
        return getattr(self, f"peak_tflops_{precision}")

    @property
    def peak_tflops_by_precision(self) -> dict[str, float | None]:
        """Every recorded dense peak (None where unsupported or unpublished)."""
        return {precision: self.peak_tflops(precision) for precision in PRECISIONS}

    @property
    def supported_precisions(self) -> list[str]:
        """The precisions this accelerator has a published dense peak for."""
        return [p for p in PRECISIONS if self.peak_tflops(p) is not None]


class PriceOffer(Sourced):
    class Kind(models.TextChoices):
        RENT = "rent", _("Rent per accelerator-hour")
        PURCHASE = "purchase", _("Purchase")

    accelerator = models.ForeignKey(
        Accelerator,
        on_delete=models.CASCADE,
        related_name="price_offers",
        verbose_name=_("accelerator"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    provider = models.CharField(_("provider"), max_length=80)
    region = models.CharField(_("region"), max_length=40, blank=True)
    description = models.CharField(_("description"), max_length=200, blank=True)
    price_per_accelerator_hour = optional_figure(
        _("price per accelerator-hour"),
        Decimal("0"),
        field=models.DecimalField,
        max_digits=12,
        decimal_places=4,
    )
    purchase_price = optional_figure(
        _("purchase price per accelerator"),
        Decimal("0"),
        field=models.DecimalField,
        max_digits=14,
        decimal_places=2,
    )
    lifetime_years = optional_figure(_("depreciation lifetime (years)"), 0.1)
    currency = models.CharField(_("currency"), max_length=3, default="USD")

    class Meta:
        ordering = ["accelerator", "kind", "price_per_accelerator_hour", "purchase_price"]
        verbose_name = _("price offer")
        verbose_name_plural = _("price offers")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(kind="rent", price_per_accelerator_hour__isnull=False)
                    | models.Q(kind="purchase", purchase_price__isnull=False)
                ),
                name="price_offer_has_its_price",
            )
        ]

    def __str__(self) -> str:
        price = (
            f"{self.price_per_accelerator_hour}/h"
            if self.kind == self.Kind.RENT
            else f"{self.purchase_price}"
        )
        return f"{self.accelerator} — {self.provider} {self.region} {price} {self.currency}"


class EnergyProfile(Sourced):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=120)
    pue = models.FloatField(_("PUE"), validators=[MinValueValidator(1.0)])
    kg_co2e_per_kwh = models.FloatField(
        _("grid intensity (kg CO2e/kWh)"), validators=[MinValueValidator(0.0)]
    )
    wue_litres_per_kwh = optional_figure(
        _("on-site water (L per kWh of IT energy)"),
        0.0,
        _("The data centre's water usage effectiveness (WUE); empty where not published."),
    )
    grid_water_litres_per_kwh = optional_figure(
        _("grid water (L per kWh of electricity)"),
        0.0,
        _("Water consumed to generate the electricity; empty where not published."),
    )
    water_source = models.TextField(
        _("source of the water figures"),
        blank=True,
        help_text=_("The sources quoted and dated, or why a figure is missing."),
    )
    electricity_price_per_kwh = optional_figure(
        _("electricity price per kWh"),
        Decimal("0"),
        field=models.DecimalField,
        max_digits=8,
        decimal_places=4,
    )
    currency = models.CharField(_("currency"), max_length=3, default="USD")

    class Meta:
        ordering = ["name"]
        verbose_name = _("energy profile")
        verbose_name_plural = _("energy profiles")
        constraints = [
            models.CheckConstraint(condition=models.Q(pue__gte=1), name="pue_at_least_1")
        ]

    def __str__(self) -> str:
        return self.name


class ComputeThreshold(Sourced):
    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("In force")
        SIGNED = "signed", _("Signed into law")
        REVOKED = "revoked", _("Revoked")
        VETOED = "vetoed", _("Vetoed")
        PROPOSED = "proposed", _("Proposed")

    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=160)
    jurisdiction = models.CharField(_("jurisdiction"), max_length=80)
    flop = models.FloatField(
        _("training compute threshold (FLOP)"), validators=[MinValueValidator(1)]
    )
    status = models.CharField(_("status"), max_length=10, choices=Status)

    class Meta:
        ordering = ["flop", "name"]
        verbose_name = _("compute threshold")
        verbose_name_plural = _("compute thresholds")

    def __str__(self) -> str:
        return f"{self.name} ({self.flop:.0e} FLOP)"


class CommitmentDiscount(Sourced):
    """A provider's published discount against its on-demand price for capacity rented on
    commitment, by term and payment option; no discount where none is published or offered."""

    class Provider(models.TextChoices):
        AWS = "aws", _("AWS")
        GOOGLE_CLOUD = "google-cloud", _("Google Cloud")
        AZURE = "azure", _("Azure")

    class Payment(models.TextChoices):
        NO_UPFRONT = "no_upfront", _("No upfront (all monthly)")
        PARTIAL_UPFRONT = "partial_upfront", _("Partial upfront")
        ALL_UPFRONT = "all_upfront", _("All upfront")

    provider = models.CharField(_("provider"), max_length=20, choices=Provider)
    program = models.CharField(
        _("programme"), max_length=120, help_text=_("e.g. EC2 Reserved Instances")
    )
    applies_to = models.CharField(
        _("applies to"), max_length=120, help_text=_("The instances or accelerators it covers.")
    )
    term_years = models.PositiveSmallIntegerField(
        _("term (years)"), choices=[(1, _("1 year")), (3, _("3 years"))]
    )
    payment = models.CharField(_("payment"), max_length=20, choices=Payment)
    discount = models.DecimalField(
        _("discount against on demand"),
        max_digits=5,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("0.99"))],
        help_text=_(
            "The share of the on-demand price taken off, 0.4 for 40 %. Empty where the provider "
            "publishes none in the sources read, or does not offer this payment; the notes say "
            "which."
        ),
    )

    class Meta:
        ordering = ["provider", "term_years", "payment"]
        verbose_name = _("commitment discount")
        verbose_name_plural = _("commitment discounts")
        constraints = [
            models.UniqueConstraint(
                fields=["provider", "term_years", "payment"], name="one_discount_per_commitment"
            )
        ]

    def __str__(self) -> str:
        return _("%(provider)s, %(years)s-year term, %(payment)s") % {
            "provider": self.get_provider_display(),
            "years": self.term_years,
            "payment": self.get_payment_display(),
        }


def payment_of(upfront_share: float) -> str:
    """The payment option an upfront share is: none, all, or partial in between."""
    if upfront_share == 0:
        return CommitmentDiscount.Payment.NO_UPFRONT
    if upfront_share == 1:
        return CommitmentDiscount.Payment.ALL_UPFRONT
    return CommitmentDiscount.Payment.PARTIAL_UPFRONT


# Every process keeps a snapshot of these rows for estimates (apps.catalogue.snapshot) and rebuilds
# it when the catalogue version in the shared cache changes.
CATALOGUE_MODELS = (
    Accelerator,
    PriceOffer,
    EnergyProfile,
    ComputeThreshold,
    LanguageModel,
    CommitmentDiscount,
)
CATALOGUE_VERSION_KEY = "catalogue:version"


def catalogue_version() -> str | None:
    """The current catalogue version; None only when the cache keeps nothing (DummyCache)."""
    version = cache.get(CATALOGUE_VERSION_KEY)
    if version is None:
        # First use, or the cache lost the key: start a version, so no older snapshot matches.
        cache.add(CATALOGUE_VERSION_KEY, uuid4().hex, timeout=None)
        version = cache.get(CATALOGUE_VERSION_KEY)
    return version


def _new_catalogue_version() -> None:
    # Random, not a counter: a counter restarted after the cache lost the key could repeat a
    # number that some process's snapshot still carries.
    cache.set(CATALOGUE_VERSION_KEY, uuid4().hex, timeout=None)


def catalogue_changed(using: str | None = None) -> None:
    """Start a new catalogue version once the current transaction commits (at once outside one).

    After a commit, not before: another process rebuilding in between would read the old rows.
    """
    transaction.on_commit(_new_catalogue_version, using=using, robust=True)


_LOADING = ContextVar("catalogue_loading", default=False)


@contextmanager
def one_catalogue_change() -> Iterator[None]:
    """The rows a load saves and deletes in this block start one new catalogue version, at its
    end, not one each (an API price load with overwrite deletes some 2,500 rows, each a
    post_delete, and writes others in bulk, which sends no signal at all)."""
    token = _LOADING.set(True)
    try:
        yield
    finally:
        _LOADING.reset(token)
    catalogue_changed()


def catalogue_row_changed(sender, using: str, **kwargs) -> None:
    """post_save and post_delete receiver of every catalogue model, exchange rate and API price
    (connected in apps.catalogue.wiring, apps.exchange.wiring and apps.apiprices.wiring)."""
    if not _LOADING.get():
        catalogue_changed(using)
