"""Plan against actual by month and fiscal year, per kind of line, in money and usage: pure
arithmetic, no Django. Months are `month_index` numbers; money Decimal, rounded to the cent here.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from apps.actuals.forecast import ZERO, YearForecast, variance_share, year_forecast
from apps.estimates.budget.fiscal import FiscalYear, month_end, month_index, month_start
from apps.estimates.inputs import InferenceInput
from apps.estimates.money import to_money


@dataclass(frozen=True)
class Figures:
    """plan and actual; variance = actual − plan (over plan is positive); variance_share =
    variance / plan (None with nothing planned); forecast: the actual of a month that has
    passed, else its plan (a fiscal year's: `YearForecast.by_plan`)."""

    plan: Decimal
    actual: Decimal
    variance: Decimal
    variance_share: float | None
    forecast: Decimal


TOKEN_TYPES = ("input", "cached", "output")


@dataclass(frozen=True)
class Usage:
    """Accelerator-hours and tokens (input not read from a cache, cached input, output with
    any reasoning), planned (None: not planned in this unit) and actual."""

    accelerator_hours_plan: float | None
    accelerator_hours_actual: float
    tokens_actual: Mapping[str, int]
    tokens_plan: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Period:
    label: str
    start: date
    end: date
    total: Figures
    kinds: Mapping[str, Figures]
    usage: Usage
    forecast: YearForecast | None = None  # fiscal years only
    months: tuple["Period", ...] = ()

    @property
    def runs_out_day(self) -> date | None:
        """The first day of the month the year's budget runs out at the run rate, if it does."""
        if self.forecast is None or self.forecast.runs_out is None:
            return None
        return month_start(self.forecast.runs_out)


@dataclass(frozen=True)
class Variance:
    years: tuple[Period, ...]
    kinds: tuple[str, ...]
    through: date | None  # the last month the actuals cover


type ByKind = Mapping[tuple[int, str], Decimal]


def _figures(plan: Decimal, actual: Decimal, forecast: Decimal) -> Figures:
    plan, actual = to_money(plan), to_money(actual)
    return Figures(
        plan=plan,
        actual=actual,
        variance=actual - plan,
        variance_share=variance_share(plan, actual),
        forecast=to_money(forecast),
    )


def _sum(cells: ByKind, months: Sequence[int], kind: str | None = None) -> Decimal:
    return sum(
        (v for (m, k), v in cells.items() if m in months and (kind is None or k == kind)), ZERO
    )


def tokens_per_request(inference: InferenceInput | None) -> dict[str, float] | None:
    """The tokens one planned request uses, by the types bills count them in: input not read
    from a cache (input − cached input), cached input, and output (visible answer + hidden
    reasoning, both billed as output). None where the plan does not count tokens (an
    inference given in accelerator-seconds per request, or no inference)."""
    if inference is None or inference.input_tokens is None or inference.output_tokens is None:
        return None
    cached = float(inference.cached_input_tokens or 0.0)
    return {
        "input": float(inference.input_tokens) - cached,
        "cached": cached,
        "output": float(inference.output_tokens) + float(inference.reasoning_tokens or 0.0),
    }


def _token_totals(tokens: Mapping[tuple[int, str], float], months: Sequence[int]) -> dict:
    """Tokens of `months` by type, each summed then rounded to a whole token."""
    totals = dict.fromkeys(TOKEN_TYPES, 0.0)
    for (month, token_type), count in tokens.items():
        if month in months and token_type in totals:
            totals[token_type] += count
    return {token_type: round(count) for token_type, count in totals.items()}


def _usage(
    months: Sequence[int],
    hours_plan: Mapping[int, float] | None,
    hours: Mapping[int, float],
    tokens: Mapping[tuple[int, str], int],
    tokens_plan: Mapping[tuple[int, str], float] | None,
) -> Usage:
    return Usage(
        accelerator_hours_plan=None
        if hours_plan is None
        else sum(hours_plan.get(m, 0.0) for m in months),
        accelerator_hours_actual=sum(hours.get(m, 0.0) for m in months),
        tokens_actual=_token_totals(tokens, months),
        tokens_plan=None if tokens_plan is None else _token_totals(tokens_plan, months),
    )


def plan_against_actual(
    years: Sequence[FiscalYear],
    plan: ByKind,
    actual: ByKind,
    *,
    hours_plan: Mapping[int, float] | None,
    hours: Mapping[int, float],
    tokens: Mapping[tuple[int, str], int],
    kinds_order: Sequence[str],
    tokens_plan: Mapping[tuple[int, str], float] | None = None,
) -> Variance:
    """Each fiscal year and month of the plan's period with plan, actual, variance and forecast,
    in total and per kind of line (the kinds planned or billed, in `kinds_order`); usage in
    accelerator-hours and tokens, planned (None: the plan has none in that unit) and actual."""
    used = {kind for _, kind in plan} | {kind for _, kind in actual}
    kinds = tuple(kind for kind in kinds_order if kind in used)
    actual_months = sorted({month for month, _ in actual})
    through = actual_months[-1] if actual_months else None
    first = actual_months[0] if actual_months else None
    actual_total: dict[int, Decimal] = {}
    plan_total: dict[int, Decimal] = {}
    for (month, _), amount in actual.items():
        actual_total[month] = actual_total.get(month, ZERO) + amount
    for (month, _), amount in plan.items():
        plan_total[month] = plan_total.get(month, ZERO) + amount

    def month_row(month: int) -> Period:
        passed = through is not None and month <= through
        by_kind = {}
        for kind in kinds:
            p, a = plan.get((month, kind), ZERO), actual.get((month, kind), ZERO)
            by_kind[kind] = _figures(p, a, a if passed else p)
        p, a = plan_total.get(month, ZERO), actual_total.get(month, ZERO)
        start = month_start(month)
        return Period(
            label=start.strftime("%Y-%m"),
            start=start,
            end=month_end(month),
            total=_figures(p, a, a if passed else p),
            kinds=by_kind,
            usage=_usage((month,), hours_plan, hours, tokens, tokens_plan),
        )

    rows = []
    for year in years:
        months = list(range(month_index(year.start), month_index(year.end) + 1))
        budget = sum((plan_total.get(m, ZERO) for m in months), ZERO)
        outturn = year_forecast(
            months, plan_total, actual_total, through=through, first_actual=first, budget=budget
        )
        by_kind = {}
        for kind in kinds:
            kind_plan = {m: plan.get((m, kind), ZERO) for m in months}
            kind_actual = {m: actual.get((m, kind), ZERO) for m in months}
            kind_outturn = year_forecast(
                months,
                kind_plan,
                kind_actual,
                through=through,
                first_actual=first,
                budget=sum(kind_plan.values(), ZERO),
            )
            by_kind[kind] = _figures(
                _sum(plan, months, kind), _sum(actual, months, kind), kind_outturn.by_plan
            )
        rows.append(
            Period(
                label=year.label,
                start=year.start,
                end=year.end,
                total=_figures(budget, _sum(actual, months), outturn.by_plan),
                kinds=by_kind,
                usage=_usage(months, hours_plan, hours, tokens, tokens_plan),
                forecast=outturn,
                months=tuple(month_row(m) for m in months),
            )
        )
    return Variance(
        years=tuple(rows),
        kinds=kinds,
        through=None if through is None else month_start(through),
    )


@dataclass(frozen=True)
class YearSum:
    """One fiscal year's plan against actual summed over several projects in one currency."""

    label: str
    start: date
    total: Figures
    projects: int  # how many of the projects have this fiscal year


def summed_years(variances: Sequence[Variance]) -> tuple[YearSum, ...]:
    """Each fiscal year's plan, actual and forecast (by plan) summed over the variances of
    projects in one currency, by the year's label, in the order of the years' starts;
    variance and its share worked out from the sums."""
    sums: dict[str, list] = {}
    for variance in variances:
        for year in variance.years:
            plan, actual, forecast, start, count = sums.get(
                year.label, (ZERO, ZERO, ZERO, year.start, 0)
            )
            sums[year.label] = [
                plan + year.total.plan,
                actual + year.total.actual,
                forecast + year.total.forecast,
                min(start, year.start),
                count + 1,
            ]
    return tuple(
        YearSum(label, start, _figures(plan, actual, forecast), count)
        for label, (plan, actual, forecast, start, count) in sorted(
            sums.items(), key=lambda item: (item[1][3], item[0])
        )
    )
