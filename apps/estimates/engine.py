"""The estimate engine: `evaluate` for sweeps (arrays) and `estimate` for one scenario (money)."""

import math
from dataclasses import replace
from decimal import Decimal

import numpy as np

from apps.estimates import external_api as api
from apps.estimates import formulas as f
from apps.estimates.assumptions import inference_assumptions, missing_price, training_assumptions
from apps.estimates.commitment import CommitmentFigures, excess_accelerator_hours
from apps.estimates.footprint import water_of
from apps.estimates.formulas import Quantity
from apps.estimates.inputs import EstimateInput
from apps.estimates.modification import modification_result
from apps.estimates.money import to_money_figure
from apps.estimates.results import (
    CommitmentResult,
    ComparisonResult,
    CumulativeMonth,
    EstimateResult,
    Figures,
    InferenceResult,
    InferenceTotal,
    Month,
    PerRequest,
    ThresholdResult,
    TrainingResult,
)
from apps.estimates.section_figures import (
    NAN,
    ComparisonFigures,
    InferenceFigures,
    TrainingFigures,
    optional,
)
from apps.estimates.sections import compute
from apps.estimates.serving_report import check_replica_fits, serving_result
from apps.estimates.validation import validate

ENGINE_VERSION = "1.0.0"
BLOCK_POINTS = 65_536  # 512 KiB a float array: `evaluate`'s blocks stay in the cache
_PLAIN_VALUES = frozenset({float, int, str, bool, type(None)})


def _input_shape(inp: EstimateInput) -> tuple[int, ...]:
    shapes = []

    def visit(node: object) -> None:
        # vars() and the attribute is_dataclass looks for: the same walk as dataclasses.fields()
        # and is_dataclass(), at a fraction of their cost per value.
        for value in vars(node).values():
            if type(value) in _PLAIN_VALUES:
                continue
            if isinstance(value, np.ndarray):
                shapes.append(value.shape)
            elif isinstance(value, tuple):
                for item in value:
                    visit(item)
            elif hasattr(value, "__dataclass_fields__"):
                visit(value)

    visit(inp)
    if not shapes:
        return ()
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError as error:
        raise ValueError(f"Array inputs do not broadcast together: {shapes}") from error


def evaluate(inp: EstimateInput) -> Figures:
    """Validate, then compute the headline figures; any numeric input may be an array.

    Arrays broadcast against each other; every figure is a float when all inputs are scalars,
    else an array of the broadcast shape (read-only where it does not vary). NaN marks figures
    that cannot be computed; see `Figures`. No money rounding and no monthly series here.

    A long run of points (one dimension) is computed BLOCK_POINTS at a time: each formula works
    point by point, so the figures are the same, and arrays that stay in the processor's cache
    make a 10^6-point sweep several times faster than whole-length arrays.
    """
    validate(inp)
    shape = _input_shape(inp)
    if len(shape) != 1 or shape[0] <= BLOCK_POINTS:
        return _figures(inp, shape)[0]
    count = shape[0]
    columns = {name: np.empty(count) for name in Figures.__dataclass_fields__}
    for start in range(0, count, BLOCK_POINTS):
        stop = min(start + BLOCK_POINTS, count)
        block = _figures(_points(inp, start, stop, count), (stop - start,))[0]
        for name, column in columns.items():
            column[start:stop] = getattr(block, name)
    return Figures(**columns)


def _points(node: object, start: int, stop: int, count: int) -> object:
    """`node` (inputs, nested) with every array of `count` points cut to points start … stop − 1."""
    changes = {}
    for name, value in vars(node).items():
        if type(value) in _PLAIN_VALUES:
            continue
        if isinstance(value, np.ndarray):
            if value.shape == (count,):
                changes[name] = value[start:stop]
        elif isinstance(value, tuple):
            changes[name] = tuple(
                _points(item, start, stop, count) if hasattr(item, "__dataclass_fields__") else item
                for item in value
            )
        elif hasattr(value, "__dataclass_fields__"):
            changes[name] = _points(value, start, stop, count)
    return replace(node, **changes) if changes else node


