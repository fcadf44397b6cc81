"""Stored records as `main` wrote them before the record codec, read one last time.

Until migration 0009, a saved version kept the estimate API's JSON (`results`), and a version
and a submission kept their budget as the budget API's JSON; until migration 0010, a version
kept the options compared as the options API's JSON: every Message had become its English text
and every dataclass a dict. This module, used by those migrations only, rebuilds the objects
from that JSON as the readers of the time did, and turns the English back into the Messages it
was written from: each text is matched against the msgids the engine and the catalogue's notes
used when those records were written, and the reasons an option could not be compared
(legacy_msgids.json, as extracted from the sources then), and each parameter read back as the
Number, Day or Message that writes the same English. What matches no msgid (or was saved in
another language) stays the text it is.
"""

import json
import math
import re
from collections.abc import Callable
from dataclasses import fields, replace
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from itertools import accumulate
from pathlib import Path

from apps.estimates import (
    ComparisonResult,
    CumulativeMonth,
    EstimateResult,
    InferenceResult,
    InferenceTotal,
    Month,
    PerRequest,
    RequestFootprint,
    ReplicaChoice,
    ServingResult,
    ThresholdResult,
    TrainingResult,
)
from apps.estimates.budget import Budget, BudgetLine, FiscalYear, Memo, Summary, Totals
from apps.estimates.budget.fiscal import LABEL_RULES, FiscalCalendar, fiscal_years
from apps.estimates.kept import KeptBudget, KeptEstimate, KeptOptions
from apps.estimates.messages import Day, Message, Number
from apps.estimates.money import to_money
from apps.estimates.option_condition import CommitmentCrossover, Condition, Crossover
from apps.estimates.options import (
    ApiPricing,
    OptionFootprint,
    OptionResult,
    OptionsComparison,
    OptionsUncertainty,
)
from apps.estimates.results import CommitmentResult
from apps.estimates.uncertainty import MONEY_FIGURES, FigureRange, UncertaintyResult
from apps.estimates.uncertainty_fan import FanMonth

MSGIDS = Path(__file__).with_name("legacy_msgids.json")
_PLACEHOLDER = re.compile(r"%\((?P<name>[a-z_]+)\)s|%%")
# A number as the engine wrote it in English: grouped with commas, a decimal point, perhaps an
# exponent ("1e+15") or a percent sign ("+5.00%").
_ENGLISH_NUMBER = re.compile(
    r"(?P<sign>[+\-])?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<fraction>\d+))?"
    r"(?:e(?P<exponent>[+\-]\d+))?(?P<percent>%)?"
)
_TOTALS = ("capex", "opex", "contingency_capex", "contingency_opex", "contingency", "indirect")


def _regex(msgid: str) -> re.Pattern:
    seen: set[str] = set()
    parts, end = [], 0
    for match in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[end : match.start()]))
        name = match["name"]
        if name is None:
            parts.append("%")
        elif name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>.+?)")
        end = match.end()
    parts.append(re.escape(msgid[end:]))
    return re.compile("".join(parts), re.S)


@cache
def _patterns() -> tuple[tuple[tuple[str, str | None, str | None], re.Pattern], ...]:
    """((msgid, plural, count), pattern) of every msgid, the engine's first; a catalogue note
    or reason worded by ngettext matches by either form."""
    known = json.loads(MSGIDS.read_text())
    patterns = [((msgid, None, None), _regex(msgid)) for msgid in known["engine"]]
    for note in (*known["catalogue_notes"], *known["option_reasons"]):
        if isinstance(note, str):
            patterns.append(((note, None, None), _regex(note)))
        else:
            forms = (note["singular"], note["plural"], note["count"])
            patterns += [(forms, _regex(note["singular"])), (forms, _regex(note["plural"]))]
    return tuple(patterns)


def message_of(text: str | None) -> str | None:
    """`text` as the Message that writes it, when it is one; else `text` as it is."""
    if text is None or isinstance(text, Message):
        return text
    for (msgid, plural, count), pattern in _patterns():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        params = {name: _parameter(value) for name, value in match.groupdict().items()}
        message = Message(msgid, params, plural, count)
        return message if str(message) == text else text
    return text


def _parameter(text: str) -> object:
    message = message_of(text)
    if isinstance(message, Message):
        return message
    return _number(text) or _day(text) or text


