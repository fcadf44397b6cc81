"""The exchange rate a project's figures are converted at: its table's (else the ECB's) rate
from the catalogue's US dollars to the project's currency, of its rate date (else the date of
the catalogue's prices)."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

from django.utils import timezone

from apps.catalogue.snapshot import Catalogue
from apps.estimates import EstimateInputError
from apps.estimates.currency import FISCAL_YEAR, ExchangeRate, identity
from apps.exchange.rates import RateUnavailable, cached_exchange_rate
from apps.projects.models import Project

# The currency the catalogue's and the API price catalogue's prices are published in.
PRICE_CURRENCY = "USD"


def catalogue_prices_as_of(catalogue: Catalogue) -> date | None:
    """The date of the catalogue's newest accelerator price (its rows are in memory)."""
    return max(
        (
            offer.as_of
            for accelerator in catalogue.accelerators.values()
            for offer in accelerator.price_offers.all()
        ),
        default=None,
    )


def rate_date(project: Project, catalogue: Catalogue) -> date:
    """The day whose rate converts the project's prices: the one the manager chose, else the
    date of the catalogue's prices, else today."""
    return project.rate_date or catalogue_prices_as_of(catalogue) or timezone.localdate()


def project_exchange(project: Project, catalogue: Catalogue | None = None) -> ExchangeRate:
    """1 US dollar in the project's currency, at its table's rate of its rate date (one cache
    read once known), with the manager's 90 % range of it when given; raises
    EstimateInputError (on "currency") when no rate is found on or before that day."""
    if project.currency == PRICE_CURRENCY:
        return identity(PRICE_CURRENCY)
    catalogue = catalogue or Catalogue.load()
    try:
        exchange = cached_exchange_rate(
            PRICE_CURRENCY, project.currency, rate_date(project, catalogue), project.rate_table_id
        )
    except RateUnavailable as error:
        # Refused as any input the estimate cannot use, never converted at zero.
        raise EstimateInputError({"currency": [error.message]}) from None
    if project.rate_low is None or project.rate_high is None:
        return exchange
    return replace(exchange, low=project.rate_low.normalize(), high=project.rate_high.normalize())


def exchange_key(project: Project, catalogue: Catalogue) -> str:
    """What of the rate a project's figures depend on, for the key of the figures kept: the rate,
    its date and source (or why there is none)."""
    try:
        exchange = project_exchange(project, catalogue)
    except EstimateInputError as error:
        return repr(error.errors)
    return (
        f"{exchange.rate}:{exchange.date}:{exchange.source}:{exchange.to_currency}:"
        f"{exchange.low}:{exchange.high}:{sorted((project.fiscal_year_rates or {}).items())}"
    )


def currency_exchange(project: Project, currency: str, catalogue: Catalogue) -> ExchangeRate:
    """1 unit of `currency` (a cost line's) in the project's currency, at its table's rate of
    its rate date; raises EstimateInputError (on "currency") when there is none."""
    try:
        return cached_exchange_rate(
            currency, project.currency, rate_date(project, catalogue), project.rate_table_id
        )
    except RateUnavailable as error:
        raise EstimateInputError({"currency": [error.message]}) from None


def year_exchanges(project: Project, labels: list[str]) -> tuple[ExchangeRate, ...]:
    """The rate the manager gives each of the fiscal years `labels` that has one of its own,
    in their order: 1 US dollar in the project's currency that year."""
    given = project.fiscal_year_rates or {}
    if project.currency == PRICE_CURRENCY:
        return ()
    return tuple(
        ExchangeRate(
            from_currency=PRICE_CURRENCY,
            to_currency=project.currency,
            rate=Decimal(given[label]).normalize(),
            date=None,
            asked=None,
            source=FISCAL_YEAR,
            fiscal_year=label,
        )
        for label in labels
        if label in given
    )
