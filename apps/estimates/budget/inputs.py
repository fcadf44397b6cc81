"""Inputs of a budget besides its cost lines: the rules, owned assets and the computed lines."""

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from apps.estimates.budget.lines import ScheduledLine, decimal
from apps.estimates.messages import Message, _


@dataclass(frozen=True)
class BudgetRules:
    """An organisation's budgeting rules (rates are fractions: 0.035 = 3.5 %).

    capitalisation_threshold: a one-off line of at least this amount is capex (see
    `budget_class_of`). discount_rate: a year, for the net present value (real or nominal, as
    the caller states). contingency_capex, contingency_opex: added on each class's subtotal.
    indirect_rate: indirect support costs on capex + opex + contingency.
    """

    capitalisation_threshold: Decimal | float | int = Decimal(5000)
    discount_rate: Decimal | float = 0.035
    contingency_capex: Decimal | float = 0.0
    contingency_opex: Decimal | float = 0.0
    indirect_rate: Decimal | float = 0.0


@dataclass(frozen=True)
class Asset:
    """Owned equipment written off straight-line: a memo row, not cash.

    Depreciation a year = (price − residual_value) / lifetime_years, spread evenly over the
    months in service from the month bought (the month of `bought` counts whole) until its
    lifetime is used up; a fiscal year gets the months of service it holds.
    """

    name: str
    bought: date
    price: Decimal
    residual_value: Decimal
    lifetime_years: float


@dataclass(frozen=True)
class ComputedLines:
    """What the estimate adds to a budget (see `compute_lines`): lines, assets, energy, notes.

    energy_kwh: (first day of the month, facility energy in kWh) in date order; None when the
    accelerators' power is unknown. kg_co2e_per_kwh: grid intensity; None when unknown.
    idle_commitment: (first day of the month, cost of the committed capacity left idle) in date
    order, within the planning period; None without capacity rented on commitment.
    water_litres_per_kwh: water per kWh of facility energy (on site and at the power plant);
    None when not published. embodied_kg_co2e: (first day of the month, the hardware's embodied
    emissions for that month's accelerator-hours) in date order; None when not published.
    """

    lines: tuple[ScheduledLine, ...] = ()
    assets: tuple[Asset, ...] = ()
    energy_kwh: tuple[tuple[date, float], ...] | None = None
    kg_co2e_per_kwh: float | None = None
    notes: tuple[Message, ...] = ()
    idle_commitment: tuple[tuple[date, Decimal], ...] | None = None
    water_litres_per_kwh: float | None = None
    embodied_kg_co2e: tuple[tuple[date, float], ...] | None = None


class BudgetInputError(ValueError):
    """Invalid budget input; `errors` maps dotted paths ("lines.0.end") to plain messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(m)}" for key, m in errors.items()))


def rules_errors(rules: BudgetRules) -> dict[str, list[Message]]:
    """Plain-language problems of the rules, by field name; empty when they are valid."""
    errors = {}
    for field in (
        "capitalisation_threshold",
        "contingency_capex",
        "contingency_opex",
        "indirect_rate",
    ):
        value = decimal(getattr(rules, field))
        if not value.is_finite() or value < 0:
            errors[field] = [_("Enter a finite number of zero or more.")]
    rate = float(rules.discount_rate)
    if not math.isfinite(rate) or rate <= -1:
        errors["discount_rate"] = [_("Enter a discount rate above −100 %%, e.g. 0.035 for 3.5 %%.")]
    return errors