def evaluate_with_sections(
    inp: EstimateInput,
) -> tuple[Figures, InferenceFigures | None]:
    """`evaluate`'s figures, and the inference section they came from (for series over months
    computed from the same samples, such as the cumulative cost's fan)."""
    validate(inp)
    return _figures(inp, _input_shape(inp))


def _figures(
    inp: EstimateInput, shape: tuple[int, ...] | None
) -> tuple[Figures, InferenceFigures | None]:
    """The headline figures of valid inputs of this broadcast shape (None: work it out)."""
    shape = _input_shape(inp) if shape is None else shape
    training, inference, comparison = compute(inp, comparison_in_cost_and_energy=False)

    serving = None if inference is None else inference.serving

    def served(name: str) -> Quantity:
        # Only where the model fits: elsewhere the replica figures mean nothing.
        if serving is None:
            return shaped(NAN)
        value = getattr(serving, name)
        return shaped(value if np.all(serving.fits) else np.where(serving.fits, value, NAN))

    def figure(section: object, name: str) -> Quantity:
        return shaped(NAN if section is None else getattr(section, name))

    def shaped(value: Quantity) -> Quantity:
        if shape == ():
            return float(value)
        if isinstance(value, np.ndarray) and value.shape == shape:
            return value
        return np.broadcast_to(np.asarray(value, dtype=np.float64), shape)

    figures = Figures(
        training_flop=figure(training, "flop"),
        training_accelerator_hours=figure(training, "accelerator_hours"),
        training_wall_clock_hours=figure(training, "wall_clock_hours"),
        training_cost=figure(training, "cost"),
        training_energy_kwh=figure(training, "energy_kwh"),
        training_emissions_kg_co2e=figure(training, "emissions_kg_co2e"),
        training_embodied_kg_co2e=figure(training, "embodied_kg_co2e"),
        training_water_litres=figure(training, "water_litres"),
        inference_accelerator_seconds_per_request=figure(inference, "accelerator_seconds"),
        inference_latency_seconds=figure(inference, "latency_seconds"),
        inference_total_requests=figure(inference, "total_requests"),
        inference_accelerator_hours=figure(inference, "accelerator_hours"),
        inference_cost=figure(inference, "cost"),
        inference_energy_kwh=figure(inference, "energy_kwh"),
        inference_emissions_kg_co2e=figure(inference, "emissions_kg_co2e"),
        inference_embodied_kg_co2e=figure(inference, "embodied_kg_co2e"),
        inference_water_litres=figure(inference, "water_litres"),
        peak_accelerators=figure(inference, "peak_accelerators"),
        cost_per_request=figure(inference, "cost_per_request"),
        break_even_months=figure(comparison, "break_even_months"),
        training_share=figure(comparison, "training_share"),
        serving_accelerators_per_replica=served("accelerators_per_replica"),
        serving_batch_size=served("batch_size"),
        serving_output_tokens_per_second=served("output_tokens_per_second"),
        serving_ttft_seconds=served("ttft_seconds"),
        serving_tpot_seconds=served("tpot_seconds"),
        serving_replicas_at_peak=served("replicas_at_peak"),
    )
    return figures, inference


def estimate(inp: EstimateInput) -> EstimateResult:
    """Validate and estimate one scenario: figures, monthly series and money as Decimal.

    Runs the same section computations as `evaluate`, on scalars; raises ValueError when an
    input is an array (use `evaluate` for sweeps).
    """
    validate(inp)
    if _input_shape(inp) != ():
        raise ValueError("estimate() takes one scenario; use evaluate() for array inputs.")
    training, inference, comparison = compute(inp)
    if inference is not None:
        check_replica_fits(inp.inference, inference)
    # Inference to date after months 0, 1, …, M: one array call serves both series.
    to_date = None if inference is None else _inference_to_date(inference)
    return EstimateResult(
        training=None if training is None else _training_result(inp, training),
        inference=None if inference is None else _inference_result(inp, inference, to_date),
        comparison=(
            None
            if comparison is None
            else _comparison_result(training, inference, comparison, to_date)
        ),
        engine_version=ENGINE_VERSION,
    )


def _known(value: Quantity) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


def _money(amount: float) -> Decimal | None:
    """Money, or None where it cannot be worked out (a model that fits no replica, training
    without a price)."""
    return None if math.isnan(amount) else to_money_figure(amount)