def _number(text: str) -> Number | None:
    """The Number, in one of the engine's styles, whose English is `text`; None if none is."""
    match = _ENGLISH_NUMBER.fullmatch(text)
    if match is None:
        return None
    digits = (match["sign"] or "") + match["whole"].replace(",", "")
    if match["fraction"]:
        digits += "." + match["fraction"]
    if match["exponent"]:
        digits += "e" + match["exponent"]
    value = Decimal(digits)
    if match["percent"]:
        candidates = [Number(value / 100, "signed_percent"), Number(value / 100, "percent")]
    else:
        candidates = [
            *(Number(value, style) for style in ("whole", "one_place", "two_places", "exact")),
            *(Number(float(value), style) for style in ("g6", "plain", "g4")),
        ]
    return next((number for number in candidates if str(number) == text), None)


def _day(text: str) -> Day | None:
    for form, style in (("%d %B %Y", "long"), ("%B %Y", "month")):
        try:
            day = Day(datetime.strptime(text, form).date(), style)
        except ValueError:
            continue
        if str(day) == text:
            return day
    return None


def _messages(texts) -> tuple:
    return tuple(message_of(text) for text in texts)


def legacy_estimate(results: dict) -> KeptEstimate:
    """A version's `results` as the estimate API's JSON kept them, as a KeptEstimate."""
    result = result_from_response(results)
    sections = {}
    if result.training is not None:
        sections["training"] = replace(
            result.training,
            assumptions=_messages(result.training.assumptions),
            cost_note=message_of(result.training.cost_note),
        )
    if result.inference is not None:
        serving = result.inference.serving
        if serving is not None:
            serving = replace(
                serving, replica_chosen_because=message_of(serving.replica_chosen_because)
            )
        sections["inference"] = replace(
            result.inference, assumptions=_messages(result.inference.assumptions), serving=serving
        )
    return KeptEstimate(replace(result, **sections), uncertainty_from_response(results))


def legacy_budget(record: dict) -> KeptBudget:
    """A budget kept as the budget API's JSON, as a KeptBudget."""
    budget = budget_from_record(record)
    lines = tuple(
        replace(line, name=message_of(line.name), basis=message_of(line.basis))
        for line in budget.lines
    )
    return KeptBudget(
        currency=record["currency"],
        budget=replace(budget, lines=lines, notes=_messages(budget.notes)),
        period_start=_date(record["period_start"]),
        period_end=_date(record["period_end"]),
        period_is_default=record["period_is_default"],
        ranges=uncertainty_from_response(record, is_money=lambda path: True),
    )


def legacy_options(record: dict, start_month: int, label_rule: str) -> KeptOptions:
    """The options kept with a version as the options API's JSON, as KeptOptions.

    The JSON named each fiscal year only by its label: the years are drawn again over the
    record's period, on the project's fiscal calendar (`start_month`, `label_rule`) when it
    gives those labels, else on the first calendar that does. The unrounded monthly figures
    the crossovers were worked from, and the month the options' service started, were not
    kept: NaN and None (no reader of a kept comparison uses them)."""
    period_start = date.fromisoformat(record["period_start"])
    period_end = date.fromisoformat(record["period_end"])
    condition = record["condition"]
    comparison = OptionsComparison(
        fiscal_years=_options_years(
            record["fiscal_years"], period_start, period_end, start_month, label_rule
        ),
        options=tuple(_option_result(option) for option in record["options"]),
        cheapest=record["cheapest"],
        condition=Condition(
            condition["kind"], tuple(condition["options"]), condition["value"], condition["text"]
        ),
        crossovers=tuple(
            Crossover(tuple(crossover["options"]), crossover["requests_per_month"])
            for crossover in record["crossovers"]
        ),
        owning_beats_renting_utilisation=record.get("owning_beats_renting_utilisation"),
        commitment=(
            CommitmentCrossover(**record["commitment_crossover"])
            if record.get("commitment_crossover")
            else None
        ),
    )
    return KeptOptions(
        currency=record.get("currency", "USD"),
        comparison=comparison,
        period_start=period_start,
        period_end=period_end,
        discount_rate=record["discount_rate"],
        api_prices={
            option["key"]: ApiPricing(
                api_model=option["api_price"]["api_model"],
                tier=option["api_price"]["tier"],
                valid_from=_date(option["api_price"]["valid_from"]),
                as_of=date.fromisoformat(option["api_price"]["as_of"]),
            )
            for option in record["options"]
            if option.get("api_price")  # absent from records kept before the price tiers
        },
        unavailable={
            key: {field: _messages(texts) for field, texts in errors.items()}
            for key, errors in (record.get("unavailable") or {}).items()
        },
        ranges=_options_ranges(record.get("uncertainty")),
    )


