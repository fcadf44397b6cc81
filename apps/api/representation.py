"""The estimate response as plain JSON data, built straight from the engine's result dataclasses.

EstimateResponseSerializer documents this shape in the OpenAPI schema; running it on every
request cost more than the estimate itself, so the API builds the same dict by hand
(tests/integration/test_api_estimate_contract.py checks that the two agree, field for field).
Money is a decimal string as DRF's DecimalField writes it: to the cent ("1234.50"), below a cent
to four significant figures ("0.001664"), as the engine rounded it.
"""

from decimal import Decimal

from apps.estimates import (
    CommitmentResult,
    ComparisonResult,
    CumulativeMonth,
    EstimateResult,
    InferenceResult,
    Month,
    RequestFootprint,
    ServingResult,
    ThresholdResult,
    TrainingResult,
)
from apps.estimates.modification import ModificationResult
from apps.estimates.uncertainty import FigureRange, UncertaintyResult


def money(amount: Decimal) -> str:
    if type(amount) is Decimal:
        # str() is `:f` at half the cost, but for an exponent it writes ("1E+2", "1.234E-9").
        text = str(amount)
        if "E" not in text:
            return text
    return f"{amount:f}"


def optional_money(amount: Decimal | None) -> str | None:
    return None if amount is None else money(amount)


def _threshold(threshold: ThresholdResult) -> dict:
    return {"name": threshold.name, "flop": threshold.flop, "exceeded": threshold.exceeded}


def _training(training: TrainingResult) -> dict:
    return {
        "flop": training.flop,
        "petaflop_s_days": training.petaflop_s_days,
        "accelerator_hours": training.accelerator_hours,
        "wall_clock_hours": training.wall_clock_hours,
        "price_per_accelerator_hour": training.price_per_accelerator_hour,
        "cost": optional_money(training.cost),
        "energy_kwh": training.energy_kwh,
        "emissions_kg_co2e": training.emissions_kg_co2e,
        "embodied_kg_co2e": training.embodied_kg_co2e,
        "water_litres": training.water_litres,
        "thresholds": [_threshold(threshold) for threshold in training.thresholds],
        "assumptions": list(training.assumptions),
        "cost_note": training.cost_note,
        "modification": _modification(training.modification),
    }


def _modification(modification: ModificationResult | None) -> dict | None:
    if modification is None:
        return None
    return {
        "base_model": modification.base_model,
        "base_model_flop": modification.base_model_flop,
        "share": modification.share,
        "threshold_flop": modification.threshold_flop,
        "fallback": modification.fallback,
        "exceeded": modification.exceeded,
        "summary": modification.summary,
    }


FOOTPRINT_FIGURES = ("energy_kwh", "usage_kg_co2e", "embodied_kg_co2e", "water_litres")


def footprint_range_data(footprint: RequestFootprint | None) -> dict | None:
    if footprint is None:
        return None
    return {
        name: {"low": getattr(footprint, f"{name}_low"), "high": getattr(footprint, f"{name}_high")}
        for name in FOOTPRINT_FIGURES
    }


def _month(month: Month) -> dict:
    return {
        "month": month.month,
        "requests": month.requests,
        "accelerator_hours": month.accelerator_hours,
        "cost": optional_money(month.cost),
        "energy_kwh": month.energy_kwh,
    }


SERVING_FIELDS = (
    "fits",
    "limited_by",
    "weights_gb",
    "kv_cache_bytes_per_token",
    "accelerators_per_replica",
    "tensor_parallel",
    "pipeline_parallel",
    "kv_cache_capacity_tokens",
    "max_concurrent_requests",
    "batch_size",
    "output_tokens_per_second",
    "requests_per_second",
    "ttft_seconds",
    "tpot_seconds",
    "replicas_at_peak",
)
REPLICA_CHOICE_FIELDS = (
    "accelerators_per_replica",
    "fits",
    "batch_size",
    "output_tokens_per_second",
    "replicas_at_peak",
    "meets_targets",
)


def _serving(serving: ServingResult | None) -> dict | None:
    if serving is None:
        return None
    return {
        **{name: getattr(serving, name) for name in SERVING_FIELDS},
        "replica_choice": [
            {name: getattr(option, name) for name in REPLICA_CHOICE_FIELDS}
            for option in serving.replica_choice
        ],
        "replica_chosen_because": serving.replica_chosen_because,
    }


COMMITMENT_MONEY = (
    "upfront_per_term",
    "monthly_payment",
    "commitment_cost",
    "after_horizon_cost",
    "on_demand_cost",
    "idle_cost",
)
COMMITMENT_FIGURES = (
    "years",
    "term_months",
    "terms",
    "upfront_share",
    "discount",
    "committed_accelerators",
    "on_demand_price_per_accelerator_hour",
    "price_per_accelerator_hour",
    "months_after_horizon",
    "on_demand_accelerator_hours",
    "idle_accelerator_hours",
    "idle_share",
)


