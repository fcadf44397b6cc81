"""Prices in another currency: the dated exchange rate an estimate used, and its inputs converted.

Catalogue and API prices keep the currency they were published in (US dollars); the estimate of
a project in another currency multiplies every price of its inputs by one rate, so that every
figure the engine derives from them (costs, budget, NPV, options) is in the project's currency.
The engine is linear in its prices, so converting the inputs or the outputs gives the same
figures; converting the inputs keeps one path from the catalogue to every figure.
"""

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from apps.estimates.inputs import (
    EnergyProfile,
    EstimateInput,
    InferenceInput,
    Pricing,
    TrainingInput,
)
from apps.estimates.uncertainty_draws import PRICE_FIELDS, Range

# The source of a rate: the European Central Bank's euro reference rates, or an organisation's
# own table (its name is the source). PEGGED: a currency fixed to the euro by treaty, derived from
# the ECB's rate of the euro.
ECB = "ecb"
SAME = "same"
# The rate the project's manager gives a fiscal year (ExchangeRate.fiscal_year says which).
FISCAL_YEAR = "fiscal_year"


@dataclass(frozen=True)
class ExchangeRate:
    """1 `from_currency` = `rate` `to_currency`, the rate in force on `date` (the newest published
    on or before `asked`: a weekend asks for Saturday and gets Friday's), from `source` (ECB, or
    an organisation's table by its name); `pegged`: a currency fixed to the euro by treaty, whose
    fixed parity the rate includes."""

    from_currency: str
    to_currency: str
    rate: Decimal
    date: date | None
    asked: date | None
    source: str
    pegged: tuple[str, ...] = ()
    # The manager's 90 % range of the rate ("90 % sure 1 USD is between 0.85 and 1.00 EUR");
    # None: the rate is taken as fixed.
    low: Decimal | None = None
    high: Decimal | None = None
    # The label of the fiscal year whose amounts the rate converts ("FY2028"), when the manager
    # gave that year a rate of its own (source FISCAL_YEAR); None: every year without one.
    fiscal_year: str | None = None

    @property
    def fell_back(self) -> bool:
        """Whether the rate is of an earlier date than the one asked for."""
        return self.date is not None and self.asked is not None and self.date < self.asked

    @property
    def factor_range(self) -> Range | None:
        """The range as a 90 % interval of the factor it moves every converted price by
        (low / rate to high / rate); None without a range."""
        if self.low is None or self.high is None or self.is_identity or not self.rate:
            return None
        return Range(float(self.low / self.rate), float(self.high / self.rate))

    @property
    def is_identity(self) -> bool:
        return self.from_currency == self.to_currency


def identity(currency: str) -> ExchangeRate:
    """No conversion: prices already in `currency`."""
    return ExchangeRate(currency, currency, Decimal(1), None, None, SAME)


def _times(value, rate: Decimal):
    if value is None:
        return None
    if isinstance(value, Decimal):
        return value * rate
    return value * float(rate)


def price_in(value, exchange: ExchangeRate | None):
    """One price (a float, an array or a Decimal; None stays None) in `exchange.to_currency`."""
    if exchange is None or exchange.is_identity:
        return value
    return _times(value, exchange.rate)


def _pricing(pricing: Pricing, rate: Decimal) -> Pricing:
    return replace(
        pricing,
        price_per_accelerator_hour=_times(pricing.price_per_accelerator_hour, rate),
        purchase_price=_times(pricing.purchase_price, rate),
    )


def _training(training: TrainingInput | None, rate: Decimal) -> TrainingInput | None:
    if training is None:
        return None
    return replace(
        training,
        pricing=_pricing(training.pricing, rate),
        price_per_million_training_tokens=_times(training.price_per_million_training_tokens, rate),
    )


def _inference(inference: InferenceInput | None, rate: Decimal) -> InferenceInput | None:
    if inference is None:
        return None
    return replace(
        inference,
        pricing=_pricing(inference.pricing, rate),
        revenue_per_request=_times(inference.revenue_per_request, rate),
        price_per_million_input_tokens=_times(inference.price_per_million_input_tokens, rate),
        price_per_million_cached_input_tokens=_times(
            inference.price_per_million_cached_input_tokens, rate
        ),
        price_per_million_output_tokens=_times(inference.price_per_million_output_tokens, rate),
    )


def _energy(energy: EnergyProfile, rate: Decimal) -> EnergyProfile:
    return replace(energy, electricity_price_per_kwh=_times(energy.electricity_price_per_kwh, rate))


def converted(inputs: EstimateInput, exchange: ExchangeRate) -> EstimateInput:
    """`inputs` with every price (per accelerator-hour, per accelerator, per kWh, per million
    tokens, revenue per request) multiplied by the exchange rate: the same estimate in
    `exchange.to_currency`. Shares, counts and durations are left as they are."""
    if exchange.is_identity or exchange.rate == 1:
        return inputs
    rate = exchange.rate
    return replace(
        inputs,
        training=_training(inputs.training, rate),
        inference=_inference(inputs.inference, rate),
        energy=_energy(inputs.energy, rate),
    )


MONEY_FIELDS = PRICE_FIELDS


def converted_ranges(ranges: dict[str, Range], exchange: ExchangeRate) -> dict[str, Range]:
    """Ranges by engine path with those of prices multiplied by the rate, as `converted` does
    their inputs: a price's 90 % range is given in the currency the price is."""
    if exchange.is_identity or exchange.rate == 1:
        return ranges
    rate = float(exchange.rate)
    return {
        path: replace(value, low=value.low * rate, high=value.high * rate)
        if path.rpartition(".")[2] in MONEY_FIELDS
        else value
        for path, value in ranges.items()
    }
