"""Catalogue rows; every figure carries its source, evidence tag and as-of date."""

from decimal import Decimal
from uuid import uuid4

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

# The precisions an estimate may compute in (the engine knows their bytes per parameter).
PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")
# Every dense peak the catalogue records: the precisions above and FP4 (Blackwell, MI350, ...).
PEAK_FORMATS = (*PRECISIONS, "fp4")


class Evidence(models.TextChoices):
    PRIMARY = "P", "Primary (vendor, paper, legal text)"
    SECONDARY = "S", "Secondary (third party quoting a primary)"
    DERIVED = "D", "Derived by arithmetic from sourced figures"
    UNVERIFIED = "U", "Unverified or conflicting"


class Sourced(models.Model):
    """Where the figures of a row come from."""

    evidence = models.CharField(max_length=1, choices=Evidence, default=Evidence.SECONDARY)
    source = models.TextField(help_text="The document the figures were taken from.")
    as_of = models.DateField(help_text="Date of the source, or of the figures it gives.")
    notes = models.TextField(blank=True, help_text="Conversions, conflicts, empty fields and why.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


def _tflops_field(precision: str) -> models.FloatField:
    return models.FloatField(
        f"dense peak {precision.upper()} (TFLOP/s)",
        null=True,
        blank=True,
        validators=[MinValueValidator(0.001)],
        help_text="Dense (no structured sparsity); empty where the format is unsupported.",
    )


class AcceleratorQuerySet(models.QuerySet):
    def with_offers(self) -> "AcceleratorQuerySet":
        return self.prefetch_related("price_offers")


class Accelerator(Sourced):
    slug = models.SlugField(unique=True, help_text="e.g. nvidia-h100-sxm")
    vendor = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    year = models.PositiveSmallIntegerField()
    memory_gb = models.FloatField("memory (GB)", validators=[MinValueValidator(0.001)])
    memory_bandwidth_tbps = models.FloatField(
        "memory bandwidth (TB/s)", validators=[MinValueValidator(0.001)]
    )
    power_watts = models.FloatField(
        "maximum power (W)", null=True, blank=True, validators=[MinValueValidator(1)]
    )
    peak_tflops_fp32 = _tflops_field("fp32")
    peak_tflops_tf32 = _tflops_field("tf32")
    peak_tflops_bf16 = _tflops_field("bf16")
    peak_tflops_fp16 = _tflops_field("fp16")
    peak_tflops_fp8 = _tflops_field("fp8")
    peak_tflops_int8 = _tflops_field("int8")
    peak_tflops_fp4 = _tflops_field("fp4")
    accelerators_per_node = models.PositiveSmallIntegerField(
        "accelerators per node",
        validators=[MinValueValidator(1)],
        help_text=(
            "Accelerators in one server, or for TPUs in one host, that share the fast "
            "interconnect below; the notes say which."
        ),
    )
    interconnect_gb_per_second = models.FloatField(
        "interconnect inside a node (GB/s)",
        null=True,
        blank=True,
        validators=[MinValueValidator(0.001)],
        help_text=(
            "Per accelerator, both directions together, as the vendor quotes it (e.g. NVLink 4 "
            "on H100 SXM = 900); empty where not published."
        ),
    )

    objects = AcceleratorQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "name"]

    def __str__(self) -> str:
        return f"{self.vendor} {self.name}"

    def peak_tflops(self, precision: str) -> float | None:
        if precision not in PEAK_FORMATS:
            raise ValueError(f"Unknown precision {precision!r}")
        return getattr(self, f"peak_tflops_{precision}")

    @property
    def peak_tflops_by_precision(self) -> dict[str, float | None]:
        """Every recorded dense peak, FP4 included (None where unsupported or unpublished)."""
        return {precision: self.peak_tflops(precision) for precision in PEAK_FORMATS}

    @property
    def supported_precisions(self) -> list[str]:
        """The estimate precisions (PRECISIONS) this accelerator has a dense peak for."""
        return [p for p in PRECISIONS if self.peak_tflops(p) is not None]


