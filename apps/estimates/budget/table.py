"""The budget table: lines per fiscal year, subtotals, contingency, indirect, memo, summary."""

from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal

from apps.estimates.budget.conversion import (
    Conversion,
    computed_at_year_rates,
    converted_lines,
)
from apps.estimates.budget.fiscal import (
    FiscalCalendar,
    PeriodMonths,
    calendar_errors,
    fiscal_years,
    month_index,
)
from apps.estimates.budget.inputs import (
    Asset,
    BudgetInputError,
    BudgetRules,
    ComputedLines,
    rules_errors,
)
from apps.estimates.budget.lines import (
    BY_THRESHOLD,
    KINDS,
    CostLineInput,
    ScheduledLine,
    decimal,
    line_errors,
    payments_class,
    schedule,
)
from apps.estimates.budget.results import Budget, BudgetLine, Memo, Summary, Totals
from apps.estimates.messages import Message, _, number
from apps.estimates.money import to_money

ZERO = Decimal("0.00")


def _validate(
    calendar: FiscalCalendar,
    rules: BudgetRules,
    lines: Sequence[CostLineInput],
    conversion: Conversion | None,
):
    errors = {}
    for prefix, found in (("calendar", calendar_errors(calendar)), ("rules", rules_errors(rules))):
        errors.update({f"{prefix}.{key}": messages for key, messages in found.items()})
    for index, line in enumerate(lines):
        errors.update({f"lines.{index}.{k}": m for k, m in line_errors(line).items()})
        if line.currency is not None and (
            conversion is None or line.currency not in conversion.rates
        ):
            errors[f"lines.{index}.currency"] = [
                _(
                    "No exchange rate converts %(currency)s into the budget's currency.",
                    currency=line.currency,
                )
            ]
    if errors:
        raise BudgetInputError(errors)


# A line's monthly amounts keyed by `month_index`, worked out once per line.
type ByMonth = list[tuple[int, Decimal]]


def _cells(by_month: ByMonth, period: PeriodMonths) -> list[Decimal]:
    """Monthly amounts summed into the fiscal years; months outside the period are left out."""
    cells = [ZERO] * period.year_count
    for month, amount in by_month:
        position = period.year_of.get(month)
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


