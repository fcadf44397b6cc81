"""The decision view: the ways to serve one demand compared over the same budget years.

Each option is a whole estimate input (an external API, self-hosting on rented accelerators paid
per use or always on, on owned accelerators, fine-tuning or pre-training a model then hosting
it), built by the caller from a scenario and the user's choices. For each, `compare_options`
runs the estimate engine and the budget arithmetic on the same fiscal calendar and rules:

- one_off: the one-off training compute in the period (opex, also inside `opex`);
- capex: hardware bought in the period; opex: per fiscal year; total and npv: the budget's
  total and net present value (its convention: the first fiscal year undiscounted);
- cost_per_request: inference cost over the horizon ÷ requests over the horizon, so that
  always-on and owned capacity count their idle hours; cost_per_million_output_tokens: the same
  ÷ visible output tokens per request × 1,000,000 (None without output tokens; reasoning
  tokens count in the cost, not in the tokens: a price per million tokens of answer);
- accelerators: the accelerators at peak (None for an external API);
- flags: "data_leaves_organisation" and "lock_in" for an external API, "hardware_lead_time" for
  owned accelerators.

Crossovers, the utilisation at which owning beats renting and the condition that flips the
cheapest are worked out in apps.estimates.option_condition.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

import numpy as np

from apps.estimates.budget import (
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    FiscalYear,
    budget,
    compute_lines,
    default_service_start,
)
from apps.estimates.budget.inputs import ComputedLines
from apps.estimates.commitment import months_paid
from apps.estimates.engine import estimate, evaluate
from apps.estimates.inputs import EstimateInput
from apps.estimates.messages import _
from apps.estimates.money import to_money
from apps.estimates.option_condition import (
    FIXED_COST,
    PER_USE,
    CommitmentCrossover,
    Condition,
    Crossover,
    commitment_crossover,
    crossover_requests_per_month,
    flipping_condition,
    owning_beats_renting_utilisation,
)
from apps.estimates.results import CommitmentResult, EstimateResult, Figures
from apps.estimates.section_figures import optional
from apps.estimates.uncertainty import FigureRange

OPTION_KEYS = (
    "external_api",
    "rent_pay_per_use",
    "rent_always_on",
    "rent_committed",
    "own",
    "fine_tune",
    "build",
)
LABELS = {
    "external_api": "External model API",
    "rent_pay_per_use": "Self-host on rented accelerators, pay per use",
    "rent_always_on": "Self-host on rented accelerators, always on",
    "rent_committed": "Self-host on rented accelerators, committed for a term",
    "own": "Self-host on owned accelerators",
    "fine_tune": "Fine-tune an open model, then host it",
    "build": "Pre-train a model, then host it",
}
FLAGS = {
    "external_api": ("data_leaves_organisation", "lock_in"),
    "own": ("hardware_lead_time",),
}
# Costs per request are fractions of a cent: they leave rounded to a millionth, not to the cent.
UNIT_COST = Decimal("0.000001")
TOKENS_PER_MILLION = 1e6


@dataclass(frozen=True)
class OptionInput:
    """One option: its key (one of OPTION_KEYS) and the estimate input that serves the demand."""

    key: str
    estimate: EstimateInput
    label: str = ""
    # The staff the option needs to run, when the user gives it: full-time equivalents and the
    # cost of one a year. Added to the budget as a monthly staff line from the service start.
    staff_fte: float | None = None
    staff_cost_per_fte_year: float | None = None


@dataclass(frozen=True)
class OptionEstimate:
    """The engine's answers for one option's input, worked out once and passed on: the
    estimate (money as Decimal, monthly series) and `evaluate`'s unrounded figures."""

    result: EstimateResult
    figures: Figures


def estimate_option(option: OptionInput) -> OptionEstimate:
    return OptionEstimate(estimate(option.estimate), evaluate(option.estimate))