def commitment_data(commitment: CommitmentResult | None) -> dict | None:
    if commitment is None:
        return None
    return {
        **{name: getattr(commitment, name) for name in COMMITMENT_FIGURES},
        **{name: money(getattr(commitment, name)) for name in COMMITMENT_MONEY},
    }


def _inference(inference: InferenceResult) -> dict:
    per_request, total = inference.per_request, inference.total
    return {
        "per_request": {
            "flop": per_request.flop,
            "accelerator_seconds": per_request.accelerator_seconds,
            "latency_seconds": per_request.latency_seconds,
            "latency_method": per_request.latency_method,
            "cost": optional_money(per_request.cost),
            "cost_per_1000": optional_money(per_request.cost_per_1000),
            "energy_kwh": per_request.energy_kwh,
            "embodied_kg_co2e": per_request.embodied_kg_co2e,
            "water_litres": per_request.water_litres,
            "output_tokens": per_request.output_tokens,
            "reasoning_tokens": per_request.reasoning_tokens,
            "footprint_range": footprint_range_data(per_request.footprint_range),
        },
        "monthly": [_month(month) for month in inference.monthly],
        "total": {
            "requests": total.requests,
            "accelerator_hours": total.accelerator_hours,
            "cost": optional_money(total.cost),
            "pay_per_use_cost": optional_money(total.pay_per_use_cost),
            "always_on_cost": optional_money(total.always_on_cost),
            "energy_kwh": total.energy_kwh,
            "emissions_kg_co2e": total.emissions_kg_co2e,
            "embodied_kg_co2e": total.embodied_kg_co2e,
            "water_litres": total.water_litres,
        },
        "peak_accelerators": inference.peak_accelerators,
        "peak_requests_per_second": inference.peak_requests_per_second,
        "peak_concurrent_requests": inference.peak_concurrent_requests,
        "gross_margin": inference.gross_margin,
        "revenue_total": optional_money(inference.revenue_total),
        "assumptions": list(inference.assumptions),
        "serving": _serving(inference.serving),
        "commitment": commitment_data(inference.commitment),
    }


def _cumulative_month(month: CumulativeMonth) -> dict:
    return {
        "month": month.month,
        "training_accelerator_hours": month.training_accelerator_hours,
        "inference_accelerator_hours": month.inference_accelerator_hours,
        "training_cost": optional_money(month.training_cost),
        "inference_cost": optional_money(month.inference_cost),
        "training_energy_kwh": month.training_energy_kwh,
        "inference_energy_kwh": month.inference_energy_kwh,
    }


def _comparison(comparison: ComparisonResult) -> dict:
    return {
        "break_even_months": comparison.break_even_months,
        "break_even_months_cost": comparison.break_even_months_cost,
        "break_even_months_energy": comparison.break_even_months_energy,
        "within_horizon": comparison.within_horizon,
        "training_share": comparison.training_share,
        "training_share_cost": comparison.training_share_cost,
        "inference_share": comparison.inference_share,
        "cumulative": [_cumulative_month(month) for month in comparison.cumulative],
    }


def estimate_representation(result: EstimateResult, notes: dict[str, list[str]]) -> dict:
    """The response of POST /api/v1/estimate/; `notes` go first in each section's assumptions."""
    data = {
        "currency": "USD",
        "training": None if result.training is None else _training(result.training),
        "inference": None if result.inference is None else _inference(result.inference),
        "comparison": None if result.comparison is None else _comparison(result.comparison),
        "engine_version": result.engine_version,
    }
    for section, section_notes in notes.items():
        data[section]["assumptions"][:0] = section_notes
    return data


def _figure_range(figure: FigureRange) -> dict:
    def value(quantile: float | Decimal | None) -> float | str | None:
        return money(quantile) if isinstance(quantile, Decimal) else quantile

    data = {
        "p5": value(figure.p5),
        "p50": value(figure.p50),
        "p95": value(figure.p95),
        "mean": value(figure.mean),
    }
    if figure.probability_never is not None:
        data["probability_never"] = figure.probability_never
    return data


def uncertainty_representation(result: UncertaintyResult) -> dict:
    """The response's `uncertainty`: percentiles by response path, clipping by request path."""
    data = {
        "samples": result.samples,
        "seed": result.seed,
        "figures": {path: _figure_range(figure) for path, figure in result.figures.items()},
        "clipped": dict(result.clipped),
        "shared": [list(paths) for paths in result.shared],
    }
    return data