class PriceOffer(Sourced):
    class Kind(models.TextChoices):
        RENT = "rent", "Rent per accelerator-hour"
        PURCHASE = "purchase", "Purchase"

    accelerator = models.ForeignKey(
        Accelerator, on_delete=models.CASCADE, related_name="price_offers"
    )
    kind = models.CharField(max_length=10, choices=Kind)
    provider = models.CharField(max_length=80)
    region = models.CharField(max_length=40, blank=True)
    description = models.CharField(max_length=200, blank=True)
    price_per_accelerator_hour = models.DecimalField(
        "price per accelerator-hour",
        max_digits=12,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    purchase_price = models.DecimalField(
        "purchase price per accelerator",
        max_digits=14,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    lifetime_years = models.FloatField(
        "depreciation lifetime (years)", null=True, blank=True, validators=[MinValueValidator(0.1)]
    )
    currency = models.CharField(max_length=3, default="USD")

    class Meta:
        ordering = ["accelerator", "kind", "price_per_accelerator_hour", "purchase_price"]
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
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    pue = models.FloatField("PUE", validators=[MinValueValidator(1.0)])
    kg_co2e_per_kwh = models.FloatField(
        "grid intensity (kg CO2e/kWh)", validators=[MinValueValidator(0.0)]
    )
    electricity_price_per_kwh = models.DecimalField(
        "electricity price per kWh",
        max_digits=8,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    currency = models.CharField(max_length=3, default="USD")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(pue__gte=1), name="pue_at_least_1")
        ]

    def __str__(self) -> str:
        return self.name


class ComputeThreshold(Sourced):
    class Status(models.TextChoices):
        IN_FORCE = "in_force", "In force"
        SIGNED = "signed", "Signed into law"
        REVOKED = "revoked", "Revoked"
        VETOED = "vetoed", "Vetoed"
        PROPOSED = "proposed", "Proposed"

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=160)
    jurisdiction = models.CharField(max_length=80)
    flop = models.FloatField("training compute threshold (FLOP)", validators=[MinValueValidator(1)])
    status = models.CharField(max_length=10, choices=Status)

    class Meta:
        ordering = ["flop", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.flop:.0e} FLOP)"


# Model slugs keep the version's dots ("llama-3.1-8b"), which a SlugField refuses.
MODEL_SLUG_PATTERN = r"[a-z0-9][-a-z0-9_.]*"
validate_model_slug = RegexValidator(
    rf"^{MODEL_SLUG_PATTERN}\Z",
    _("Lower-case letters, digits, dots, hyphens and underscores only, e.g. llama-3.1-8b."),
)


def _count_field(verbose_name: str, help_text: str = "", *, null: bool = False):
    return models.PositiveIntegerField(
        verbose_name,
        null=null,
        blank=null,
        validators=[MinValueValidator(1)],
        help_text=help_text,
    )


