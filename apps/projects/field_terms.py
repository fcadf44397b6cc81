"""Which glossary term explains each input of the forms and each figure the pages show: a hint
or a figure carries a "What is this?" link to /glossary/<term>/ (templates/includes/
form_field.html and ranged_field.html for inputs; `{% term_link path|figure_term %}` for the
figures that come from code rather than being written out in a template)."""

from django import forms

FIELD_TERMS = {
    "training_method": "training-compute",
    "training_parameters": "parameters",
    "training_tokens": "tokens",
    "training_flop_per_parameter_token": "six-n-d",
    "training_total_flop": "flop",
    "training_accelerator_hours": "accelerator-hour",
    "training_accelerator": "accelerator",
    "training_precision": "precision",
    "training_accelerator_count": "wall-clock",
    "training_mfu": "mfu",
    "training_goodput": "goodput",
    "training_price_per_accelerator_hour": "accelerator-hour",
    "training_purchase_price": "capex-and-opex",
    "training_lifetime_years": "total-cost-of-ownership",
    "training_pricing_mode": "capex-and-opex",
    "inference_method": "inference-compute",
    "inference_model": "large-language-model",
    "inference_accelerator_seconds_per_request": "inference-compute",
    "inference_parameters": "parameters",
    "inference_input_tokens": "tokens",
    "inference_output_tokens": "tokens",
    "inference_cached_input_tokens": "tokens",
    "inference_reasoning_tokens": "reasoning-tokens",
    "inference_utilization": "utilisation",
    "inference_total_parameters": "mixture-of-experts",
    "inference_layers": "kv-cache",
    "inference_kv_heads": "kv-cache",
    "inference_head_dim": "kv-cache",
    "inference_query_heads": "model-copy",
    "inference_hidden_size": "model-copy",
    "inference_kv_latent_width": "kv-cache",
    "inference_experts_total": "mixture-of-experts",
    "inference_experts_active": "mixture-of-experts",
    "inference_sliding_window": "kv-cache",
    "inference_sliding_window_layers": "kv-cache",
    "inference_kv_cache_bytes_per_token": "kv-cache",
    "inference_kv_cache_bytes_per_element": "kv-cache",
    "inference_bytes_per_parameter": "precision",
    "inference_accelerators_per_replica": "batching",
    "inference_ttft_target_seconds": "first-token-time",
    "inference_tpot_target_seconds": "time-per-output-token",
    "inference_memory_utilization": "kv-cache",
    "inference_memory_efficiency": "time-per-output-token",
    "inference_accelerator": "accelerator",
    "inference_precision": "precision",
    "inference_latency_seconds": "latency",
    "inference_peak_to_average": "peak-to-average",
    "inference_target_utilization": "utilisation",
    "inference_price_per_accelerator_hour": "accelerator-hour",
    "inference_purchase_price": "capex-and-opex",
    "inference_lifetime_years": "total-cost-of-ownership",
    "inference_revenue_per_request": "gross-margin",
    "inference_provisioning": "pay-per-use-vs-always-on",
    "inference_commitment_years": "commitment",
    "inference_commitment_provider": "commitment",
    "inference_upfront_share": "commitment",
    "inference_commitment_discount": "commitment",
    "inference_committed_accelerators": "commitment",
    "inference_pricing_mode": "capex-and-opex",
    "energy_profile": "pue",
}

# Figures by their estimate response path ("training.cost"), and the bottom strip's markers.
FIGURE_TERMS = {
    "training.flop": "training-compute",
    "training.accelerator_hours": "accelerator-hour",
    "training.wall_clock_hours": "wall-clock",
    "training.cost": "accelerator-hour",
    "training.energy_kwh": "energy",
    "inference.per_request.accelerator_seconds": "accelerator-hour",
    "inference.per_request.latency_seconds": "latency",
    "inference.per_request.precise_cost": "cost-per-request",
    "inference.total.accelerator_hours": "horizon",
    "inference.total.cost": "horizon",
    "inference.total.energy_kwh": "energy",
    "inference.peak_accelerators": "peak-to-average",
    "comparison.break_even_months": "break-even",
    "comparison.training_share": "training-compute",
    "comparison.total_cost": "compute",
    "build_cost": "training-compute",
    "run_cost": "inference-compute",
    "user_speed": "latency",
    # the budget's summary, when it has ranges (apps.budget.ranges.HEADLINES)
    "summary.total": "planning-period",
    "summary.upfront": "capex-and-opex",
    "summary.annual_run_rate": "annual-run-rate",
    "summary.npv": "net-present-value",
}

# The project's budget settings (the project form), a cost line, and the decision view's choices.
BUDGET_SETTINGS_TERMS = {
    "rate_table": "exchange-rate",
    "rate_date": "exchange-rate",
    "rate_low": "uncertainty-range",
    "period_start": "planning-period",
    "period_end": "planning-period",
    "fiscal_year_start_month": "fiscal-year",
    "fiscal_year_label": "fiscal-year",
    "capitalisation_threshold": "capex-and-opex",
    "discount_rate": "net-present-value",
    "contingency_capex": "contingency",
    "contingency_opex": "contingency",
    "indirect_rate": "indirect-costs",
}
COST_LINE_TERMS = {
    "currency": "exchange-rate",
    "recurrence": "one-off-cost",
    "budget_class": "capex-and-opex",
    "category": "budget-category",
}
OPTIONS_TERMS = {
    "api_model": "external-api",
    "api_price_tier": "external-api",
    "accelerator": "accelerator",
    "training_route": "capex-and-opex",
    "commitment_years": "commitment",
    "upfront_share": "commitment",
    "commitment_provider": "commitment",
    "commitment_discount": "commitment",
}
# The sweep form (apps.sweeps.forms): its choices, and a row of the inputs it varies, whose
# count of values is what a sweep is made of; the varied inputs' own terms are FIELD_TERMS'.
SWEEP_TERMS = {
    "accelerators": "accelerator",
    "models": "large-language-model",
}
SWEEP_INPUT_TERMS = {
    "steps": "sweep",
    "values": "sweep",
}


def attach_terms(form: forms.Form, terms: dict[str, str] = FIELD_TERMS) -> None:
    """Give each field of `form` that a term explains its `glossary_term` (a glossary slug)."""
    for name, slug in terms.items():
        if name in form.fields:
            form.fields[name].glossary_term = slug