@dataclass(frozen=True)
class OptionFootprint:
    """An option's footprint: its training and its serving over the horizon, each figure None
    where a part of it is not published (an accelerator's power or life cycle, an API model
    EcoLogits has no data on, a profile's water)."""

    energy_kwh: float | None
    emissions_kg_co2e: float | None
    embodied_kg_co2e: float | None
    water_litres: float | None


FOOTPRINT_FIGURES = ("energy_kwh", "emissions_kg_co2e", "embodied_kg_co2e", "water_litres")


def option_footprint(result: EstimateResult) -> OptionFootprint:
    """Training plus serving over the horizon, figure by figure (see OptionFootprint)."""
    parts = [
        part for part in (result.training, result.inference and result.inference.total) if part
    ]

    def added(name: str) -> float | None:
        values = [getattr(part, name) for part in parts]
        return None if any(value is None for value in values) else float(sum(values))

    return OptionFootprint(**{name: added(name) for name in FOOTPRINT_FIGURES})


@dataclass(frozen=True)
class OptionResult:
    key: str
    label: str
    one_off: Decimal
    capex: Decimal
    opex: tuple[Decimal, ...]  # one per fiscal year
    total: Decimal
    npv: Decimal
    cost_per_request: Decimal | None  # None: no requests over the horizon
    cost_per_million_output_tokens: Decimal | None
    accelerators: int | None
    flags: tuple[str, ...]
    # Unrounded, for crossovers and the chart: cost a month that does not depend on the
    # requests (capacity kept on), and cost of each request beyond it (paid per use).
    monthly_fixed_cost: float
    per_use_cost_per_request: float
    # The staff assumed: full-time equivalents and their cost in the period, when given
    # ("given"); none otherwise ("not_included": no published figure gives it).
    staff_fte: float | None = None
    staff_cost: Decimal | None = None
    staff_basis: str = "not_included"
    # Capacity rented on commitment: its terms, payments and idle capacity (None otherwise).
    commitment: CommitmentResult | None = None
    footprint: OptionFootprint | None = None  # None: kept before the footprint was compared


@dataclass(frozen=True)
class OptionsComparison:
    fiscal_years: tuple[FiscalYear, ...]
    options: tuple[OptionResult, ...]
    cheapest: str
    condition: Condition
    crossovers: tuple[Crossover, ...]
    owning_beats_renting_utilisation: float | None  # None without both own and pay-per-use
    # The month every option's service starts (None: past the year 9999), and the lines each
    # option's budget was drawn up from, in the options' order (for their ranges).
    service_start: date | None = None
    lines: tuple[ComputedLines, ...] = field(default=(), repr=False)
    # Where the option committed for a term beats paying per use and always on (None: no
    # such option compared).
    commitment: CommitmentCrossover | None = None


@dataclass(frozen=True)
class ApiPricing:
    """The price catalogue's price an external API option is costed at (the caller resolves
    it): the model, the price tier chosen (standard unless the request or the choice says
    otherwise) and its dates."""

    api_model: str
    tier: str
    # The tier's price in force since (None: before the catalogue's history), and when the
    # provider's prices were last checked.
    valid_from: date | None
    as_of: date


@dataclass(frozen=True)
class OptionsUncertainty:
    """The options' ranges (apps.options.uncertainty): percentiles by figure path and the share
    of samples in which each option is the cheapest."""

    samples: int
    seed: int
    # "options.<key>.total", "options.<key>.npv" and, where there are requests,
    # "options.<key>.cost_per_request" (to a millionth, as the options give it)
    figures: dict[str, FigureRange]
    cheapest_share: dict[str, float]  # by option key, summing to 1


def unit_cost(amount: float) -> Decimal | None:
    """A cost per request as it leaves the engine: rounded to a millionth (None: not finite)."""
    if not math.isfinite(amount):
        return None
    return Decimal(repr(float(amount))).quantize(UNIT_COST)


def _fixed_and_per_use(key: str, inp: EstimateInput, figures: Figures) -> tuple[float, float]:
    """(monthly fixed cost, per-use cost per request) of the option's inference."""
    if key in FIXED_COST or inp.inference.provisioning in ("always_on", "committed"):
        return float(figures.inference_cost) / float(inp.inference.months), 0.0
    return 0.0, float(figures.cost_per_request)