def _moneys(amounts: list[float]) -> list[Decimal | None]:
    """`_money` of each amount, each distinct amount rounded once: a month's cost is often the
    month before's (no growth, always on, a commitment's charge)."""
    figures: dict[float, Decimal | None] = {}
    for amount in amounts:
        if amount not in figures:
            figures[amount] = _money(amount)
    return [figures.get(amount) for amount in amounts]


def _knowns(values: list[float]) -> list[float | None]:
    return [None if math.isnan(value) else value for value in values]


def _training_result(inp: EstimateInput, training: TrainingFigures) -> TrainingResult:
    flop = _known(training.flop)
    thresholds = (
        ()
        if flop is None
        else tuple(
            ThresholdResult(t.name, float(t.flop), bool(f.exceeds(flop, float(t.flop))))
            for t in inp.thresholds
        )
    )
    return TrainingResult(
        flop=flop,
        petaflop_s_days=None if flop is None else float(f.petaflop_s_days(flop)),
        accelerator_hours=_known(training.accelerator_hours),
        wall_clock_hours=_known(training.wall_clock_hours),
        cost=_money(float(training.cost)),
        price_per_accelerator_hour=_known(training.price_per_accelerator_hour),
        energy_kwh=_known(training.energy_kwh),
        emissions_kg_co2e=_known(training.emissions_kg_co2e),
        embodied_kg_co2e=_known(training.embodied_kg_co2e),
        water_litres=_known(training.water_litres),
        thresholds=thresholds,
        assumptions=api.fine_tune_assumptions(inp.training)
        if inp.training.method == api.API_FINE_TUNE
        else training_assumptions(inp.training, inp.energy, flop is not None),
        cost_note=None
        if inp.training.method == api.API_FINE_TUNE
        else missing_price(inp.training.pricing),
        modification=None
        if flop is None or inp.training.base_model is None
        else modification_result(flop, inp.training.base_model),
    )


# After months 0, 1, …, M: accelerator-hours (None: an external API's are not published), cost
# rounded to the cent, energy (None: no power).
type ToDate = tuple[list[float | None], list[Decimal], list[float] | None]


def inference_cost_to_date(inference: InferenceFigures, months: Quantity) -> Quantity:
    """Cumulative inference cost after `months` months (unrounded; arrays broadcast), as the
    monthly series counts it: per request for an external API, per provisioned hour when always
    on, the commitment's monthly charge and the busy hours beyond it when committed (without
    the committed months after the horizon), else per busy accelerator-hour."""
    requests = f.total_requests(inference.requests_per_month, inference.monthly_growth, months)
    return _cost_to_date(inference, months, requests)


def _cost_to_date(inference: InferenceFigures, months: Quantity, requests: Quantity) -> Quantity:
    """`inference_cost_to_date` of the requests to date, worked out already."""
    if inference.priced_per_request:
        return api.api_cost_of_requests(requests, inference.cost_per_request)
    if inference.committed is not None:
        return _committed_to_date(inference, inference.committed, months)
    if inference.always_on:
        return f.cost(
            f.always_on_accelerator_hours(inference.peak_accelerators, months),
            inference.provisioned_price_per_accelerator_hour,
        )
    hours = f.monthly_accelerator_hours(requests, inference.accelerator_seconds)
    return f.cost(hours, inference.price_per_accelerator_hour)


def _committed_to_date(
    inference: InferenceFigures, committed: CommitmentFigures, months: Quantity
) -> Quantity:
    first_hours = f.monthly_accelerator_hours(
        inference.requests_per_month, inference.accelerator_seconds
    )
    excess = excess_accelerator_hours(
        first_hours, inference.monthly_growth, months, committed.served_hours_a_month
    )
    return committed.monthly_charge * months + f.cost(
        excess, committed.on_demand_price_per_accelerator_hour
    )