def _options_years(
    labels: list[str], start: date, end: date, start_month: int, label_rule: str
) -> tuple[FiscalYear, ...]:
    calendars = [(start_month, label_rule)] + [
        (month, rule) for rule in LABEL_RULES for month in range(1, 13)
    ]
    for month, rule in calendars:
        years = fiscal_years(FiscalCalendar(month, rule, start, end))
        if [year.label for year in years] == labels:
            return years
    # No calendar gives these labels over this period (a record this module cannot place):
    # each year keeps its label over the whole period, which is all its readers show of it.
    return tuple(FiscalYear(label, start, end, 0) for label in labels)


def _option_result(option: dict) -> OptionResult:
    staff = option.get("staff") or {}  # absent from records kept before staff was given
    return OptionResult(
        key=option["key"],
        label=option["label"],
        one_off=Decimal(option["one_off"]),
        capex=Decimal(option["capex"]),
        opex=tuple(Decimal(year["amount"]) for year in option["opex"]),
        total=Decimal(option["total"]),
        npv=Decimal(option["npv"]),
        cost_per_request=_money(option["cost_per_request"]),
        cost_per_million_output_tokens=_money(option.get("cost_per_million_output_tokens")),
        accelerators=option["accelerators"],
        flags=tuple(option["flags"]),
        monthly_fixed_cost=math.nan,
        per_use_cost_per_request=math.nan,
        staff_fte=staff.get("fte"),
        staff_cost=_money(staff.get("cost")),
        staff_basis=staff.get("basis", "not_included"),
        commitment=_commitment(option.get("commitment")),
        # Absent from records kept before the options were compared on footprint.
        footprint=None if not option.get("footprint") else OptionFootprint(**option["footprint"]),
    )


def _commitment(stored: dict | None) -> CommitmentResult | None:
    """An option committed for a term, as the options API writes it (absent before then)."""
    if not stored:
        return None
    return CommitmentResult(
        **{
            field.name: Decimal(stored[field.name])
            if field.type in (Decimal, "Decimal")
            else stored[field.name]
            for field in fields(CommitmentResult)
        }
    )


def _options_ranges(stored: dict | None) -> OptionsUncertainty | None:
    if not stored:
        return None
    return OptionsUncertainty(
        samples=stored["samples"],
        seed=stored["seed"],
        figures={
            path: FigureRange(*(Decimal(figure[key]) for key in ("p5", "p50", "p95", "mean")))
            for path, figure in stored["figures"].items()
        },
        cheapest_share=dict(stored["cheapest_share"]),
    )


# The readers of the time, as they were.


def result_from_response(results: dict) -> EstimateResult:
    """The engine's result as a stored estimate response gave it. The response has no
    cumulative figures per month of inference: they come from the comparison's cumulative
    series when there is one (the engine's own figures), and otherwise from the monthly list
    (see `_to_date`)."""
    comparison = results.get("comparison")
    comparison_result = _comparison(comparison) if comparison else None
    training, inference = results.get("training"), results.get("inference")
    return EstimateResult(
        training=_training(training) if training else None,
        inference=_inference(inference, comparison_result) if inference else None,
        comparison=comparison_result,
        engine_version=results["engine_version"],
    )


def _money(amount: str | None) -> Decimal | None:
    return None if amount is None else Decimal(amount)


def _footprint_range(stored: dict | None) -> RequestFootprint | None:
    """An external API's footprint per request, as the estimate API writes it (absent before)."""
    if not stored:
        return None
    return RequestFootprint(
        **{
            f"{name}_{end}": stored[name][end]
            for name in stored
            for end in ("low", "high")
        }
    )


def _training(training: dict) -> TrainingResult:
    return TrainingResult(
        flop=training["flop"],
        petaflop_s_days=training["petaflop_s_days"],
        accelerator_hours=training["accelerator_hours"],
        wall_clock_hours=training["wall_clock_hours"],
        cost=_money(training["cost"]),
        price_per_accelerator_hour=training["price_per_accelerator_hour"],
        energy_kwh=training["energy_kwh"],
        emissions_kg_co2e=training["emissions_kg_co2e"],
        thresholds=tuple(
            ThresholdResult(name=t["name"], flop=t["flop"], exceeded=t["exceeded"])
            for t in training["thresholds"]
        ),
        assumptions=tuple(training["assumptions"]),
        cost_note=training.get("cost_note"),  # absent from records before training went unpriced
        # Absent from records before the footprint was reported.
        embodied_kg_co2e=training.get("embodied_kg_co2e"),
        water_litres=training.get("water_litres"),
    )