def _option(
    option: OptionInput,
    worked: OptionEstimate,
    computed: ComputedLines,
    calendar: FiscalCalendar,
    rules: BudgetRules,
    service_start: date | None,
) -> OptionResult:
    inp, result = option.estimate, worked.result
    staff = _staff_line(option, service_start or calendar.period_start)
    table = budget(calendar, rules, lines=[staff] if staff else [], computed=computed)
    staff_cost = sum(
        (line.total for line in table.lines if line.name == STAFF_LINE), Decimal("0.00")
    )
    inference = result.inference
    requests = inference.total.requests
    cost = inference.total.cost  # None: a model that fits no replica
    cost_per_request = float(cost) / requests if requests and cost is not None else math.nan
    output_tokens = optional(inp.inference.output_tokens)
    per_million = (
        cost_per_request / float(output_tokens) * TOKENS_PER_MILLION
        if output_tokens and math.isfinite(cost_per_request)
        else math.nan
    )
    fixed, per_use = _fixed_and_per_use(option.key, inp, worked.figures)
    return OptionResult(
        key=option.key,
        label=option.label or LABELS[option.key],
        one_off=sum(
            (line.total for line in table.lines if line.kind == "training_compute"),
            Decimal("0.00"),
        ),
        capex=sum(table.totals.capex, Decimal("0.00")),
        opex=table.totals.opex,
        total=table.summary.total,
        npv=table.summary.npv,
        cost_per_request=unit_cost(cost_per_request),
        cost_per_million_output_tokens=None if math.isnan(per_million) else to_money(per_million),
        accelerators=inference.peak_accelerators,
        flags=FLAGS.get(option.key, ()),
        monthly_fixed_cost=fixed,
        per_use_cost_per_request=per_use,
        staff_fte=option.staff_fte,
        staff_cost=staff_cost if staff else None,
        staff_basis="given" if option.staff_fte is not None else "not_included",
        commitment=inference.commitment,
        footprint=option_footprint(result),
    )


STAFF_LINE = _("Staff to run the option")


def _staff_line(option: OptionInput, start: date) -> CostLineInput | None:
    """A monthly staff line: FTE × the cost of one a year ÷ 12, from the service start."""
    if option.staff_fte is None or not option.staff_cost_per_fte_year:
        return None
    return CostLineInput(
        name=STAFF_LINE,
        kind="staff",
        quantity=Decimal(repr(float(option.staff_fte))),
        unit="FTE-month",
        unit_price=to_money(float(option.staff_cost_per_fte_year) / 12),
        recurrence="monthly",
        start=start,
        budget_class="opex",
        category=1,
        basis=_("Staff given for the option: FTE × cost of one FTE a year ÷ 12, each month."),
    )


def common_service_start(results: Sequence[EstimateResult], training_start: date) -> date | None:
    """The month every option's service starts: once the longest training is over, so that an
    option is not cheaper only because it serves fewer months (None: past the year 9999)."""
    starts = [
        default_service_start(
            training_start,
            None if result.training is None else result.training.wall_clock_hours or 0.0,
        )
        for result in results
    ]
    return None if None in starts else max(starts)