class LanguageModel(Sourced):
    """An open-weight language model's architecture: what serving memory and FLOP are made of.

    Widths are as the model's config.json gives them; parameter counts are the published ones
    (the notes say where a count is nominal and what the dimensions give).
    """

    class Architecture(models.TextChoices):
        DENSE = "dense", _("Dense")
        MOE = "moe", _("Mixture of experts")

    slug = models.CharField(
        max_length=80, unique=True, validators=[validate_model_slug], help_text="e.g. llama-3.1-8b"
    )
    name = models.CharField(max_length=80)
    developer = models.CharField(max_length=80)
    architecture = models.CharField(max_length=5, choices=Architecture)
    layers = _count_field(_("layers"))
    hidden_size = _count_field(_("hidden size"))
    query_heads = _count_field(_("query heads"))
    kv_heads = _count_field(_("key/value heads"), _("Equal to the query heads for MHA, 1 for MQA."))
    head_dim = _count_field(_("head dimension"))
    ffn_hidden_size = _count_field(
        _("dense MLP width"),
        _("For a mixture of experts, the width of its dense layers; empty if it has none."),
        null=True,
    )
    moe_ffn_hidden_size = _count_field(
        _("expert MLP width"), _("Per expert; empty for a dense model."), null=True
    )
    vocabulary = _count_field(_("vocabulary (tokens)"))
    tied_embeddings = models.BooleanField(
        _("tied embeddings"),
        default=False,
        help_text=_("The output layer reuses the input embedding."),
    )
    experts_total = _count_field(_("experts"), _("Routed experts per MoE layer."), null=True)
    experts_active = _count_field(_("active experts"), _("Routed experts per token."), null=True)
    experts_shared = models.PositiveIntegerField(
        _("shared experts"),
        null=True,
        blank=True,
        help_text=_("Experts every token passes through, besides the routed ones; empty if dense."),
    )
    dense_layers = models.PositiveIntegerField(
        _("leading dense layers"),
        null=True,
        blank=True,
        help_text=_("MoE models whose first layers are dense: how many; empty otherwise."),
    )
    mla_kv_lora_rank = _count_field(
        _("MLA key/value latent width"), _("Multi-head latent attention only."), null=True
    )
    mla_q_lora_rank = _count_field(
        _("MLA query latent width"), _("Multi-head latent attention only."), null=True
    )
    mla_rope_head_dim = _count_field(
        _("MLA rotary key width"), _("Multi-head latent attention only."), null=True
    )
    attention_bias = models.BooleanField(
        _("attention biases"), default=False, help_text=_("Biases on the q/k/v projections.")
    )
    sliding_window = _count_field(
        _("sliding window (tokens)"),
        _("Empty if no layer uses one; the notes say which layers do."),
        null=True,
    )
    context_length = _count_field(_("context length (tokens)"))
    total_parameters = models.FloatField(
        _("total parameters"), validators=[MinValueValidator(1)], help_text=_("What memory holds.")
    )
    active_parameters = models.FloatField(
        _("active parameters"),
        validators=[MinValueValidator(1)],
        help_text=_("Used per token: what the FLOP count uses (the total for a dense model)."),
    )
    licence = models.CharField(max_length=120)

    class Meta:
        ordering = ["developer", "name"]
        verbose_name = _("language model")

    def __str__(self) -> str:
        return self.name

    @property
    def total_parameters_billions(self) -> float:
        return self.total_parameters / 1e9

    @property
    def active_parameters_billions(self) -> float:
        return self.active_parameters / 1e9

    @property
    def uses_mla(self) -> bool:
        return self.mla_kv_lora_rank is not None

    @property
    def attention_kind(self) -> str:
        """MLA, MHA, MQA or GQA: how the model keys and values its attention."""
        if self.uses_mla:
            return "MLA"
        if self.kv_heads == self.query_heads:
            return "MHA"
        return "MQA" if self.kv_heads == 1 else "GQA"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        moe_fields = ("moe_ffn_hidden_size", "experts_total", "experts_active", "experts_shared")
        if self.architecture == self.Architecture.DENSE:
            for name in (*moe_fields, "dense_layers"):
                if getattr(self, name) is not None:
                    errors[name] = _("A dense model has no experts: leave this empty.")
            if self.ffn_hidden_size is None:
                errors["ffn_hidden_size"] = _("A dense model needs its MLP width.")
            if self.active_parameters != self.total_parameters:
                errors["active_parameters"] = _("A dense model uses all its parameters.")
        elif self.architecture == self.Architecture.MOE:
            for name in moe_fields:
                if getattr(self, name) is None:
                    errors[name] = _("A mixture of experts needs this figure.")
            if None not in (self.experts_active, self.experts_total) and (
                self.experts_active > self.experts_total
            ):
                errors["experts_active"] = _("More active experts than experts.")
            if self.dense_layers is not None and self.ffn_hidden_size is None:
                errors["ffn_hidden_size"] = _("The dense layers need their MLP width.")
        if None not in (self.dense_layers, self.layers) and self.dense_layers >= self.layers:
            errors["dense_layers"] = _("Fewer dense layers than layers, or leave it empty.")
        if None not in (self.active_parameters, self.total_parameters) and (
            self.active_parameters > self.total_parameters
        ):
            errors["active_parameters"] = _("More active parameters than parameters.")
        if self.query_heads and self.kv_heads and self.query_heads % self.kv_heads:
            errors["kv_heads"] = _("The query heads must be a multiple of the key/value heads.")
        mla = (self.mla_kv_lora_rank, self.mla_rope_head_dim)
        if (None in mla) != (mla == (None, None)):
            errors["mla_rope_head_dim"] = _("MLA needs both its latent and rotary widths.")
        if errors:
            raise ValidationError(errors)


# Every process keeps a snapshot of these rows for estimates (apps.catalogue.resolve) and rebuilds
# it when the catalogue version in the shared cache changes.
CATALOGUE_MODELS = (Accelerator, PriceOffer, EnergyProfile, ComputeThreshold, LanguageModel)
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


def catalogue_row_changed(sender, using: str, **kwargs) -> None:
    """post_save and post_delete receiver of every catalogue model (connected in apps.py)."""
    catalogue_changed(using)