def _outside_note(line: ScheduledLine, by_month: ByMonth, period: PeriodMonths) -> Message | None:
    outside = [amount for month, amount in by_month if month not in period]
    if not outside:
        return None
    return _(
        "%(line)s: %(months)s month(s) outside the planning period left out (%(amount)s).",
        line=line.name,
        months=len(outside),
        amount=number(sum(outside, ZERO), "two_places"),
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


def _by_year(monthly: tuple[tuple, ...] | None, period: PeriodMonths) -> tuple[float, ...] | None:
    """Monthly figures (first day of the month, amount) summed by fiscal year of the period."""
    if monthly is None:
        return None
    years = [0.0] * period.year_count
    for day, amount in monthly:
        position = period.year_of.get(month_index(day))
        if position is not None:
            years[position] += amount
    return tuple(years)


def _idle_memo(computed: ComputedLines, period: PeriodMonths) -> tuple[Decimal, ...] | None:
    if computed.idle_commitment is None:
        return None
    return tuple(_cells([(month_index(day), a) for day, a in computed.idle_commitment], period))


def _classed(
    lines: Sequence[ScheduledLine], threshold: Decimal
) -> tuple[list[ScheduledLine], list[Message]]:
    """The computed lines with the capitalisation threshold rule applied where they leave their
    class to it (`BY_THRESHOLD`), and a note for each saying what the rule made of it."""
    classed, notes = [], []
    for line in lines:
        if line.budget_class == BY_THRESHOLD:
            line = replace(line, budget_class=payments_class(line, threshold))
            notes.append(
                _(
                    "%(line)s: each payment is at or above the capitalisation threshold of "
                    "%(threshold)s, so the threshold rule counts it as capex; if your "
                    "organisation treats a prepaid service as a running cost, count it as opex.",
                    line=line.name,
                    threshold=number(threshold, "two_places"),
                )
                if line.budget_class == "capex"
                else _(
                    "%(line)s: below the capitalisation threshold of %(threshold)s, so the "
                    "threshold rule counts it as opex.",
                    line=line.name,
                    threshold=number(threshold, "two_places"),
                )
            )
        classed.append(line)
    return classed, notes


def _annual_run_rate(
    lines: Sequence[ScheduledLine], by_months: Sequence[ByMonth], period: PeriodMonths
) -> Decimal:
    months = period.last - period.first + 1
    since = max(period.first, period.last - 11)
    opex = sum(
        (
            amount
            for line, by_month in zip(lines, by_months, strict=True)
            if line.budget_class == "opex"
            for month, amount in by_month
            if since <= month <= period.last
        ),
        ZERO,
    )
    return opex if months >= 12 else to_money(opex * 12 / months)


def _threshold_in(
    line: CostLineInput, threshold: Decimal, conversion: Conversion | None
) -> Decimal:
    """The capitalisation threshold in the line's currency, at the rate date's rate."""
    if line.currency is None or conversion is None:
        return threshold
    return threshold / conversion.rates[line.currency]


def _npv(totals: Sequence[Decimal], rate: Decimal) -> Decimal:
    return to_money(sum((total / (1 + rate) ** k for k, total in enumerate(totals)), ZERO))


def monthly_lines(
    calendar: FiscalCalendar,
    rules: BudgetRules,
    lines: Sequence[CostLineInput],
    computed: ComputedLines,
    conversion: Conversion | None = None,
) -> tuple[list[ScheduledLine], list[ScheduledLine], list]:
    """Every line as cash per month in the budget's currency, as the budget sums them: the
    lines people add scheduled (in their order), the estimate's lines classed by the
    capitalisation threshold, both converted month by month with a `conversion`; and the notes
    the classing gives. Raises BudgetInputError."""
    _validate(calendar, rules, lines, conversion)
    years = fiscal_years(calendar)
    threshold = decimal(rules.capitalisation_threshold)
    scheduled = [
        schedule(line, _threshold_in(line, threshold, conversion), calendar.period_end)
        for line in lines
    ]
    computed_lines, class_notes = _classed(computed.lines, threshold)
    if conversion is not None:
        scheduled = converted_lines(scheduled, [line.currency for line in lines], years, conversion)
        computed_lines = computed_at_year_rates(computed_lines, years, conversion)
    return scheduled, computed_lines, class_notes


def budget(
    calendar: FiscalCalendar,
    rules: BudgetRules,
    lines: Sequence[CostLineInput] = (),
    computed: ComputedLines | None = None,
    prices_as_of: date | None = None,
    conversion: Conversion | None = None,
) -> Budget:
    """The budget of a scenario: its lines people add and the lines its estimate adds.

    Every line becomes cash per month (rounded to the cent per month, see `ScheduledLine`),
    months outside the planning period are dropped (with a note), and the months are summed
    into fiscal years; every other figure is a sum or a rate of those cells, each rounded to the
    cent, so that every total equals the sum of the cells shown. With a `conversion`, lines
    entered in another currency and the fiscal years with a rate of their own are converted
    month by month (budget.conversion). Raises BudgetInputError.
    """
    computed = ComputedLines() if computed is None else computed
    # First: it validates the calendar, the rules and the lines, all their errors at once.
    scheduled, computed_lines, class_notes = monthly_lines(
        calendar, rules, lines, computed, conversion
    )
    years = fiscal_years(calendar)
    period = PeriodMonths(years)
    currency_of = {id(line): given.currency for line, given in zip(scheduled, lines, strict=True)}
    rows = sorted(
        [(line, True) for line in computed_lines] + [(line, False) for line in scheduled],
        key=lambda row: KINDS.index(row[0].kind),
    )
    lines_in_order = [line for line, _ in rows]
    by_months = [
        [(month_index(day), amount) for day, amount in line.monthly] for line in lines_in_order
    ]
    cells = [_cells(by_month, period) for by_month in by_months]
    capex = _class_sum(rows, cells, "capex", period.year_count)
    opex = _class_sum(rows, cells, "opex", period.year_count)
    contingency_capex = _rate_of(capex, decimal(rules.contingency_capex))
    contingency_opex = _rate_of(opex, decimal(rules.contingency_opex))
    contingency = _sum(contingency_capex, contingency_opex)
    indirect = _rate_of(_sum(capex, opex, contingency), decimal(rules.indirect_rate))
    total = _sum(capex, opex, contingency, indirect)
    grand_total = sum(total, ZERO)
    energy, emissions = _energy_memo(computed, period)
    notes = [
        note
        for line, by_month in zip(lines_in_order, by_months, strict=True)
        if (note := _outside_note(line, by_month, period))
    ]
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
                currency=None if is_computed else currency_of[id(line)],
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
            idle_commitment=_idle_memo(computed, period),
            embodied_kg_co2e=_by_year(computed.embodied_kg_co2e, period),
            water_litres=None
            if energy is None or computed.water_litres_per_kwh is None
            else tuple(kwh * computed.water_litres_per_kwh for kwh in energy),
        ),
        summary=Summary(
            upfront=sum(capex, ZERO),
            annual_run_rate=_annual_run_rate(lines_in_order, by_months, period),
            total=grand_total,
            npv=_npv(total, decimal(rules.discount_rate)),
            discount_rate=float(rules.discount_rate),
            prices_as_of=prices_as_of,
        ),
        notes=(*computed.notes, *class_notes, *notes),
    )
