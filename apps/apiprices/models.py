"""API models of the price catalogue and their dated prices per million tokens (USD)."""

import datetime
from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.catalogue.models import Sourced


def _price_field(label: str, *, optional: bool = False) -> models.DecimalField:
    return models.DecimalField(
        label,
        max_digits=14,
        decimal_places=6,
        null=optional,
        blank=optional,
        validators=[MinValueValidator(Decimal("0"))],
        help_text=_("USD per million tokens."),
    )


class PriceTier(models.TextChoices):
    """The prices a provider bills for one model at one time. The standard price is the one in
    force; the others are tiers a user chooses when their traffic qualifies."""

    STANDARD = "standard", _("standard")
    # A time-of-day discount, e.g. DeepSeek's night-time price (the hours are in the notes).
    OFF_PEAK = "off_peak", _("off-peak")
    # Every token of a prompt longer than `above_input_tokens` billed at a higher rate (Gemini).
    LONG_PROMPT = "long_prompt", _("long prompt")


class ApiModelQuerySet(models.QuerySet):
    def with_prices(self) -> "ApiModelQuerySet":
        return self.prefetch_related("prices")


class ApiModel(Sourced):
    """One model of one provider; `source` is the provider's pricing page, `as_of` the date the
    prices were checked, `catalogue_version` the genai-prices release they come from."""

    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    provider = models.CharField(_("provider"), max_length=60, db_index=True)
    provider_name = models.CharField(_("provider name"), max_length=120)
    model = models.CharField(_("model"), max_length=160)
    name = models.CharField(_("name"), max_length=200)
    deprecated = models.BooleanField(_("deprecated by the provider"), default=False)
    catalogue_version = models.CharField(_("catalogue version"), max_length=40)

    objects = ApiModelQuerySet.as_manager()

    class Meta:
        ordering = ["provider", "model"]
        verbose_name = _("API model")
        verbose_name_plural = _("API models")
        constraints = [models.UniqueConstraint(fields=["provider", "model"], name="api_model_once")]

    def __str__(self) -> str:
        return f"{self.provider_name} {self.name}"

    def price_on(self, day: datetime.date, tier: str = PriceTier.STANDARD) -> "ApiPrice | None":
        """The price of `tier` in force on `day`: the latest of that tier that started on or
        before it (uses the prefetched prices when there are). A tier other than the standard
        belongs to the standard price it started under: a later standard price without the tier
        ends it (DeepSeek's night-time discount ended with its price list of 5 September 2025)."""
        latest = _latest(self.prices.all(), day, tier)
        if latest is None or tier == PriceTier.STANDARD:
            return latest
        standard = _latest(self.prices.all(), day, PriceTier.STANDARD)
        if standard is not None and _start(standard) > _start(latest):
            return None
        return latest

    def tiers_on(self, day: datetime.date) -> dict[str, "ApiPrice"]:
        """Every tier offered on `day` with its price, the standard first."""
        tiers = {}
        for tier in PriceTier.values:
            price = self.price_on(day, tier)
            if price is not None:
                tiers[tier] = price
        return tiers


def _start(price: "ApiPrice") -> datetime.date:
    return price.valid_from or datetime.date.min


def _latest(prices, day: datetime.date, tier: str) -> "ApiPrice | None":
    started = [p for p in prices if p.tier == tier and _start(p) <= day]
    return max(started, key=_start, default=None)


class ApiPrice(models.Model):
    """A model's token prices from `valid_from` (empty: since before the catalogue's history)."""

    api_model = models.ForeignKey(
        ApiModel, on_delete=models.CASCADE, related_name="prices", verbose_name=_("API model")
    )
    valid_from = models.DateField(_("valid from"), null=True, blank=True)
    tier = models.CharField(
        _("price tier"), max_length=20, choices=PriceTier.choices, default=PriceTier.STANDARD
    )
    above_input_tokens = models.PositiveIntegerField(
        _("above input tokens"),
        null=True,
        blank=True,
        help_text=_("Long-prompt tier: the prompt length, in tokens, above which it applies."),
    )
    input = _price_field(_("input"))
    cached_input = _price_field(_("cached input"), optional=True)
    output = _price_field(_("output"))

    class Meta:
        ordering = ["api_model", "tier", models.F("valid_from").asc(nulls_first=True)]
        verbose_name = _("API price")
        verbose_name_plural = _("API prices")
        constraints = [
            models.UniqueConstraint(
                fields=["api_model", "tier", "valid_from"], name="api_price_tier_once_a_day"
            ),
            models.UniqueConstraint(
                fields=["api_model", "tier"],
                condition=models.Q(valid_from__isnull=True),
                name="api_price_tier_undated_once",
            ),
            models.CheckConstraint(
                condition=models.Q(tier=PriceTier.LONG_PROMPT)
                | models.Q(above_input_tokens__isnull=True),
                name="api_price_threshold_only_for_long_prompts",
            ),
        ]

    def __str__(self) -> str:
        since = self.valid_from.isoformat() if self.valid_from else "—"
        return f"{self.api_model} ({self.tier}) from {since}: {self.input} / {self.output}"