def _inference_to_date(inference: InferenceFigures) -> ToDate:
    """Cumulative inference accelerator-hours, cost and energy after months 0, 1, …, M."""
    months = np.arange(int(inference.months) + 1.0)
    requests = f.total_requests(inference.requests_per_month, inference.monthly_growth, months)
    cost = _cost_to_date(inference, months, requests)
    if inference.priced_per_request:
        return [None] * len(months), [to_money_figure(amount) for amount in cost.tolist()], None
    hours = f.monthly_accelerator_hours(requests, inference.accelerator_seconds)
    energy = _energy(inference, hours)
    return (
        _knowns(hours.tolist()),
        _moneys(cost.tolist()),
        None if energy is None else _knowns(energy.tolist()),
    )


def _energy(inference: InferenceFigures, accelerator_hours: Quantity) -> Quantity | None:
    if inference.power_watts is None:
        return None
    return f.energy_kwh(accelerator_hours, inference.power_watts, inference.pue)


def _months(inference: InferenceFigures, to_date: ToDate) -> tuple[Month, ...]:
    months = np.arange(1, int(inference.months) + 1, dtype=np.float64)
    requests = f.requests_in_month(inference.requests_per_month, inference.monthly_growth, months)
    hours = f.monthly_accelerator_hours(requests, inference.accelerator_seconds)
    if inference.priced_per_request:
        cost = api.api_cost_of_requests(requests, inference.cost_per_request)
    elif inference.always_on:
        monthly_bill = f.cost(
            f.always_on_accelerator_hours(inference.peak_accelerators, 1.0),
            inference.provisioned_price_per_accelerator_hour,
        )
        cost = np.full_like(months, monthly_bill)
    elif inference.committed is not None:
        committed = inference.committed
        excess = np.maximum(hours - committed.served_hours_a_month, 0.0)
        cost = committed.monthly_charge + f.cost(
            excess, committed.on_demand_price_per_accelerator_hour
        )
    else:
        cost = f.cost(hours, inference.price_per_accelerator_hour)
    energy = _energy(inference, hours)
    energies = [None] * len(months) if energy is None else _knowns(energy.tolist())
    hours_to_date, cost_to_date, _ = to_date
    month_hours = [None] * len(months) if inference.priced_per_request else _knowns(hours.tolist())
    # tolist(): Python floats of the same values, without a NumPy scalar per figure.
    return tuple(
        Month(
            month=index + 1,
            requests=month_requests,
            accelerator_hours=month_hours,
            cost=month_cost,
            energy_kwh=month_energy,
            cumulative_accelerator_hours=hours_to_date[index + 1],
            cumulative_cost=cost_to_date[index + 1],
        )
        for index, (month_requests, month_hours, month_cost, month_energy) in enumerate(
            zip(requests.tolist(), month_hours, _moneys(cost.tolist()), energies, strict=True)
        )
    )


def _inference_result(
    inp: EstimateInput, inference: InferenceFigures, to_date: ToDate
) -> InferenceResult:
    seconds = inference.accelerator_seconds
    request_energy = _energy(inference, f.monthly_accelerator_hours(1.0, seconds))
    footprint = inp.inference.request_footprint if inference.priced_per_request else None
    if footprint is not None:
        request_energy = footprint.middle("energy_kwh")
    revenue = optional(inp.inference.revenue_per_request)
    serving = (
        None if inference.serving is None else serving_result(inp.inference, inference.serving)
    )
    peak_accelerators = _known(inference.peak_accelerators)
    reads_tokens = inp.inference.method != "accelerator_seconds"
    return InferenceResult(
        per_request=PerRequest(
            flop=_known(inference.flop_per_request),
            accelerator_seconds=_known(seconds),
            latency_seconds=_known(inference.latency_seconds),
            latency_method=inference.latency_method,
            cost=_money(inference.cost_per_request),
            cost_per_1000=_money(1000 * inference.cost_per_request),
            energy_kwh=None if request_energy is None else _known(request_energy),
            output_tokens=optional(inp.inference.output_tokens) if reads_tokens else None,
            reasoning_tokens=float(inp.inference.reasoning_tokens) if reads_tokens else None,
            embodied_kg_co2e=_known(
                inference.embodied_kg_per_accelerator_hour
                * f.monthly_accelerator_hours(1.0, seconds)
            )
            if footprint is None
            else footprint.middle("embodied_kg_co2e"),
            water_litres=(
                None if request_energy is None else _known(water_of(request_energy, inp.energy))
            )
            if footprint is None
            else footprint.middle("water_litres"),
            footprint_range=footprint,
        ),
        monthly=_months(inference, to_date),
        total=InferenceTotal(
            requests=float(inference.total_requests),
            accelerator_hours=_known(inference.accelerator_hours),
            cost=_money(inference.cost),
            pay_per_use_cost=_money(inference.pay_per_use_cost),
            always_on_cost=None
            if inference.priced_per_request
            else _money(inference.always_on_cost),
            energy_kwh=_known(inference.energy_kwh),
            emissions_kg_co2e=_known(inference.emissions_kg_co2e),
            embodied_kg_co2e=_known(inference.embodied_kg_co2e),
            water_litres=_known(inference.water_litres),
        ),
        peak_accelerators=None if peak_accelerators is None else int(peak_accelerators),
        peak_requests_per_second=float(inference.peak_requests_per_second),
        peak_concurrent_requests=_known(inference.peak_concurrent_requests),
        gross_margin=None
        if revenue is None
        else _known(f.gross_margin(revenue, inference.cost_per_request)),
        revenue_total=None
        if revenue is None
        else to_money_figure(revenue * inference.total_requests),
        assumptions=api.inference_assumptions(inp.inference)
        if inference.priced_per_request
        else inference_assumptions(inp.inference, inp.energy, inference, serving),
        serving=serving,
        # None too where the model fits no replica: no capacity to commit can be sized.
        commitment=None
        if inference.committed is None or math.isnan(float(inference.committed.cost))
        else _commitment_result(inference),
    )


