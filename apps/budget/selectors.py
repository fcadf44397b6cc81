"""A scenario's budget from its rows: the one path from the database to the budget's numbers.

Pages, the API and exports call `scenario_budget`; it reads the cost lines in one query and the
catalogue from the process's snapshot, estimates the scenario as its page does, and hands both
to the pure budget arithmetic (apps.estimates.budget).
"""

import calendar
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import date

from django.db.models import Prefetch
from django.utils import timezone

from apps.budget.models import CostLine
from apps.budget.records import LINE_FIELDS, line_record
from apps.catalogue.resolution import Resolution
from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.catalogue.uncertainty import request_sampling, with_request_paths
from apps.core.fragments import fragment_key
from apps.core.planning_dates import PLANNING_FIRST_DAY, PLANNING_LAST_DAY
from apps.estimates import EstimateInput, EstimateInputError, EstimateResult, estimate
from apps.estimates.budget import (
    Budget,
    BudgetInputError,
    BudgetRules,
    CalendarError,
    Conversion,
    CostLineInput,
    FiscalCalendar,
    budget,
    compute_lines,
    default_service_start,
    fiscal_years,
    training_end,
)
from apps.estimates.budget.uncertainty import budget_uncertainty
from apps.estimates.currency import ExchangeRate
from apps.estimates.messages import Day, Message, _
from apps.estimates.uncertainty import UncertaintyResult
from apps.projects.currency import (
    PRICE_CURRENCY,
    currency_exchange,
    exchange_key,
    project_exchange,
    year_exchanges,
)
from apps.projects.models import BUDGET_SETTINGS, Project, Scenario
from apps.words.messages import messages_text


class BudgetUnavailable(Exception):
    """The scenario's budget cannot be drawn up now. `errors` say why, as Messages by the input
    or line each is about ("" for the scenario as a whole), worded for the reader by
    `reason()`; str(error) is the English."""

    def __init__(self, errors: Mapping[str, Iterable[Message]]) -> None:
        self.errors = {key: tuple(messages) for key, messages in errors.items()}
        super().__init__(_joined(self.errors, " ".join))

    def reason(self) -> str:
        """Why, in the active language: "training.mfu: …; lines.0.amount: …", or the
        messages alone when they are about the scenario as a whole."""
        return _joined(self.errors, messages_text)


def _joined(errors: dict[str, tuple[Message, ...]], words: Callable[[tuple], str]) -> str:
    return "; ".join(
        f"{key}: {words(messages)}" if key else words(messages) for key, messages in errors.items()
    )


OUT_OF_RANGE = _(
    "A date or an amount of this scenario is beyond what a budget can hold: dates run from "
    "%(first)s to %(last)s. Change the planning period, the scenario’s timing or its cost lines.",
    first=Day(PLANNING_FIRST_DAY, "medium"),
    last=Day(PLANNING_LAST_DAY, "medium"),
)


@dataclass(frozen=True)
class ScenarioBudget:
    """A scenario's budget with what it was drawn up from.

    period_is_default: the project has no planning period (or only half of one), so the period
    runs from the start of the work for the scenario's horizon (see `planning_period`).
    """

    scenario: Scenario
    currency: str
    budget: Budget
    period_start: date
    period_end: date
    period_is_default: bool
    # With ranges on the scenario's inputs: percentiles of the budget's figures by their path
    # in the budget API's answer ("summary.total", "totals.total.0"); None without ranges.
    ranges: UncertaintyResult | None = None
    exchange: ExchangeRate | None = None  # the rate prices were converted at; None: dollars
    # The other rates used: each fiscal year's own rate, each cost line's currency's.
    rates: tuple[ExchangeRate, ...] = ()


# The budget table's order of cost lines.
LINE_ORDER = ("kind", "name", "pk")


def cost_lines_of(scenario: Scenario) -> list[CostLine]:
    """The scenario's cost lines in the budget table's order (one query)."""
    return list(CostLine.objects.filter(scenario=scenario).order_by(*LINE_ORDER))


def baselines_of(projects: Iterable[Project]) -> dict[int, tuple[Scenario, list[CostLine]]]:
    """Each of these projects' baseline (with its project) and its cost lines in the budget
    table's order, by project id; a project without a baseline is left out (two queries)."""
    by_id = {project.pk: project for project in projects}
    scenarios = Scenario.objects.filter(project__in=list(by_id), is_baseline=True).prefetch_related(
        Prefetch("cost_lines", queryset=CostLine.objects.order_by(*LINE_ORDER), to_attr="lines")
    )
    found: dict[int, tuple[Scenario, list[CostLine]]] = {}
    for scenario in scenarios:
        if scenario.project_id not in found:  # as baseline_of: the first in the model's order
            scenario.project = by_id[scenario.project_id]
            found[scenario.project_id] = (scenario, scenario.lines)
    return found


