"""The options response as plain JSON data (OptionsResponseSerializer documents the shape), from
what is kept of a comparison (apps.options.services.kept_options, or a saved version's record)."""

from dataclasses import asdict

from apps.api.representation import commitment_data, money, optional_money
from apps.estimates.kept import KeptOptions
from apps.estimates.options import ApiPricing, OptionResult
from apps.exchange.serializers import exchange_rate_representation


def _api_price(pricing: ApiPricing | None) -> dict:
    """`api_price` for an external API costed at the price catalogue's prices; else nothing."""
    if pricing is None:
        return {}
    return {
        "api_price": {
            "api_model": pricing.api_model,
            "tier": pricing.tier,
            "valid_from": pricing.valid_from.isoformat() if pricing.valid_from else None,
            "as_of": pricing.as_of.isoformat(),
        }
    }


def _option(result: OptionResult, years: list[str], pricing: ApiPricing | None = None) -> dict:
    return {
        "key": result.key,
        "label": result.label,
        "one_off": money(result.one_off),
        "capex": money(result.capex),
        "opex": [
            {"fiscal_year": year, "amount": money(amount)}
            for year, amount in zip(years, result.opex, strict=True)
        ],
        "total": money(result.total),
        "npv": money(result.npv),
        "cost_per_request": optional_money(result.cost_per_request),
        "cost_per_million_output_tokens": optional_money(result.cost_per_million_output_tokens),
        "accelerators": result.accelerators,
        "staff": {
            "fte": result.staff_fte,
            "cost": optional_money(result.staff_cost),
            "basis": result.staff_basis,
        },
        "flags": list(result.flags),
        "commitment": commitment_data(result.commitment),
        "footprint": None if result.footprint is None else asdict(result.footprint),
    } | _api_price(pricing)


def options_representation(kept: KeptOptions) -> dict:
    comparison = kept.comparison
    years = [year.label for year in comparison.fiscal_years]
    condition = comparison.condition
    return {
        "currency": kept.currency,
        "exchange_rates": []
        if kept.exchange is None
        else [exchange_rate_representation(kept.exchange)],
        "fiscal_years": years,
        "period_start": kept.period_start.isoformat(),
        "period_end": kept.period_end.isoformat(),
        "discount_rate": kept.discount_rate,
        "options": [
            _option(result, years, kept.api_prices.get(result.key)) for result in comparison.options
        ],
        "cheapest": comparison.cheapest,
        "condition": {
            "kind": condition.kind,
            "options": list(condition.options),
            "value": condition.value,
            "text": condition.text,
        },
        "crossovers": [
            {"options": list(crossover.options), "requests_per_month": crossover.requests_per_month}
            for crossover in comparison.crossovers
        ],
        "owning_beats_renting_utilisation": comparison.owning_beats_renting_utilisation,
        "commitment_crossover": None
        if comparison.commitment is None
        else {
            "discount": comparison.commitment.discount,
            "term_months": comparison.commitment.term_months,
            "busy_share_over_pay_per_use": comparison.commitment.busy_share_over_pay_per_use,
            "service_months_over_always_on": comparison.commitment.service_months_over_always_on,
        },
        "unavailable": {
            key: {name: list(messages) for name, messages in errors.items()}
            for key, errors in kept.unavailable.items()
        },
    } | _uncertainty(kept)


def _uncertainty(kept: KeptOptions) -> dict:
    """`uncertainty` with the request's ranges: percentiles of each option's total and NPV by
    dotted path, and the share of samples in which each option is the cheapest; else nothing."""
    result = kept.ranges
    if result is None:
        return {}
    return {
        "uncertainty": {
            "samples": result.samples,
            "seed": result.seed,
            "figures": {
                path: {
                    "p5": money(figure.p5),
                    "p50": money(figure.p50),
                    "p95": money(figure.p95),
                    "mean": money(figure.mean),
                }
                for path, figure in result.figures.items()
            },
            "cheapest_share": dict(result.cheapest_share),
        }
    }
