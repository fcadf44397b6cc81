"""The budget table: lines per fiscal year, subtotals, contingency, indirect, memo, summary."""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from apps.estimates.budget.fiscal import (
    FiscalCalendar,
    FiscalYear,
    PeriodMonths,
    calendar_errors,
    fiscal_years,
    month_index,
)
from apps.estimates.budget.lines import (
    KINDS,
    CostLineInput,
    ScheduledLine,
    decimal,
    line_errors,
    schedule,
)
from apps.estimates.money import to_money

ZERO = Decimal("0.00")


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
    """

    lines: tuple[ScheduledLine, ...] = ()
    assets: tuple[Asset, ...] = ()
    energy_kwh: tuple[tuple[date, float], ...] | None = None
    kg_co2e_per_kwh: float | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BudgetLine:
    """One row of the budget table.

    amounts: one per fiscal year, each the sum of the line's monthly amounts (rounded to the
    cent per month) within that year; total: the sum of `amounts`, exactly. share: total as a
    fraction of the budget's total (contingency and indirect costs included), None when that
    total is zero. computed: True for the lines the estimate adds.
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
    """

    depreciation: tuple[Decimal, ...]
    energy_kwh: tuple[float, ...] | None
    emissions_kg_co2e: tuple[float, ...] | None


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
    fiscal_years: tuple[FiscalYear, ...]
    lines: tuple[BudgetLine, ...]  # computed lines first, then by kind (see `KINDS`)
    totals: Totals
    memo: Memo
    summary: Summary
    notes: tuple[str, ...]


class BudgetInputError(ValueError):
    """Invalid budget input; `errors` maps dotted paths ("lines.0.end") to plain messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(m)}" for key, m in errors.items()))


def rules_errors(rules: BudgetRules) -> dict[str, list[str]]:
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
            errors[field] = ["Enter a finite number of zero or more."]
    rate = float(rules.discount_rate)
    if not math.isfinite(rate) or rate <= -1:
        errors["discount_rate"] = ["Enter a discount rate above −100 %, e.g. 0.035 for 3.5 %."]
    return errors


def _validate(calendar: FiscalCalendar, rules: BudgetRules, lines: Sequence[CostLineInput]):
    errors = {}
    for prefix, found in (("calendar", calendar_errors(calendar)), ("rules", rules_errors(rules))):
        errors.update({f"{prefix}.{key}": messages for key, messages in found.items()})
    for index, line in enumerate(lines):
        errors.update({f"lines.{index}.{k}": m for k, m in line_errors(line).items()})
    if errors:
        raise BudgetInputError(errors)


def _cells(monthly: Iterable[tuple[date, Decimal]], period: PeriodMonths) -> list[Decimal]:
    """Monthly amounts summed into the fiscal years; months outside the period are left out."""
    cells = [ZERO] * period.year_count
    for day, amount in monthly:
        position = period.year_of.get(month_index(day))
        if position is not None:
            cells[position] += amount
    return cells


def _class_sum(rows: Sequence, cells: Sequence, budget_class: str, size: int) -> tuple:
    of_class = [
        c for (line, _), c in zip(rows, cells, strict=True) if line.budget_class == budget_class
    ]
    return _sum([ZERO] * size, *of_class)


def _rate_of(cells: Sequence[Decimal], rate: Decimal) -> tuple[Decimal, ...]:
    return tuple(to_money(cell * rate) for cell in cells)


def _sum(*rows: Sequence[Decimal]) -> tuple[Decimal, ...]:
    return tuple(sum(column, ZERO) for column in zip(*rows, strict=True))


def _outside_note(line: ScheduledLine, period: PeriodMonths) -> str | None:
    outside = [amount for day, amount in line.monthly if month_index(day) not in period]
    if not outside:
        return None
    return (
        f"{line.name}: {len(outside)} month(s) outside the planning period left out "
        f"({sum(outside, ZERO):,.2f})."
    )


def _depreciation(assets: Sequence[Asset], period: PeriodMonths) -> tuple[Decimal, ...]:
    cells = [Decimal(0)] * period.year_count
    for asset in assets:
        months_of_life = decimal(asset.lifetime_years) * 12
        per_month = (asset.price - asset.residual_value) / months_of_life
        bought = month_index(asset.bought)
        for month in range(max(bought, period.first), period.last + 1):
            in_service = min(Decimal(1), months_of_life - (month - bought))
            if in_service <= 0:
                break
            cells[period.year_of[month]] += per_month * in_service
    return tuple(to_money(cell) for cell in cells)