def _inference(inference: dict, comparison: ComparisonResult | None) -> InferenceResult:
    per_request, total = inference["per_request"], inference["total"]
    total_result = InferenceTotal(
        requests=total["requests"],
        accelerator_hours=total["accelerator_hours"],
        cost=_money(total["cost"]),
        pay_per_use_cost=_money(total["pay_per_use_cost"]),
        always_on_cost=_money(total["always_on_cost"]),
        energy_kwh=total["energy_kwh"],
        emissions_kg_co2e=total["emissions_kg_co2e"],
        embodied_kg_co2e=total.get("embodied_kg_co2e"),
        water_litres=total.get("water_litres"),
    )
    monthly = inference["monthly"]
    if comparison is not None:  # its month 0 is the training step
        to_date = [
            (c.inference_accelerator_hours, c.inference_cost) for c in comparison.cumulative[1:]
        ]
    else:
        to_date = _to_date(monthly, total_result.cost)
    return InferenceResult(
        per_request=PerRequest(
            flop=per_request["flop"],
            accelerator_seconds=per_request["accelerator_seconds"],
            latency_seconds=per_request["latency_seconds"],
            latency_method=per_request["latency_method"],
            cost=_money(per_request["cost"]),
            cost_per_1000=_money(per_request["cost_per_1000"]),
            energy_kwh=per_request["energy_kwh"],
            # Responses stored before reasoning tokens were reported have neither key.
            output_tokens=per_request.get("output_tokens"),
            reasoning_tokens=per_request.get("reasoning_tokens"),
            embodied_kg_co2e=per_request.get("embodied_kg_co2e"),
            water_litres=per_request.get("water_litres"),
            footprint_range=_footprint_range(per_request.get("footprint_range")),
        ),
        monthly=tuple(
            Month(
                month=month["month"],
                requests=month["requests"],
                accelerator_hours=month["accelerator_hours"],
                cost=_money(month["cost"]),
                energy_kwh=month["energy_kwh"],
                cumulative_accelerator_hours=hours_to_date,
                cumulative_cost=cost_to_date,
            )
            for month, (hours_to_date, cost_to_date) in zip(monthly, to_date, strict=True)
        ),
        total=total_result,
        peak_accelerators=inference["peak_accelerators"],
        peak_requests_per_second=inference["peak_requests_per_second"],
        peak_concurrent_requests=inference["peak_concurrent_requests"],
        gross_margin=inference["gross_margin"],
        revenue_total=_money(inference["revenue_total"]),
        assumptions=tuple(inference["assumptions"]),
        # Responses stored before serving was planned have no "serving" key.
        serving=_serving(inference["serving"]) if inference.get("serving") else None,
    )


def _serving(serving: dict) -> ServingResult:
    # Responses stored before the replica was chosen have no replica_choice.
    choice = tuple(ReplicaChoice(**option) for option in serving.get("replica_choice", ()))
    return ServingResult(**{**serving, "replica_choice": choice})


def _to_date(
    monthly: list[dict], horizon_cost: Decimal | None
) -> list[tuple[float | None, Decimal | None]]:
    """Accelerator-hours and cost of inference from month 1 to each month, from the monthly list.

    The engine rounds the cost to date once, from unrounded figures; adding up the months'
    rounded costs would drift from it by up to half a cent a month. So the horizon's cost is
    shared out instead: by accelerator-hours when paying per use, evenly when the bill is the
    same every month (always-on capacity). The last month then equals the horizon's cost, and
    every other month is the engine's figure in most cases and at most a cent off it in the rest.
    """
    if horizon_cost is None:  # a model that fits no replica: nothing to date can be true
        return [(None, None)] * len(monthly)
    if any(month["accelerator_hours"] is None for month in monthly):
        # An external API: no accelerator-hours; its bill follows the requests.
        hours = [None] * len(monthly)
        weights = list(accumulate(month["requests"] for month in monthly))
    else:
        hours = list(accumulate(month["accelerator_hours"] for month in monthly))
        flat_bill = len({month["cost"] for month in monthly}) <= 1
        weights = list(range(1, len(monthly) + 1)) if flat_bill else hours
    return [
        (hours_to_date, to_money(horizon_cost * Decimal(repr(weight / weights[-1]))))
        for hours_to_date, weight in zip(hours, weights, strict=True)
    ]


