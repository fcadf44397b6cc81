"""Versions of a scenario: what was saved, what it gave, and the catalogue figures it used."""

import datetime
from decimal import Decimal
from itertools import accumulate

from apps.api.estimate import estimate_response
from apps.apiprices.selectors import price_in_force
from apps.budget.records import budget_record
from apps.catalogue.snapshot import Catalogue
from apps.estimates import (
    ENGINE_VERSION,
    ComparisonResult,
    CumulativeMonth,
    EstimateResult,
    InferenceResult,
    InferenceTotal,
    Month,
    PerRequest,
    ReplicaChoice,
    ServingResult,
    ThresholdResult,
    TrainingResult,
)
from apps.estimates.money import to_money
from apps.options.frozen import options_record
from apps.projects.frozen_budget import scenario_budget_record
from apps.projects.models import Scenario, ScenarioVersion


def catalogue_figures(inputs: dict) -> dict:
    """The catalogue rows an estimate of `inputs` uses, with their sources, as plain JSON."""
    catalogue = Catalogue.for_request(inputs)
    return {
        "accelerators": {
            slug: {
                "name": f"{a.vendor} {a.name}",
                "peak_tflops": a.peak_tflops_by_precision,
                "memory_gb": a.memory_gb,
                "memory_bandwidth_tbps": a.memory_bandwidth_tbps,
                "power_watts": a.power_watts,
                "price_offers": [
                    {
                        "kind": o.kind,
                        "provider": o.provider,
                        "price_per_accelerator_hour": (
                            str(o.price_per_accelerator_hour)
                            if o.price_per_accelerator_hour is not None
                            else None
                        ),
                        "purchase_price": (
                            str(o.purchase_price) if o.purchase_price is not None else None
                        ),
                        "as_of": o.as_of.isoformat(),
                    }
                    for o in a.price_offers.all()
                ],
                "source": a.source,
                "as_of": a.as_of.isoformat(),
            }
            for slug, a in catalogue.accelerators.items()
        },
        "energy_profiles": {
            slug: {
                "name": p.name,
                "pue": p.pue,
                "kg_co2e_per_kwh": p.kg_co2e_per_kwh,
                "source": p.source,
                "as_of": p.as_of.isoformat(),
            }
            for slug, p in catalogue.energy_profiles.items()
        },
        "thresholds": [
            {"name": t.name, "flop": t.flop, "status": t.status} for t in catalogue.thresholds
        ],
        **_model_figures(inputs, catalogue),
        "api_prices": api_prices_used(inputs),
    }


def _model_figures(inputs: dict, catalogue: Catalogue) -> dict:
    """The language model a scenario serves, with its figures and source (none: no key)."""
    model = catalogue.models.get((inputs.get("inference") or {}).get("model") or "")
    if model is None:
        return {}
    fields = ("layers", "query_heads", "kv_heads", "head_dim", "hidden_size", "experts_total")
    return {
        "models": {
            model.slug: {
                "name": model.name,
                "total_parameters": model.total_parameters,
                "active_parameters": model.active_parameters,
                **{name: getattr(model, name) for name in fields},
                "experts_active": model.experts_active,
                "mla_kv_lora_rank": model.mla_kv_lora_rank,
                "mla_rope_head_dim": model.mla_rope_head_dim,
                "source": model.source,
                "as_of": model.as_of.isoformat(),
            }
        }
    }


def api_prices_used(inputs: dict, day: datetime.date | None = None) -> dict:
    """The API price catalogue's prices an estimate of `inputs` uses on `day` (today), by slug."""
    inference = inputs.get("inference") or {}
    slug = inference.get("api_model") if inference.get("method") == "external_api" else None
    row = price_in_force(slug, day or datetime.date.today()) if slug else None
    tier = inference.get("api_price_tier") or "standard"
    price = None if row is None else row.tier_price(tier)
    if price is None:
        return {}

    def decimal(value):
        return None if value is None else f"{value.normalize():f}"

    return {
        slug: {
            "name": f"{row.api_model.provider_name} {row.api_model.name}",
            "provider": row.api_model.provider,
            "model": row.api_model.model,
            "input": decimal(price.input),
            "cached_input": decimal(price.cached_input),
            "output": decimal(price.output),
            "tier": tier,
            "valid_from": price.valid_from.isoformat() if price.valid_from else None,
            "checked_on": row.api_model.as_of.isoformat(),
            "source_url": row.api_model.source,
            "catalogue_version": row.api_model.catalogue_version,
        }
    }


def version_record(*, scenario: Scenario, user) -> ScenarioVersion:
    """Store the scenario as it now stands as version `scenario.version`."""
    return ScenarioVersion.objects.create(
        scenario=scenario,
        number=scenario.version,
        name=scenario.name,
        inputs=scenario.inputs,
        results=estimate_response(scenario.inputs, fan=True),  # the fan kept for its pages
        catalogue=catalogue_figures(scenario.inputs),
        budget={
            **budget_record(scenario),
            "drawn_up": scenario_budget_record(scenario),
            "options": options_record(scenario),  # the decision view, frozen with the version
        },
        engine_version=ENGINE_VERSION,
        created_by=user if user is not None and user.is_authenticated else None,
    )


def result_from_response(results: dict) -> EstimateResult:
    """The engine's result as a stored estimate response (`ScenarioVersion.results`) gives it.

    A version is shown from what was saved, never estimated again, so later changes to the
    catalogue or the engine leave it as it was. Money strings become Decimal. The response has
    no cumulative figures per month of inference: they come from the comparison's cumulative
    series when there is one (the engine's own figures), and otherwise from the monthly list
    (see `_to_date`).
    """
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