def line_currency(line: CostLine, project: Project | None) -> str | None:
    """The currency the line was entered in when not the project's own; else None (and None
    without the project: the line's amounts taken as they are)."""
    if project is None or line.currency in ("", project.currency):
        return None
    return line.currency


def cost_line_input(line: CostLine, project: Project | None = None) -> CostLineInput:
    """The line as the engine takes it: its fields of the same names (no class: the rule's;
    no currency: the project's; without `project`, its amounts as entered)."""
    given = {name: getattr(line, name) for name in LINE_FIELDS}
    return CostLineInput(
        **{
            **given,
            "budget_class": line.budget_class or None,
            "currency": line_currency(line, project),
        }
    )


def conversion_of(
    project: Project,
    catalogue: Catalogue,
    exchange: ExchangeRate,
    lines: list[CostLineInput],
    calendar: FiscalCalendar,
) -> tuple[Conversion | None, tuple[ExchangeRate, ...]]:
    """How the budget converts its cost lines in other currencies and its fiscal years with a
    rate of their own, and those rates (each year's, then each currency's); (None, ()) when
    there is nothing to convert. Raises EstimateInputError for a currency without a rate."""
    labels = [year.label for year in fiscal_years(calendar)]
    years = year_exchanges(project, labels)
    # A line in the prices' currency is converted at the prices' rate, listed once already.
    currencies = sorted({line.currency for line in lines} - {None, PRICE_CURRENCY})
    by_currency = tuple(currency_exchange(project, code, catalogue) for code in currencies)
    if not years and not any(line.currency is not None for line in lines):
        return None, ()
    conversion = Conversion(
        price_currency=PRICE_CURRENCY,
        rates={
            PRICE_CURRENCY: exchange.rate,
            **{rate.from_currency: rate.rate for rate in by_currency},
        },
        year_rates={rate.fiscal_year: rate.rate for rate in years},
    )
    return conversion, (*years, *by_currency)


def budget_rules(project: Project) -> BudgetRules:
    """The project's budgeting rules, each a field of the same name."""
    return BudgetRules(**{rule.name: getattr(project, rule.name) for rule in fields(BudgetRules)})


def _month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def planning_period(
    project: Project, scenario: Scenario, result: EstimateResult, today: date
) -> tuple[date, date, bool]:
    """The project's planning period, or where it is not set a default: from the start of the
    scenario's work (its training start, else its service start, else this month) to the end
    of its horizon (the last month of serving, else the month training ends). Not part of the
    pure arithmetic: it reads the calendar of today. (start, end, whether defaulted.)"""
    if project.period_start and project.period_end:
        return project.period_start, project.period_end, False
    start = project.period_start or (
        scenario.training_start or scenario.service_start or today.replace(day=1)
    )
    end = project.period_end
    if end is None:
        wall_clock = result.training.wall_clock_hours if result.training else None
        training_start = scenario.training_start or start
        if result.inference is not None:
            service = scenario.service_start or default_service_start(training_start, wall_clock)
            service = service or start
            end = _month_end(_add_months(service, len(result.inference.monthly) - 1))
        else:
            ends = training_end(training_start, wall_clock or 0.0)
            end = _month_end(ends.date() if ends else start)
        end = max(end, _month_end(start))
    return start, end, True


def prices_as_of(resolution: Resolution) -> date | None:
    """The date of the newest catalogue price of the accelerators the estimate used."""
    dates = [
        offer.as_of
        for accelerator in resolution.accelerators.values()
        for offer in accelerator.price_offers.all()
    ]
    return max(dates, default=None)


def _estimate(
    scenario: Scenario, catalogue: Catalogue, result: EstimateResult | None
) -> tuple[EstimateInput, EstimateResult, Resolution]:
    """The scenario's estimate as its page computes it (estimate_from_request's two steps), or
    `result` when the caller has it already."""
    try:
        exchange = project_exchange(scenario.project, catalogue)
        inp, resolution = estimate_input_from_request(scenario.inputs, catalogue, exchange)
        return inp, estimate(inp) if result is None else result, resolution
    except EstimateInputError as error:
        problems = [m for messages in error.errors.values() for m in messages]
        raise BudgetUnavailable({"": problems}) from None


