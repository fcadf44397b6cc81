"""The API prices in force on a day, for the API, the catalogue page and estimates."""

import datetime
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q

from apps.apiprices.models import ApiModel, ApiModelQuerySet, ApiPrice, PriceTier


@dataclass(frozen=True)
class PriceInForce:
    """A model with its standard price in force on a day, and every tier offered that day (the
    standard first) with its price."""

    api_model: ApiModel
    price: ApiPrice
    tiers: dict[str, ApiPrice] = field(default_factory=dict)

    @property
    def other_tiers(self) -> list[ApiPrice]:
        """The prices of the tiers other than the standard, in the order of `tiers`."""
        return [price for tier, price in self.tiers.items() if tier != PriceTier.STANDARD]

    def tier_price(self, tier: str) -> ApiPrice | None:
        """The price of `tier` that day; None if the model has no such tier then."""
        return self.price if tier == PriceTier.STANDARD else self.tiers.get(tier)


def prices_in_force(
    day: datetime.date, *, provider: str = "", model: str = "", slug: str = ""
) -> list[PriceInForce]:
    """Every model (of `provider`, named `model`, with `slug`: each filter optional, matched
    without regard to case) with the price in force on `day`; models priced only later are left
    out."""
    return prices_of(models_priced_on(day, provider=provider, model=model, slug=slug), day)


def models_priced_on(
    day: datetime.date, *, provider: str = "", model: str = "", slug: str = ""
) -> ApiModelQuerySet:
    """The models of `prices_in_force`, as a query: a page of them is read from the database
    alone (the catalogue holds two thousand)."""
    models = ApiModel.objects.filter(
        Exists(
            ApiPrice.objects.filter(api_model=OuterRef("pk"), tier=PriceTier.STANDARD).filter(
                Q(valid_from__isnull=True) | Q(valid_from__lte=day)
            )
        )
    )
    if provider:
        models = models.filter(provider__iexact=provider)
    if model:
        models = models.filter(model__iexact=model)
    if slug:
        models = models.filter(slug=slug)
    return models


def prices_of(models: ApiModelQuerySet, day: datetime.date) -> list[PriceInForce]:
    """Each of `models` (priced on `day`: models_priced_on) with its prices on `day`."""
    rows = []
    for api_model in models.with_prices():
        tiers = api_model.tiers_on(day)
        rows.append(PriceInForce(api_model, tiers[PriceTier.STANDARD], tiers))
    return rows


def price_in_force(slug: str, day: datetime.date) -> PriceInForce | None:
    """The model with this slug and its price on `day`; None if either is missing."""
    rows = prices_in_force(day, slug=slug)
    return rows[0] if rows else None


def api_model_slugs() -> list[str]:
    """Every API model's slug, to suggest the closest to one that is not in the catalogue."""
    return list(ApiModel.objects.values_list("slug", flat=True))