def _commitment_result(inference: InferenceFigures) -> CommitmentResult:
    c = inference.committed
    committed_hours = f.always_on_accelerator_hours(c.committed_accelerators, c.committed_months)
    months_after = float(c.committed_months) - float(inference.months)
    return CommitmentResult(
        years=int(c.term_months) // 12,
        term_months=int(c.term_months),
        terms=int(c.terms),
        upfront_share=float(c.upfront_share),
        discount=float(c.discount),
        committed_accelerators=int(c.committed_accelerators),
        on_demand_price_per_accelerator_hour=float(c.on_demand_price_per_accelerator_hour),
        price_per_accelerator_hour=float(c.price_per_accelerator_hour),
        upfront_per_term=to_money_figure(float(c.upfront_per_term)),
        monthly_payment=to_money_figure(float(c.monthly_payment)),
        commitment_cost=to_money_figure(float(c.commitment_cost)),
        months_after_horizon=int(months_after),
        after_horizon_cost=to_money_figure(float(c.monthly_charge) * months_after),
        on_demand_accelerator_hours=float(c.on_demand_accelerator_hours),
        on_demand_cost=to_money_figure(float(c.on_demand_cost)),
        idle_accelerator_hours=float(c.idle_accelerator_hours),
        idle_share=float(c.idle_accelerator_hours) / float(committed_hours)
        if committed_hours
        else 0.0,
        idle_cost=to_money_figure(float(c.idle_cost)),
    )


def _comparison_result(
    training: TrainingFigures,
    inference: InferenceFigures,
    comparison: ComparisonFigures,
    to_date: ToDate,
) -> ComparisonResult:
    hours, cost, energy = to_date
    training_hours = _known(training.accelerator_hours)
    training_cost = _money(float(training.cost))
    training_energy = _known(training.energy_kwh)
    break_even = _known(comparison.break_even_months)
    share = _known(comparison.training_share)
    return ComparisonResult(
        break_even_months=break_even,
        break_even_months_cost=_known(comparison.break_even_months_cost),
        break_even_months_energy=_known(comparison.break_even_months_energy),
        within_horizon=break_even is not None and break_even <= inference.months,
        training_share=share,
        training_share_cost=_known(comparison.training_share_cost),
        inference_share=None if share is None else 1.0 - share,
        cumulative=tuple(
            CumulativeMonth(
                month=month,
                training_accelerator_hours=training_hours,
                inference_accelerator_hours=hours[month],
                training_cost=training_cost,
                inference_cost=cost[month],
                training_energy_kwh=training_energy,
                inference_energy_kwh=None if energy is None else energy[month],
            )
            for month in range(len(hours))
        ),
    )