def _comparison(comparison: dict) -> ComparisonResult:
    return ComparisonResult(
        break_even_months=comparison["break_even_months"],
        break_even_months_cost=comparison["break_even_months_cost"],
        break_even_months_energy=comparison["break_even_months_energy"],
        within_horizon=comparison["within_horizon"],
        training_share=comparison["training_share"],
        training_share_cost=comparison["training_share_cost"],
        inference_share=comparison["inference_share"],
        cumulative=tuple(
            CumulativeMonth(
                month=month["month"],
                training_accelerator_hours=month["training_accelerator_hours"],
                inference_accelerator_hours=month["inference_accelerator_hours"],
                training_cost=_money(month["training_cost"]),
                inference_cost=_money(month["inference_cost"]),
                training_energy_kwh=month["training_energy_kwh"],
                inference_energy_kwh=month["inference_energy_kwh"],
            )
            for month in comparison["cumulative"]
        ),
    )


def _amounts(values: list[str]) -> tuple[Decimal, ...]:
    return tuple(Decimal(value) for value in values)


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def budget_from_record(record: dict) -> Budget:
    """The budget arithmetic's result, exactly as it was when `record` was kept."""
    totals, memo, summary = record["totals"], record["memo"], record["summary"]
    return Budget(
        fiscal_years=tuple(
            FiscalYear(y["label"], _date(y["start"]), _date(y["end"]), y["months"])
            for y in record["fiscal_years"]
        ),
        lines=tuple(
            BudgetLine(
                name=line["name"],
                kind=line["kind"],
                budget_class=line["budget_class"],
                category=line["category"],
                basis=line["basis"],
                amounts=_amounts(line["amounts"]),
                total=Decimal(line["total"]),
                share=line["share"],
                computed=line["computed"],
            )
            for line in record["lines"]
        ),
        totals=Totals(
            **{name: _amounts(totals[name]) for name in _TOTALS},
            total=_amounts(totals["total"]),
        ),
        memo=Memo(
            depreciation=_amounts(memo["depreciation"]),
            energy_kwh=None if memo["energy_kwh"] is None else tuple(memo["energy_kwh"]),
            emissions_kg_co2e=(
                None if memo["emissions_kg_co2e"] is None else tuple(memo["emissions_kg_co2e"])
            ),
            embodied_kg_co2e=(
                None if memo.get("embodied_kg_co2e") is None else tuple(memo["embodied_kg_co2e"])
            ),
            water_litres=None if memo.get("water_litres") is None else tuple(memo["water_litres"]),
        ),
        summary=Summary(
            upfront=Decimal(summary["upfront"]),
            annual_run_rate=Decimal(summary["annual_run_rate"]),
            total=Decimal(summary["total"]),
            npv=Decimal(summary["npv"]),
            discount_rate=summary["discount_rate"],
            prices_as_of=_date(summary["prices_as_of"]),
        ),
        notes=tuple(record["notes"]),
    )


def uncertainty_from_response(
    results: dict | None, is_money: Callable[[str], bool] = MONEY_FIGURES.__contains__
) -> UncertaintyResult | None:
    """The `uncertainty` of a stored estimate response (or budget record, whose figures are all
    money: `is_money` says which are) as the sampler's result (money as Decimal), so that a
    saved version reads as the live page does; None without ranges."""
    stored = (results or {}).get("uncertainty")
    if not stored:
        return None

    def value(path: str, raw):
        if raw is None:
            return None
        return Decimal(raw) if is_money(path) else float(raw)

    figures = {
        path: FigureRange(
            value(path, figure.get("p5")),
            value(path, figure.get("p50")),
            value(path, figure.get("p95")),
            value(path, figure.get("mean")),
            figure.get("probability_never"),
        )
        for path, figure in stored.get("figures", {}).items()
    }
    return UncertaintyResult(
        samples=stored["samples"],
        seed=stored["seed"],
        figures=figures,
        clipped=dict(stored.get("clipped") or {}),
        shared=tuple(tuple(paths) for paths in stored.get("shared") or ()),
        fan=_fan(stored.get("fan")),
    )


def _fan(stored: dict | None) -> tuple[FanMonth, ...]:
    """The fan's months as a version keeps them (apps.api.representation); none in versions
    saved before it was kept, or without a monthly cost."""
    if not stored:
        return ()
    columns = zip(stored["months"], stored["p5"], stored["p50"], stored["p95"], strict=True)
    return tuple(
        FanMonth(month, Decimal(p5), Decimal(p50), Decimal(p95)) for month, p5, p50, p95 in columns
    )
