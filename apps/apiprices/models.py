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

    def price_on(self, day: datetime.date) -> "ApiPrice | None":
        """The price in force on `day`: the latest that started on or before it (uses the
        prefetched prices when there are)."""
        started = [
            price
            for price in self.prices.all()
            if price.valid_from is None or price.valid_from <= day
        ]
        return max(started, key=lambda p: p.valid_from or datetime.date.min, default=None)


class ApiPrice(models.Model):
    """A model's token prices from `valid_from` (empty: since before the catalogue's history)."""

    api_model = models.ForeignKey(
        ApiModel, on_delete=models.CASCADE, related_name="prices", verbose_name=_("API model")
    )
    valid_from = models.DateField(_("valid from"), null=True, blank=True)
    input = _price_field(_("input"))
    cached_input = _price_field(_("cached input"), optional=True)
    output = _price_field(_("output"))

    class Meta:
        ordering = ["api_model", models.F("valid_from").asc(nulls_first=True)]
        verbose_name = _("API price")
        verbose_name_plural = _("API prices")
        constraints = [
            models.UniqueConstraint(
                fields=["api_model", "valid_from"], name="api_price_once_a_day"
            ),
            models.UniqueConstraint(
                fields=["api_model"],
                condition=models.Q(valid_from__isnull=True),
                name="api_price_undated_once",
            ),
        ]

    def __str__(self) -> str:
        since = self.valid_from.isoformat() if self.valid_from else "—"
        return f"{self.api_model} from {since}: {self.input} / {self.output}"
