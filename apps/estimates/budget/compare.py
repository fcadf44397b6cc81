"""Budgets side by side: a version's changes per line and fiscal year, and portfolio sums."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.estimates.budget.fiscal import FiscalYear
from apps.estimates.budget.results import Budget

ZERO = Decimal("0.00")
_TOTAL_ROWS = ("capex", "opex", "contingency", "indirect", "total")


def _labels(*year_lists: Sequence[FiscalYear]) -> tuple[str, ...]:
    """Every fiscal year's label once, in date order (by the earliest start seen for it)."""
    starts = {}
    for years in year_lists:
        for year in years:
            starts[year.label] = min(year.start, starts.get(year.label, year.start))
    return tuple(sorted(starts, key=starts.__getitem__))


def _align(
    labels: Sequence[str], years: Sequence[FiscalYear], amounts: Sequence[Decimal]
) -> tuple[Decimal, ...]:
    by_label = {year.label: amount for year, amount in zip(years, amounts, strict=True)}
    return tuple(by_label.get(label, ZERO) for label in labels)


@dataclass(frozen=True)
class ChangedRow:
    """One row of two budgets, amounts per fiscal year of `BudgetDiff.fiscal_years`.

    previous, new: the row's amounts (0 in a fiscal year the budget does not cover), or None
    when that budget has no such line; difference = new − previous, an absent line counting 0.
    The totals are the sums of those amounts.
    """

    name: str
    kind: str  # a line's kind, or "totals" for the rows below the lines
    previous: tuple[Decimal, ...] | None
    new: tuple[Decimal, ...] | None
    difference: tuple[Decimal, ...]
    previous_total: Decimal | None
    new_total: Decimal | None
    difference_total: Decimal

    @property
    def changed(self) -> bool:
        return self.previous != self.new


@dataclass(frozen=True)
class BudgetDiff:
    """Previous / new / difference, per line and fiscal year (the union of both budgets' years).

    Lines are matched by kind and name (the n-th line of a kind and name with the n-th); lines
    come in the new budget's order, then those only the previous one had. totals: the rows
    capex, opex, contingency, indirect and total, in that order, with kind "totals".
    """

    fiscal_years: tuple[str, ...]
    lines: tuple[ChangedRow, ...]
    totals: tuple[ChangedRow, ...]


type Amounts = tuple[Decimal, ...]


def _row(name: str, kind: str, previous: Amounts | None, new: Amounts | None) -> ChangedRow:
    size = len(previous if previous is not None else new)
    before = previous if previous is not None else (ZERO,) * size
    after = new if new is not None else (ZERO,) * size
    return ChangedRow(
        name=name,
        kind=kind,
        previous=previous,
        new=new,
        difference=tuple(b - a for a, b in zip(before, after, strict=True)),
        previous_total=None if previous is None else sum(previous, ZERO),
        new_total=None if new is None else sum(new, ZERO),
        difference_total=sum(after, ZERO) - sum(before, ZERO),
    )


def _keyed(budget: Budget) -> dict[tuple[str, str, int], Amounts]:
    keyed, seen = {}, {}
    for line in budget.lines:
        number = seen[line.kind, line.name] = seen.get((line.kind, line.name), -1) + 1
        keyed[line.kind, line.name, number] = line.amounts
    return keyed


def budget_diff(previous: Budget, new: Budget) -> BudgetDiff:
    """What changed from `previous` to `new`, line by line and fiscal year by fiscal year."""
    labels = _labels(previous.fiscal_years, new.fiscal_years)
    before, after = _keyed(previous), _keyed(new)

    def aligned(budget: Budget, amounts: Amounts | None) -> Amounts | None:
        return None if amounts is None else _align(labels, budget.fiscal_years, amounts)

    lines = []
    for key in list(after) + [key for key in before if key not in after]:
        kind, name, _ = key
        lines.append(
            _row(name, kind, aligned(previous, before.get(key)), aligned(new, after.get(key)))
        )
    return BudgetDiff(
        fiscal_years=labels,
        lines=tuple(lines),
        totals=tuple(
            _row(
                row,
                "totals",
                aligned(previous, getattr(previous.totals, row)),
                aligned(new, getattr(new.totals, row)),
            )
            for row in _TOTAL_ROWS
        ),
    )


@dataclass(frozen=True)
class PortfolioRow:
    """The lines of one class and UNDG category, summed over the budgets, per fiscal year."""

    budget_class: str
    category: int
    amounts: tuple[Decimal, ...]
    total: Decimal


@dataclass(frozen=True)
class Portfolio:
    """Many budgets summed by fiscal year × class × category (see `portfolio`).

    rows: the lines' sums, capex first, then by category. contingency_capex, contingency_opex,
    indirect and total: those rows of the budgets summed, per fiscal year; total includes every
    row. budgets: how many budgets were summed.
    """

    fiscal_years: tuple[str, ...]
    rows: tuple[PortfolioRow, ...]
    contingency_capex: tuple[Decimal, ...]
    contingency_opex: tuple[Decimal, ...]
    indirect: tuple[Decimal, ...]
    total: tuple[Decimal, ...]
    budgets: int


def portfolio(budgets: Iterable[Budget]) -> Portfolio:
    """Budgets summed by fiscal year × class × category, each cell the sum of the cells shown.

    Fiscal years are matched by label, so sum budgets of one fiscal calendar: "FY2026" of an
    October year and of a January year are different months under one name.
    """
    budgets = list(budgets)
    labels = _labels(*(budget.fiscal_years for budget in budgets))
    size = len(labels)
    cells: dict[tuple[str, int], list[Decimal]] = {}
    sums = {row: [ZERO] * size for row in ("contingency_capex", "contingency_opex", "indirect")}
    sums["total"] = [ZERO] * size

    def add(into: list[Decimal], budget: Budget, amounts: Sequence[Decimal]) -> None:
        for index, amount in enumerate(_align(labels, budget.fiscal_years, amounts)):
            into[index] += amount

    for budget in budgets:
        for line in budget.lines:
            add(
                cells.setdefault((line.budget_class, line.category), [ZERO] * size),
                budget,
                line.amounts,
            )
        for row, into in sums.items():
            add(into, budget, getattr(budget.totals, row))
    return Portfolio(
        fiscal_years=labels,
        rows=tuple(
            PortfolioRow(budget_class, category, tuple(amounts), sum(amounts, ZERO))
            for (budget_class, category), amounts in sorted(cells.items())
        ),
        contingency_capex=tuple(sums["contingency_capex"]),
        contingency_opex=tuple(sums["contingency_opex"]),
        indirect=tuple(sums["indirect"]),
        total=tuple(sums["total"]),
        budgets=len(budgets),
    )