def compare_options(
    options: Sequence[OptionInput],
    calendar: FiscalCalendar,
    rules: BudgetRules,
    *,
    training_start: date | None = None,
    service_start: date | None = None,
    estimates: Sequence[OptionEstimate] | None = None,
) -> OptionsComparison:
    """Compare the options on one fiscal calendar and budget rules (see the module docstring).

    Every option serves the same months: from `service_start`, by default the month after the
    longest training ends (see `default_service_start`), training starting at `training_start`
    (default: the start of the period). `estimates`, one per option in their order, are the
    engine's answers when the caller has them already (`estimate_option`); else worked out
    here. Raises ValueError on an unknown or repeated key or an option without inference, and
    the engine's EstimateInputError or the budget's errors on invalid inputs.
    """
    keys = [option.key for option in options]
    if not keys or len(set(keys)) != len(keys) or not set(keys) <= set(OPTION_KEYS):
        raise ValueError(f"Options must be distinct keys among {', '.join(OPTION_KEYS)}.")
    if any(option.estimate.inference is None for option in options):
        raise ValueError("Every option serves the demand: each needs an inference section.")
    if estimates is None:
        estimates = [estimate_option(option) for option in options]
    if service_start is None:
        start = calendar.period_start if training_start is None else training_start
        service_start = common_service_start([worked.result for worked in estimates], start)
    lines = tuple(
        compute_lines(
            option.estimate,
            worked.result,
            calendar,
            training_start=training_start,
            service_start=service_start,
        )
        for option, worked in zip(options, estimates, strict=True)
    )
    results = tuple(
        _option(option, worked, computed, calendar, rules, service_start)
        for option, worked, computed in zip(options, estimates, lines, strict=True)
    )
    by_key = {result.key: result for result in results}
    crossovers = tuple(
        Crossover(
            (fixed, per_use),
            crossover_requests_per_month(
                by_key[fixed].monthly_fixed_cost, by_key[per_use].per_use_cost_per_request
            ),
        )
        for fixed in FIXED_COST
        if fixed in by_key
        for per_use in PER_USE
        if per_use in by_key
    )
    inputs = {option.key: option.estimate for option in options}
    utilisation = (
        owning_beats_renting_utilisation(inputs["own"], inputs["rent_pay_per_use"])
        if {"own", "rent_pay_per_use"} <= set(inputs)
        and inputs["own"].inference.pricing.mode == "own"
        and inputs["rent_pay_per_use"].inference.pricing.mode == "rent"
        else None
    )
    cheapest = min(results, key=lambda result: result.npv)
    committed = inputs.get("rent_committed")
    return OptionsComparison(
        fiscal_years=budget(calendar, rules).fiscal_years,
        options=results,
        cheapest=cheapest.key,
        condition=flipping_condition(
            {result.key: result.npv for result in results}, cheapest.key, crossovers, utilisation
        ),
        crossovers=crossovers,
        owning_beats_renting_utilisation=utilisation,
        service_start=service_start,
        lines=lines,
        commitment=None
        if committed is None or committed.inference.provisioning != "committed"
        else commitment_crossover(committed),
    )


def months_of_payments(inp: EstimateInput) -> int:
    """The months an option's inference is paid for: its horizon, or the whole terms that cover
    it when it is committed (a budget drawn up for it runs to the end of its commitment)."""
    inference = inp.inference
    if inference.provisioning == "committed":
        return int(months_paid(float(inference.months), float(inference.commitment_years)))
    return int(inference.months)


def monthly_cost_at(option: OptionInput, requests_per_month: np.ndarray) -> np.ndarray:
    """Cost of one month of the option at each steady volume (requests a month), for the chart.

    One vectorised run of the engine over the volumes, each a month of steady demand: per-use
    options pay each request, always-on and owned capacity is sized for each volume's peak and
    paid every hour (so it steps up with demand), and a one-off training is spread evenly over
    the option's horizon in months. Committed capacity is paid for whole terms: its month is
    the cost of steady demand over the option's horizon, terms and all, ÷ the horizon.
    """
    inp = option.estimate
    volumes = np.asarray(requests_per_month, dtype=np.float64)
    months = inp.inference.months if inp.inference.provisioning == "committed" else 1
    steady = replace(inp.inference, requests_per_month=volumes, monthly_growth=0.0, months=months)
    cost = np.asarray(evaluate(replace(inp, training=None, inference=steady)).inference_cost)
    cost = cost / float(months)
    if inp.training is not None:
        one_off = float(evaluate(replace(inp, inference=None)).training_cost)
        cost = cost + one_off / float(inp.inference.months)
    return cost
