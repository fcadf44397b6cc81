"""A request section's accelerator, resolved against the catalogue: its hardware figures at the
chosen precision, and its price (given, or the median of the catalogue's offers, with a note)."""

from decimal import Decimal
from functools import lru_cache

from apps.catalogue.models import Accelerator
from apps.catalogue.resolution import RequestErrors, Resolution
from apps.catalogue.snapshot import Catalogue, Prices
from apps.catalogue.suggestions import unknown_slug_message
from apps.estimates import Hardware, Pricing
from apps.estimates.messages import Message, Number, _, exact, ngettext

DEFAULT_LIFETIME_YEARS = 5.0


# A note on a catalogue median reads the same for every request that uses it: built once per
# way of paying, price, number of offers and accelerator name (a snapshot's few hundred at most).
@lru_cache(maxsize=2048)
def _median_note(rent: bool, price: Decimal, offers: int, accelerator: str) -> Message:
    params = {"price": exact(price), "offers": Number(offers, "whole"), "accelerator": accelerator}
    if rent:
        return ngettext(
            "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental "
            "offer for %(accelerator)s in the catalogue.",
            "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental "
            "offers for %(accelerator)s in the catalogue.",
            "offers",
            **params,
        )
    return ngettext(
        "Purchase price %(price)s USD per accelerator: the median of %(offers)s purchase "
        "price for %(accelerator)s in the catalogue.",
        "Purchase price %(price)s USD per accelerator: the median of %(offers)s purchase "
        "prices for %(accelerator)s in the catalogue.",
        "offers",
        **params,
    )


def _unpriced(rent: bool, accelerator: str) -> Message:
    """Why a training run the catalogue has no price for goes unpriced."""
    if rent:
        return _(
            "The catalogue has no rental price for %(accelerator)s: the training is not priced.",
            accelerator=accelerator,
        )
    return _(
        "The catalogue has no purchase price for %(accelerator)s: the training is not priced.",
        accelerator=accelerator,
    )


def _no_price(rent: bool, accelerator: Accelerator | None) -> Message:
    """The error of a price that serving needs, neither given nor in the catalogue."""
    if accelerator and rent:
        return _(
            "Give a price per accelerator-hour: the catalogue has no rental price for "
            "%(accelerator)s.",
            accelerator=str(accelerator),
        )
    if rent:
        return _(
            "Give a price per accelerator-hour: the catalogue has no rental price without an "
            "accelerator."
        )
    if accelerator:
        return _(
            "Give a purchase price: the catalogue has no purchase price for %(accelerator)s.",
            accelerator=str(accelerator),
        )
    return _("Give a purchase price: the catalogue has no purchase price without an accelerator.")


def pricing_for(
    section: str,
    data: dict,
    accelerator: Accelerator | None,
    catalogue: Catalogue,
    errors: RequestErrors,
    resolution: Resolution,
) -> Pricing:
    """The section's pricing. A price neither given nor in the catalogue is an error for
    serving; training goes unpriced (the engine says which price is missing). An accelerator
    not in the catalogue has its own error, so no second one about its price."""
    mode = data.get("pricing_mode", "rent")
    if accelerator is None and data.get("accelerator"):
        # An accelerator the catalogue lacks is reported once, on its own field.
        return Pricing(mode=mode)
    prices = catalogue.prices[accelerator.slug] if accelerator else Prices()
    price_needed = section != "training" and (
        accelerator is not None or not data.get("accelerator")
    )
    rent = mode == "rent"
    field = "price_per_accelerator_hour" if rent else "purchase_price"
    price, lifetime = data.get(field), data.get("lifetime_years")
    if price is None:
        price = prices.rent if rent else prices.purchase
        if price is None:
            if price_needed:
                errors.add(f"{section}.{field}", _no_price(rent, accelerator))
                return Pricing(mode="rent" if rent else "own")
            if accelerator is not None:
                resolution.note(section, _unpriced(rent, str(accelerator)))
        else:
            offers = prices.rent_offers if rent else prices.purchase_offers
            resolution.note(section, _median_note(rent, price, offers, str(accelerator)))
            if not rent and lifetime is None:
                lifetime = prices.lifetime_years
    price = None if price is None else float(price)
    if rent:
        return Pricing(mode="rent", price_per_accelerator_hour=price)
    return Pricing(
        mode="own",
        purchase_price=price,
        lifetime_years=float(lifetime if lifetime is not None else DEFAULT_LIFETIME_YEARS),
        utilization_of_owned=data.get("utilization_of_owned", 0.7),
    )


def accelerator_for(
    section: str, data: dict, catalogue: Catalogue, errors: RequestErrors, resolution: Resolution
) -> tuple[Accelerator | None, Hardware | None]:
    slug = data.get("accelerator")
    if not slug:
        return None, None
    accelerator = catalogue.accelerators.get(slug)
    if accelerator is None:
        errors.add(
            f"{section}.accelerator",
            unknown_slug_message(
                _("No accelerator %(slug)s in the catalogue.", slug=repr(slug)),
                slug,
                catalogue.accelerators,
            ),
        )
        return None, None
    resolution.accelerators[slug] = accelerator
    precision = data.get("precision", "bf16")
    hardware = catalogue.hardware.get((slug, precision))
    if hardware is None:
        supported = ", ".join(accelerator.supported_precisions) or _("none recorded")
        errors.add(
            f"{section}.precision",
            _(
                "%(accelerator)s cannot compute in %(precision)s: the catalogue has no "
                "published dense %(precision)s peak for it. Choose one of its precisions: "
                "%(supported)s.",
                accelerator=str(accelerator),
                precision=precision,
                supported=supported,
            ),
        )
    return accelerator, hardware
