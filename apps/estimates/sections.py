"""Figures of each section (training, inference, comparison) for floats and arrays alike:
`compute` runs each section present (apps.estimates.section_training,
apps.estimates.section_inference) and compares them."""

from apps.estimates import external_api as api
from apps.estimates import formulas as f
from apps.estimates.inputs import EstimateInput
from apps.estimates.section_figures import (
    NAN,
    ComparisonFigures,
    InferenceFigures,
    TrainingFigures,
)
from apps.estimates.section_inference import external_api_figures, inference_figures
from apps.estimates.section_training import api_fine_tune_figures, training_figures


def _comparison(
    training: TrainingFigures, inference: InferenceFigures, *, in_cost_and_energy: bool = True
) -> ComparisonFigures:
    growth = inference.monthly_growth
    first_hours = f.monthly_accelerator_hours(
        inference.requests_per_month, inference.accelerator_seconds
    )
    break_even_months = f.break_even_months(training.accelerator_hours, first_hours, growth)
    training_share = f.training_share(training.accelerator_hours, inference.accelerator_hours)
    if not in_cost_and_energy:
        return ComparisonFigures(break_even_months, NAN, NAN, training_share, NAN)
    if inference.priced_per_request:
        first_cost = api.api_cost_of_requests(
            inference.requests_per_month, inference.cost_per_request
        )
        cost_growth = growth
    elif inference.always_on:
        # Always-on capacity costs the same every month, whatever the demand does.
        first_cost = f.cost(
            f.always_on_accelerator_hours(inference.peak_accelerators, 1.0),
            inference.provisioned_price_per_accelerator_hour,
        )
        cost_growth = 0.0
    elif inference.committed is not None:
        # The commitment's monthly charge, the same every month; busy hours beyond the
        # committed capacity (none when it is sized for the peak) are left out of this figure.
        first_cost = inference.committed.monthly_charge
        cost_growth = 0.0
    else:
        first_cost = f.cost(first_hours, inference.price_per_accelerator_hour)
        cost_growth = growth
    first_energy = (
        NAN
        if inference.power_watts is None
        else f.energy_kwh(first_hours, inference.power_watts, inference.pue)
    )
    return ComparisonFigures(
        break_even_months=break_even_months,
        break_even_months_cost=f.break_even_months(training.cost, first_cost, cost_growth),
        break_even_months_energy=f.break_even_months(training.energy_kwh, first_energy, growth),
        training_share=training_share,
        training_share_cost=f.training_share(training.cost, inference.cost),
    )


def compute(
    inp: EstimateInput, *, comparison_in_cost_and_energy: bool = True
) -> tuple[TrainingFigures | None, InferenceFigures | None, ComparisonFigures | None]:
    """Every figure of every section present, without validation, rounding or monthly series.

    Without `comparison_in_cost_and_energy`, the comparison's break-even in cost and in energy
    and training's share of cost are NaN, not computed: `evaluate` reports none of them, and
    on 10^5–10^6 samples they would cost a third of its time.
    """
    training = inference = None
    if inp.training is not None:
        if inp.training.method == api.API_FINE_TUNE:
            training = api_fine_tune_figures(inp.training)
        else:
            training = training_figures(inp.training, inp.energy)
    if inp.inference is not None:
        if inp.inference.method == api.EXTERNAL_API:
            inference = external_api_figures(inp.inference, inp.energy)
        else:
            inference = inference_figures(inp.inference, inp.energy)
    both = training is not None and inference is not None
    comparison = (
        _comparison(training, inference, in_cost_and_energy=comparison_in_cost_and_energy)
        if both
        else None
    )
    return training, inference, comparison