def _energy_memo(
    computed: ComputedLines, period: PeriodMonths
) -> tuple[tuple | None, tuple | None]:
    if computed.energy_kwh is None:
        return None, None
    energy = [0.0] * period.year_count
    for day, kwh in computed.energy_kwh:
        position = period.year_of.get(month_index(day))
        if position is not None:
            energy[position] += kwh
    intensity = computed.kg_co2e_per_kwh
    emissions = None if intensity is None else tuple(kwh * intensity for kwh in energy)
    return tuple(energy), emissions


def _annual_run_rate(lines: Sequence[ScheduledLine], period: PeriodMonths) -> Decimal:
    months = period.last - period.first + 1
    since = max(period.first, period.last - 11)
    opex = sum(
        (
            amount
            for line in lines
            if line.budget_class == "opex"
            for day, amount in line.monthly
            if since <= month_index(day) <= period.last
        ),
        ZERO,
    )
    return opex if months >= 12 else to_money(opex * 12 / months)


def _npv(totals: Sequence[Decimal], rate: Decimal) -> Decimal:
    return to_money(sum((total / (1 + rate) ** k for k, total in enumerate(totals)), ZERO))


def budget(
    calendar: FiscalCalendar,
    rules: BudgetRules,
    lines: Sequence[CostLineInput] = (),
    computed: ComputedLines = ComputedLines(),
    prices_as_of: date | None = None,
) -> Budget:
    """The budget of a scenario: its lines people add and the lines its estimate adds.

    Every line becomes cash per month (rounded to the cent per month, see `ScheduledLine`),
    months outside the planning period are dropped (with a note), and the months are summed
    into fiscal years; every other figure is a sum or a rate of those cells, each rounded to the
    cent, so that every total equals the sum of the cells shown. Raises BudgetInputError.
    """
    _validate(calendar, rules, lines)
    years = fiscal_years(calendar)
    period = PeriodMonths(years)
    threshold = decimal(rules.capitalisation_threshold)
    scheduled = [schedule(line, threshold, calendar.period_end) for line in lines]
    rows = sorted(
        [(line, True) for line in computed.lines] + [(line, False) for line in scheduled],
        key=lambda row: KINDS.index(row[0].kind),
    )
    cells = [_cells(line.monthly, period) for line, _ in rows]
    capex = _class_sum(rows, cells, "capex", period.year_count)
    opex = _class_sum(rows, cells, "opex", period.year_count)
    contingency_capex = _rate_of(capex, decimal(rules.contingency_capex))
    contingency_opex = _rate_of(opex, decimal(rules.contingency_opex))
    contingency = _sum(contingency_capex, contingency_opex)
    indirect = _rate_of(_sum(capex, opex, contingency), decimal(rules.indirect_rate))
    total = _sum(capex, opex, contingency, indirect)
    grand_total = sum(total, ZERO)
    energy, emissions = _energy_memo(computed, period)
    notes = [note for line, _ in rows if (note := _outside_note(line, period))]
    return Budget(
        fiscal_years=years,
        lines=tuple(
            BudgetLine(
                name=line.name,
                kind=line.kind,
                budget_class=line.budget_class,
                category=line.category,
                basis=line.basis,
                amounts=tuple(amounts),
                total=sum(amounts, ZERO),
                share=float(sum(amounts, ZERO) / grand_total) if grand_total else None,
                computed=is_computed,
            )
            for (line, is_computed), amounts in zip(rows, cells, strict=True)
        ),
        totals=Totals(
            capex=capex,
            opex=opex,
            contingency_capex=contingency_capex,
            contingency_opex=contingency_opex,
            contingency=contingency,
            indirect=indirect,
            total=total,
        ),
        memo=Memo(
            depreciation=_depreciation(computed.assets, period),
            energy_kwh=energy,
            emissions_kg_co2e=emissions,
        ),
        summary=Summary(
            upfront=sum(capex, ZERO),
            annual_run_rate=_annual_run_rate([line for line, _ in rows], period),
            total=grand_total,
            npv=_npv(total, decimal(rules.discount_rate)),
            discount_rate=float(rules.discount_rate),
            prices_as_of=prices_as_of,
        ),
        notes=(*computed.notes, *notes),
    )