def scenario_budget(
    scenario: Scenario,
    *,
    catalogue: Catalogue | None = None,
    lines: list[CostLine] | None = None,
    today: date | None = None,
    ranges: bool = True,
    result: EstimateResult | None = None,
) -> ScenarioBudget:
    """The scenario's budget: its cost lines and the lines its estimate adds, by fiscal year,
    and when its inputs carry ranges (and `ranges` is left on) the percentiles of its figures,
    from the scenario's samples and seed (apps.estimates.budget.uncertainty).

    `scenario.project` should be fetched with it (select_related); `lines` when the caller has
    them already (else one query), and `result`, the scenario's estimate, when it has that
    (a save: apps.budget.kept). Raises BudgetUnavailable when the saved inputs (or their
    ranges) no longer fit the catalogue or a line no longer fits the period rules.
    """
    project = scenario.project
    catalogue = catalogue or Catalogue.load()
    lines = cost_lines_of(scenario) if lines is None else lines
    inp, result, resolution = _estimate(scenario, catalogue, result)
    rules = budget_rules(project)
    line_inputs = [cost_line_input(line, project) for line in lines]
    timing = {"training_start": scenario.training_start, "service_start": scenario.service_start}
    # Known once the estimate is (it raised otherwise): a cache read.
    exchange = project_exchange(project, catalogue)
    sampling = request_sampling(scenario.inputs, exchange) if ranges else None
    try:
        start, end, defaulted = planning_period(
            project, scenario, result, today or timezone.localdate()
        )
        fiscal = FiscalCalendar(
            start_month=project.fiscal_year_start_month,
            label_rule=project.fiscal_year_label,
            period_start=start,
            period_end=end,
        )
        computed = compute_lines(inp, result, fiscal, **timing)
        conversion, rates = conversion_of(project, catalogue, exchange, line_inputs, fiscal)
        drawn_up = budget(
            fiscal, rules, line_inputs, computed, prices_as_of(resolution), conversion
        )
        uncertainty = None
        if sampling is not None:
            engine_ranges, samples, seed, rate = sampling
            uncertainty = with_request_paths(
                budget_uncertainty(
                    inp,
                    engine_ranges,
                    fiscal,
                    rules,
                    line_inputs,
                    samples=samples,
                    seed=seed,
                    result=result,
                    rate=rate,
                    conversion=conversion,
                    **timing,
                )
            )
    except (BudgetInputError, CalendarError, EstimateInputError) as error:
        raise BudgetUnavailable(error.errors) from None
    except (ValueError, ArithmeticError):
        # A date or an amount beyond what the calendar or the arithmetic can hold, saved
        # before the planning range was checked: say so in words, never in Python's.
        raise BudgetUnavailable({"": [OUT_OF_RANGE]}) from None
    return ScenarioBudget(
        scenario=scenario,
        currency=project.currency,
        budget=drawn_up,
        period_start=start,
        period_end=end,
        period_is_default=defaulted,
        ranges=uncertainty,
        exchange=None if exchange.is_identity else exchange,
        rates=rates,
    )


def budget_key(scenario: Scenario, lines: list[CostLine], today: date | None = None) -> list:
    """What a scenario's budget is drawn from, as JSON-able values, for a fragment cache key:
    its timing, its lines, the project's budget settings and period, and this month when the
    period is left to its default (which starts this month)."""
    project = scenario.project
    settings = [str(getattr(project, name)) for name in BUDGET_SETTINGS]
    period = [str(project.period_start), str(project.period_end)]
    if not (project.period_start and project.period_end):
        period.append((today or timezone.localdate()).strftime("%Y-%m"))
    return [
        str(scenario.training_start),
        str(scenario.service_start),
        [line_record(line) for line in lines],
        settings,
        period,
        exchange_key(project, Catalogue.load()),
    ]


def budget_stamp(scenario: Scenario, today: date | None = None) -> list:
    """`budget_key` without reading the cost lines, for a key on a hot path: when the scenario
    was last saved stands for them, as a cost line saved or deleted by any path marks its
    scenario changed (apps.budget.wiring)."""
    return [str(scenario.updated_at), *budget_key(scenario, [], today)]


def budget_cache_key(scenario: Scenario, lines: list[CostLine], catalogue: Catalogue) -> str:
    """The cache key of a scenario's drawn-up budget: a digest of everything `scenario_budget`
    reads (the scenario, its version and inputs, its timing and cost lines, the project's
    currency, budget settings and period, the month when the period is defaulted, the
    catalogue's rows) and the language; the release is in every key (apps.core.fragments)."""
    return fragment_key(
        "budget",
        scenario.pk,
        scenario.version,
        scenario.inputs,
        scenario.project.currency,
        budget_key(scenario, lines),
        catalogue.digest,
    )


def baseline_of(project: Project) -> Scenario | None:
    """The project's baseline scenario, with the project (one query); None if it has none."""
    scenario = project.scenarios.filter(is_baseline=True).first()
    if scenario is not None:
        scenario.project = project
    return scenario
