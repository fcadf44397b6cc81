"""A request's capacity rented on commitment, resolved against the catalogue: the term, the
upfront share and the discount against on demand, given, the provider's published one, or the
median of those the providers publish (as the rental price is the median of the offers)."""

from decimal import Decimal
from statistics import median

from apps.catalogue.models import CommitmentDiscount, payment_of
from apps.catalogue.resolution import RequestErrors, Resolution
from apps.catalogue.snapshot import Catalogue
from apps.estimates.messages import Day, Number, _, ngettext, number

COMMITMENT_NUMBERS = ("commitment_years", "upfront_share", "committed_accelerators")
PAYMENT_WORDS = {
    CommitmentDiscount.Payment.NO_UPFRONT: _("no upfront"),
    CommitmentDiscount.Payment.PARTIAL_UPFRONT: _("partial upfront"),
    CommitmentDiscount.Payment.ALL_UPFRONT: _("all upfront"),
}


def commitment_for(
    data: dict, catalogue: Catalogue, errors: RequestErrors, resolution: Resolution
) -> dict:
    """The inference's commitment fields for the engine. Capacity paid otherwise keeps what it
    is given (the engine reads none of it); committed capacity takes the discount given, else
    the catalogue's for the provider, term and payment option, else, without a provider, the
    median of the providers' for the term and payment option; an error, at the discount, where
    none is published, and a note saying where the discount came from."""
    fields = {name: data[name] for name in COMMITMENT_NUMBERS if data.get(name) is not None}
    discount = data.get("commitment_discount")
    if discount is not None or data.get("provisioning") != "committed":
        if discount is not None:
            fields["commitment_discount"] = discount
        return fields
    provider = data.get("commitment_provider")
    years = int(data.get("commitment_years", 1))
    payment = payment_of(float(data.get("upfront_share", 0.0)))
    if not provider:
        return _median_of_providers(fields, years, payment, catalogue, errors, resolution)
    row = catalogue.commitment_discounts.get((provider, years, payment))
    names = {
        "provider": CommitmentDiscount.Provider(provider).label,
        "years": years,
        "payment": PAYMENT_WORDS[payment],
    }
    if row is None or row.discount is None:
        errors.add(
            "inference.commitment_discount",
            _(
                "The catalogue has no published discount for %(provider)s, %(years)s-year, "
                "%(payment)s: give the discount of your offer.",
                **names,
            ),
        )
        return fields
    fields["commitment_discount"] = float(row.discount)
    resolution.note(
        "inference",
        _(
            "Commitment discount %(discount)s off on demand: %(provider)s, %(years)s-year, "
            "%(payment)s (%(program)s, %(applies_to)s), as of %(as_of)s, evidence %(evidence)s; "
            "applied to the scenario's price per accelerator-hour.",
            discount=number(row.discount, "percent"),
            program=row.program,
            applies_to=row.applies_to,
            as_of=Day(row.as_of),
            evidence=row.evidence,
            **names,
        ),
    )
    return fields


def _median_of_providers(
    fields: dict,
    years: int,
    payment: str,
    catalogue: Catalogue,
    errors: RequestErrors,
    resolution: Resolution,
) -> dict:
    published = [
        row.discount
        for (_provider, term, paid), row in catalogue.commitment_discounts.items()
        if term == years and paid == payment and row.discount is not None
    ]
    names = {"years": years, "payment": PAYMENT_WORDS[payment]}
    if not published:
        errors.add(
            "inference.commitment_discount",
            _(
                "No provider in the catalogue publishes a discount for a %(years)s-year "
                "commitment, %(payment)s: give the discount of your offer.",
                **names,
            ),
        )
        return fields
    discount = Decimal(median(published))
    fields["commitment_discount"] = float(discount)
    resolution.note(
        "inference",
        ngettext(
            "Commitment discount %(discount)s off on demand: the median of %(providers)s "
            "provider's published discount for a %(years)s-year commitment, %(payment)s (the "
            "catalogue gives each with its source); applied to the scenario's price per "
            "accelerator-hour.",
            "Commitment discount %(discount)s off on demand: the median of %(providers)s "
            "providers' published discounts for a %(years)s-year commitment, %(payment)s (the "
            "catalogue gives each with its source); applied to the scenario's price per "
            "accelerator-hour.",
            "providers",
            discount=number(discount, "percent"),
            providers=Number(len(published), "whole"),
            **names,
        ),
    )
    return fields
