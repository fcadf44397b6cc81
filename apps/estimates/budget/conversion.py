"""Amounts of a budget in other currencies, converted into its own: cost lines entered in another
currency, and the fiscal years the manager gives a rate of their own.

The estimate's prices are published in one currency (US dollars) and its lines arrive converted
already, at the rate of the project's rate date. A fiscal year with a rate of its own has those
lines' months multiplied by that rate over the rate date's, so the year is as if converted at its
own rate. A cost line entered in another currency has each month's amount converted at the rate
of that currency on the rate date; one in the prices' currency follows each fiscal year's own
rate as the estimate's lines do. Each converted month is rounded to the cent once, so every sum
of months stays exact.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal

from apps.estimates.budget.fiscal import FiscalYear, month_index
from apps.estimates.budget.lines import ScheduledLine
from apps.estimates.money import to_money


@dataclass(frozen=True)
class Conversion:
    """How a budget's amounts in other currencies become its own.

    price_currency: the currency the estimate's prices are published in ("USD").
    rates: 1 unit of each currency in the budget's currency, at the project's rate date; holds
    the prices' currency (the rate the estimate's lines arrive converted at) and every other
    currency a cost line is entered in.
    year_rates: 1 unit of the prices' currency in the budget's, by fiscal year label ("FY2027"),
    for the years the manager gives a rate of their own; every other year uses `rates`.
    """

    price_currency: str
    rates: Mapping[str, Decimal] = field(default_factory=dict)
    year_rates: Mapping[str, Decimal] = field(default_factory=dict)

    def rate(self, currency: str, year_label: str | None) -> Decimal:
        """1 unit of `currency` in the budget's currency in the fiscal year `year_label` (None:
        a month outside the period, converted at the rate date's rate)."""
        if currency == self.price_currency and year_label in self.year_rates:
            return self.year_rates[year_label]
        return self.rates[currency]

    def computed_factor(self, year_label: str | None) -> Decimal:
        """What the estimate's lines, converted at the rate date, are multiplied by in a year:
        its own rate over the rate date's (1 without one)."""
        if year_label not in self.year_rates:
            return Decimal(1)
        return self.year_rates[year_label] / self.rates[self.price_currency]


def _labels_by_month(years: tuple[FiscalYear, ...]) -> dict[int, str]:
    return {
        month: year.label
        for year in years
        for month in range(month_index(year.start), month_index(year.end) + 1)
    }


def _scaled(line: ScheduledLine, factor_of) -> ScheduledLine:
    monthly = tuple(
        (day, to_money(amount * factor_of(month_index(day)))) for day, amount in line.monthly
    )
    return replace(line, monthly=monthly)


def converted_lines(
    lines: list[ScheduledLine],
    currencies: list[str | None],
    years: tuple[FiscalYear, ...],
    conversion: Conversion,
) -> list[ScheduledLine]:
    """Cost lines (each in `currencies`' currency at the same position; None: the budget's own)
    with every month in the budget's currency."""
    labels = _labels_by_month(years)
    converted = []
    for line, currency in zip(lines, currencies, strict=True):
        if currency is None:
            converted.append(line)
        else:
            converted.append(
                _scaled(line, lambda month, c=currency: conversion.rate(c, labels.get(month)))
            )
    return converted


def computed_at_year_rates(
    lines: list[ScheduledLine], years: tuple[FiscalYear, ...], conversion: Conversion
) -> list[ScheduledLine]:
    """The estimate's lines with the months of each fiscal year that has a rate of its own
    converted at it."""
    if not conversion.year_rates:
        return lines
    labels = _labels_by_month(years)
    return [
        _scaled(line, lambda month: conversion.computed_factor(labels.get(month))) for line in lines
    ]
