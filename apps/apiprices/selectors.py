"""The API prices in force on a day, for the API, the catalogue page and estimates."""

import datetime
from dataclasses import dataclass

from apps.apiprices.models import ApiModel, ApiPrice


@dataclass(frozen=True)
class PriceInForce:
    api_model: ApiModel
    price: ApiPrice


def prices_in_force(
    day: datetime.date, *, provider: str = "", model: str = "", slug: str = ""
) -> list[PriceInForce]:
    """Every model (of `provider`, named `model`, with `slug`: each filter optional, matched
    without regard to case) with the price in force on `day`; models priced only later are left
    out."""
    models = ApiModel.objects.with_prices()
    if provider:
        models = models.filter(provider__iexact=provider)
    if model:
        models = models.filter(model__iexact=model)
    if slug:
        models = models.filter(slug=slug)
    rows = []
    for api_model in models:
        price = api_model.price_on(day)
        if price is not None:
            rows.append(PriceInForce(api_model, price))
    return rows


def price_in_force(slug: str, day: datetime.date) -> PriceInForce | None:
    """The model with this slug and its price on `day`; None if either is missing."""
    rows = prices_in_force(day, slug=slug)
    return rows[0] if rows else None
