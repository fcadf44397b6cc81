"""Results of the budget arithmetic: the table's rows, the memo rows and the summary strip."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from apps.estimates.budget.fiscal import FiscalYear


@dataclass(frozen=True)
class BudgetLine:
    """One row of the budget table.

    amounts: one per fiscal year, each the sum of the line's monthly amounts (rounded to the
    cent per month) within that year; total: the sum of `amounts`, exactly. share: total as a
    fraction of the budget's total (contingency and indirect costs included), None when that
    total is zero. computed: True for the lines the estimate adds. currency: the currency a
    line people add was entered in when not the budget's own (its amounts here are converted).
    """

    name: str
    kind: str
    budget_class: str
    category: int
    basis: str
    amounts: tuple[Decimal, ...]
    total: Decimal
    share: float | None
    computed: bool
    currency: str | None = None


@dataclass(frozen=True)
class Totals:
    """Rows below the lines, one amount per fiscal year, each rounded to the cent.

    capex, opex: sums of the lines of each class. contingency_capex = capex × contingency_capex
    rate, contingency_opex likewise, contingency = their sum. indirect = indirect rate ×
    (capex + opex + contingency). total = capex + opex + contingency + indirect.
    """

    capex: tuple[Decimal, ...]
    opex: tuple[Decimal, ...]
    contingency_capex: tuple[Decimal, ...]
    contingency_opex: tuple[Decimal, ...]
    contingency: tuple[Decimal, ...]
    indirect: tuple[Decimal, ...]
    total: tuple[Decimal, ...]


@dataclass(frozen=True)
class Memo:
    """Memo rows, not cash and not in the totals, one figure per fiscal year.

    depreciation: straight-line write-off of owned hardware (see `Asset`), to the cent.
    energy_kwh: facility energy of training and serving, in kWh (None: power unknown).
    emissions_kg_co2e: energy × grid intensity, operational only (None: either unknown).
    idle_commitment: the cost of capacity rented on commitment left idle, its committed hours
    not busy at the committed price, to the cent (None: no commitment). Inside the cash lines
    already: a memo of how much of them buys nothing.
    embodied_kg_co2e: the hardware's manufacturing spread over the year's accelerator-hours
    (None: not published). water_litres: energy × water per kWh (None: not published).
    """

    depreciation: tuple[Decimal, ...]
    energy_kwh: tuple[float, ...] | None
    emissions_kg_co2e: tuple[float, ...] | None
    idle_commitment: tuple[Decimal, ...] | None = None
    embodied_kg_co2e: tuple[float, ...] | None = None
    water_litres: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Summary:
    """The summary strip.

    upfront: all capex of the period (contingency and indirect costs excluded).
    annual_run_rate: steady-state opex: the opex lines' amounts in the last 12 months of the
    period, or, for a period shorter than a year, its opex scaled to 12 months (contingency and
    indirect costs excluded). total: the budget's total over the period, every row included.
    npv: net present value of the fiscal years' totals: the first fiscal year is year 0,
    undiscounted, year k is divided by (1 + discount_rate)^k, whatever its number of months.
    prices_as_of: the date of the prices used, as given.
    """

    upfront: Decimal
    annual_run_rate: Decimal
    total: Decimal
    npv: Decimal
    discount_rate: float
    prices_as_of: date | None


@dataclass(frozen=True)
class Budget:
    """A scenario's budget (see `budget`); money in the currency of its prices.

    lines: the computed lines first, then the lines people add, grouped by kind in the order of
    `KINDS`, each kind in the order given. notes: what the figures leave out (months outside
    the planning period, unknown power or prices) and how owned hardware is counted, in words.
    """

    fiscal_years: tuple[FiscalYear, ...]
    lines: tuple[BudgetLine, ...]
    totals: Totals
    memo: Memo
    summary: Summary
    notes: tuple[str, ...]
