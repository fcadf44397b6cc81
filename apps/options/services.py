"""Build each option of the decision view from an estimate request, and compare them.

One path for the stateless API, the saved scenario's API and the page: `options_compare` takes
an estimate request (as the estimate API validates it), the options chosen and the budget
settings, resolves every option against the catalogues as an estimate request of its own, and
hands the engine inputs to the pure comparison (apps.estimates.options).
"""

import calendar
import json
from dataclasses import dataclass, field, replace
from datetime import date

from django.utils.translation import gettext

from apps.api.serializers import EstimateRequestSerializer
from apps.apiprices.models import PriceTier
from apps.apiprices.resolve import PRICE_FIELDS
from apps.budget.selectors import budget_rules
from apps.catalogue.resolve import estimate_input_from_request, request_key
from apps.catalogue.snapshot import Catalogue
from apps.catalogue.uncertainty import DEFAULT_SAMPLES, engine_path
from apps.estimates import EstimateInputError, validate
from apps.estimates.budget import BudgetRules, FiscalCalendar
from apps.estimates.currency import ExchangeRate, converted_ranges, price_in
from apps.estimates.kept import KeptOptions
from apps.estimates.messages import Message, _
from apps.estimates.options import (
    LABELS,
    ApiPricing,
    OptionEstimate,
    OptionInput,
    OptionsComparison,
    OptionsUncertainty,
    common_service_start,
    compare_options,
    estimate_option,
    months_of_payments,
)
from apps.estimates.uncertainty_draws import Range
from apps.estimates.validation import PRICING_NUMBERS, REQUEST_SERVING_NUMBERS
from apps.options.uncertainty import options_uncertainty
from apps.projects.currency import project_exchange
from apps.projects.models import Scenario
from apps.projects.services import scenario_create

DEFAULT_API_MODEL = "openai-gpt-4o-mini"
MAX_NAME = 200  # Scenario.name
HOSTING = ("rent_pay_per_use", "rent_always_on", "rent_committed", "own")
PROVISIONING = {
    "rent_pay_per_use": "pay_per_use",
    "rent_always_on": "always_on",
    "rent_committed": "committed",
    "own": "always_on",
}
# The inference fields of a request that describe the demand, the same for every option.
DEMAND = (
    "requests_per_month",
    "monthly_growth",
    "months",
    "peak_to_average",
    "revenue_per_request",
)
TOKENS = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_tokens")
# The language model served, whose memory and speed size always-on and owned capacity (replicas
# at peak × accelerators per replica, the engine's `inference.serving`).
SERVING = ("model", *REQUEST_SERVING_NUMBERS, "bytes_per_parameter")
# What a self-hosted option takes from the scenario's inference when the choice does not say.
SELF_HOSTED = (
    "accelerator_seconds_per_request",
    "parameters",
    "accelerator",
    "precision",
    "utilization",
    "latency_seconds",
    "target_utilization",
    *PRICING_NUMBERS,
    *SERVING,
)
# A commitment's terms, which the option committed for a term takes from the scenario when it
# is committed too, and from the choice.
COMMITMENT = (
    "commitment_years",
    "upfront_share",
    "commitment_discount",
    "commitment_provider",
    "committed_accelerators",
)
API_FIELDS = (
    "api_model",
    "api_price_tier",
    "price_per_million_input_tokens",
    "price_per_million_cached_input_tokens",
    "price_per_million_output_tokens",
    "batch_discount",
)


@dataclass(frozen=True)
class BudgetSettings:
    """The fiscal calendar and rules the options are compared on (a project's, or the request's);
    a period left empty runs from this month to the end of the options' service."""

    fiscal_year_start_month: int = 1
    fiscal_year_label: str = "end_year"
    period_start: date | None = None
    period_end: date | None = None
    rules: BudgetRules = field(default_factory=BudgetRules)
    training_start: date | None = None
    service_start: date | None = None


def period_start_on(start: date | None, today: date) -> date:
    """The planning period's first day: the one given, or the first of this month."""
    return start or today.replace(day=1)


@dataclass(frozen=True)
class ComparedOptions:
    comparison: OptionsComparison
    period_start: date
    period_end: date
    discount_rate: float
    unavailable: dict[str, dict]  # key → errors, for default options that could not be built
    inputs: tuple[OptionInput, ...] = ()
    uncertainty: OptionsUncertainty | None = None  # with the request's ranges only
    api_prices: dict[str, ApiPricing] = field(default_factory=dict)  # by option key
    exchange: ExchangeRate | None = None  # the rate prices were converted at


def kept_options(compared: ComparedOptions, currency: str = "USD") -> KeptOptions:
    """What pages, exports, the API and saved versions read of a comparison, in `currency`:
    all of it but the options' inputs and the lines their ranges were worked out from."""
    return KeptOptions(
        currency=currency,
        comparison=replace(compared.comparison, lines=()),
        period_start=compared.period_start,
        period_end=compared.period_end,
        discount_rate=compared.discount_rate,
        api_prices=dict(compared.api_prices),
        unavailable={
            key: {
                name: tuple(m if isinstance(m, Message) else str(m) for m in messages)
                for name, messages in errors.items()
            }
            for key, errors in compared.unavailable.items()
        },
        ranges=compared.uncertainty,
        exchange=None
        if compared.exchange is None or compared.exchange.is_identity
        else compared.exchange,
    )


def default_choices(request: dict) -> list[dict]:
    """The options compared when none are chosen: the five ways to serve the demand, and the
    scenario's own training route (fine-tune, or build when it pre-trains from parameters)."""
    choices = [{"key": key} for key in ("external_api", *HOSTING)]
    training = request.get("training")
    if training:
        pre_trains = training["method"] == "parameters_tokens"
        choices.append({"key": "build" if pre_trains else "fine_tune"})
    return choices


def chosen_options(
    keys: list[str] | None,
    api_model: str | None,
    accelerator: str | None = None,
    api_price_tier: str | None = None,
    commitment: dict | None = None,
) -> list[dict] | None:
    """Choices from a list of keys, an API model, its price tier, an accelerator for
    self-hosting and the terms of the option committed for a term (`commitment`, some of
    COMMITMENT; the saved endpoint's query, the page's form): None, the default options, when
    none is given; the five ways to serve the demand when no key is."""
    commitment = {name: value for name, value in (commitment or {}).items() if value is not None}
    if not keys and not api_model and not accelerator and not api_price_tier and not commitment:
        return None
    choices = [{"key": key} for key in keys or ("external_api", *HOSTING)]
    for choice in choices:
        if choice["key"] == "external_api" and api_model:
            choice["api_model"] = api_model
        if choice["key"] == "external_api" and api_price_tier:
            choice["api_price_tier"] = api_price_tier
        if choice["key"] != "external_api" and accelerator:
            choice["accelerator"] = accelerator
        if choice["key"] == "rent_committed":
            choice.update(commitment)
    return choices


def _self_hosted(base: dict, choice: dict, hosting: str) -> dict:
    inference = {name: base[name] for name in (*DEMAND, *TOKENS) if name in base}
    if base["method"] != "external_api":
        inference.update({name: base[name] for name in SELF_HOSTED if name in base})
        inference["method"] = base["method"]
    inference.update({name: choice[name] for name in SELF_HOSTED if name in choice})
    if "method" not in inference:  # the scenario uses an API: the choice says how to self-host
        given = "accelerator_seconds_per_request" in inference
        inference["method"] = "accelerator_seconds" if given else "tokens"
    inference["pricing_mode"] = "own" if hosting == "own" else "rent"
    inference["provisioning"] = PROVISIONING[hosting]
    if hosting == "rent_committed":
        if base.get("provisioning") == "committed":
            inference.update({name: base[name] for name in COMMITMENT if name in base})
        inference.update({name: choice[name] for name in COMMITMENT if name in choice})
    return inference


def option_request(request: dict, choice: dict) -> dict:
    """The estimate request of one option, built from the scenario's request and the choice."""
    key, base = choice["key"], request["inference"]
    option = {name: request[name] for name in request if name not in ("training", "inference")}
    if key == "external_api":
        inference = {name: base[name] for name in (*DEMAND, *TOKENS) if name in base}
        if base["method"] == "external_api":
            inference.update({name: base[name] for name in API_FIELDS if name in base})
        inference.update({name: choice[name] for name in (*API_FIELDS, *TOKENS) if name in choice})
        if not any(name.startswith("price_per_million") for name in inference):
            inference.setdefault("api_model", DEFAULT_API_MODEL)
        option["inference"] = {"method": "external_api", **inference}
        return option
    hosting = key if key in HOSTING else choice.get("hosting", _hosting_of(base))
    option["inference"] = _self_hosted(base, choice, hosting)
    if key in ("fine_tune", "build"):
        training = choice.get("training") or request.get("training")
        if training:
            option["training"] = training
    return option


def _hosting_of(inference: dict) -> str:
    if inference.get("pricing_mode") == "own":
        return "own"
    if inference.get("provisioning") == "always_on":
        return "rent_always_on"
    if inference.get("provisioning") == "committed":
        return "rent_committed"
    return "rent_pay_per_use"


def _option_input(
    request: dict, choice: dict, catalogue: Catalogue, exchange: ExchangeRate | None = None
) -> tuple[OptionInput, ApiPricing | None]:
    """The option's engine input, and the catalogue price it is costed at (an external API's)."""
    option = option_request(request, choice)
    if choice["key"] in ("fine_tune", "build") and not option.get("training"):
        raise EstimateInputError({"training": [_("Give the training this option needs.")]})
    inp, resolution = estimate_input_from_request(option, catalogue, exchange)
    validate(inp)  # here, so that a default option that cannot be estimated is left out
    option_input = OptionInput(
        choice["key"],
        inp,
        staff_fte=choice.get("staff_fte"),
        # Given in US dollars a year, as the request's other prices (the API's help says so).
        staff_cost_per_fte_year=price_in(choice.get("staff_cost_per_fte_year"), exchange),
    )
    return option_input, _api_pricing(option["inference"], resolution.api_models)


def _api_pricing(inference: dict, api_models: dict) -> ApiPricing | None:
    """The catalogue price an external API's inference is costed at; None when it is not one,
    or when the request gives every price itself."""
    row = api_models.get(inference.get("api_model"))
    if row is None or all(name in inference for name in PRICE_FIELDS):
        return None
    tier = inference.get("api_price_tier") or PriceTier.STANDARD
    price = row.tier_price(tier)
    return ApiPricing(row.api_model.slug, tier, price.valid_from, row.api_model.as_of)


def _errors(error: EstimateInputError) -> dict[str, list[str]]:
    remapped: dict[str, list[str]] = {}
    for key, messages in error.errors.items():
        remapped.setdefault(request_key(key), []).extend(messages)
    return remapped


def _month_end(index: int) -> date:
    year, month = divmod(index, 12)
    return date(year, month + 1, calendar.monthrange(year, month + 1)[1])


def _servable(
    inputs: list[OptionInput], unavailable: dict
) -> tuple[list[OptionInput], list[OptionEstimate]]:
    """The options that can serve the demand, with the engine's answers for each (worked out
    once, here, and passed on); one whose model fits no copy (no replica of the chosen
    accelerator holds it: no cost can be true), or whose training is not priced, is listed in
    `unavailable` instead, with the reason."""
    servable, estimates = [], []
    for option in inputs:
        worked = estimate_option(option)
        training = worked.result.training
        if training is not None and training.cost is None:
            # Training without a price: the note says which price is missing.
            missing = (
                "training.price_per_accelerator_hour"
                if option.estimate.training.pricing.mode == "rent"
                else "training.purchase_price"
            )
            unavailable[option.key] = {missing: [training.cost_note]}
        elif worked.result.inference.total.cost is None:
            unavailable[option.key] = {
                "inference.accelerator": [
                    _(
                        "The model does not fit on this accelerator, whatever the number of "
                        "accelerators per copy: this option cannot serve the demand."
                    )
                ]
            }
        else:
            servable.append(option)
            estimates.append(worked)
    return servable, estimates


def options_compare(
    request: dict,
    choices: list[dict] | None,
    settings: BudgetSettings,
    *,
    today: date,
    catalogue: Catalogue | None = None,
    exchange: ExchangeRate | None = None,
) -> ComparedOptions:
    """Compare the chosen options (default: `default_choices`) on the request's demand, their
    prices converted at `exchange` when given (apps.estimates.currency).

    Raises EstimateInputError keyed "options.<index>.<field>" for a chosen option that does
    not resolve; a default option that does not is left out and listed in `unavailable`.
    """
    catalogue = catalogue or Catalogue.load()
    chosen = choices is not None
    choices = choices if chosen else default_choices(request)
    inputs, errors, unavailable, api_prices = [], {}, {}, {}
    for index, choice in enumerate(choices):
        try:
            option_input, pricing = _option_input(request, choice, catalogue, exchange)
        except EstimateInputError as error:
            if chosen:
                for name, messages in _errors(error).items():
                    errors[f"options.{index}.{name}"] = messages
            else:
                unavailable[choice["key"]] = _errors(error)
        else:
            inputs.append(option_input)
            if pricing is not None:
                api_prices[choice["key"]] = pricing
    if errors:
        raise EstimateInputError(errors)
    inputs, estimates = _servable(inputs, unavailable)
    if not inputs:
        raise EstimateInputError({"options": [gettext("None of the options can be estimated.")]})
    start = period_start_on(settings.period_start, today)
    end = settings.period_end
    if end is None:
        service = settings.service_start or common_service_start(
            [worked.result for worked in estimates], settings.training_start or start
        )
        # To the end of the longest service, or of the commitment that outlasts it.
        months = max(months_of_payments(option.estimate) for option in inputs)
        first = (service or start).year * 12 + (service or start).month - 1
        end = _month_end(first + months - 1)
    fiscal = FiscalCalendar(
        start_month=settings.fiscal_year_start_month,
        label_rule=settings.fiscal_year_label,
        period_start=start,
        period_end=end,
    )
    comparison = compare_options(
        inputs,
        fiscal,
        settings.rules,
        training_start=settings.training_start,
        service_start=settings.service_start,
        estimates=estimates,
    )
    return ComparedOptions(
        comparison,
        start,
        end,
        float(settings.rules.discount_rate),
        unavailable,
        tuple(inputs),
        _uncertainty(
            request, inputs, estimates, comparison, fiscal, settings.rules, catalogue, exchange
        ),
        {option.key: api_prices[option.key] for option in inputs if option.key in api_prices},
        exchange,
    )


def _uncertainty(
    request: dict,
    inputs: list[OptionInput],
    estimates: list[OptionEstimate],
    comparison: OptionsComparison,
    fiscal: FiscalCalendar,
    rules: BudgetRules,
    catalogue: Catalogue,
    exchange: ExchangeRate | None = None,
) -> OptionsUncertainty | None:
    """The options' percentiles and cheapest shares when the request carries ranges, with its
    seed and samples (common random numbers across the options); None without ranges."""
    if not request.get("ranges"):
        return None
    ranges = {
        engine_path(path): Range(float(interval["low"]), float(interval["high"]))
        for path, interval in request["ranges"].items()
    }
    if exchange is not None:
        ranges = converted_ranges(ranges, exchange)
    uncertainty = request.get("uncertainty") or {}
    try:
        scenario, _ = estimate_input_from_request(request, catalogue, exchange)
    except EstimateInputError:
        scenario = None  # each option takes the ranges as given
    return options_uncertainty(
        inputs,
        estimates,
        comparison.lines,
        ranges,
        fiscal,
        rules,
        samples=uncertainty.get("samples", DEFAULT_SAMPLES),
        seed=uncertainty.get("seed", 0),
        service_start=comparison.service_start,
        scenario=scenario,
    )


def project_settings(project, scenario) -> BudgetSettings:
    """The budget settings of a saved scenario: its project's calendar and rules, its timing."""
    return BudgetSettings(
        fiscal_year_start_month=project.fiscal_year_start_month,
        fiscal_year_label=project.fiscal_year_label,
        period_start=project.period_start,
        period_end=project.period_end,
        rules=budget_rules(project),
        training_start=scenario.training_start,
        service_start=scenario.service_start,
    )


def scenario_request(scenario: Scenario) -> dict:
    """The scenario's saved inputs as the estimate API validates them (defaults filled in)."""
    serializer = EstimateRequestSerializer(data=scenario.inputs)
    if not serializer.is_valid():
        raise EstimateInputError({"inputs": [gettext("The saved inputs are no longer valid.")]})
    return dict(serializer.validated_data)


def scenario_options_compare(
    scenario: Scenario, choices: list[dict] | None, *, today: date
) -> ComparedOptions:
    """The options for a saved scenario, on its project's budget calendar and rules."""
    catalogue = Catalogue.load()
    return options_compare(
        scenario_request(scenario),
        choices,
        project_settings(scenario.project, scenario),
        today=today,
        catalogue=catalogue,
        exchange=project_exchange(scenario.project, catalogue),
    )


def scenario_from_option(*, scenario: Scenario, choice: dict, user) -> Scenario:
    """A new scenario of the same project whose inputs are the option chosen (so its budget and
    review follow), named after the scenario and the option; raises EstimateInputError."""
    inputs = json_inputs(option_request(scenario_request(scenario), choice))
    catalogue = Catalogue.load()
    inp, _ = estimate_input_from_request(
        inputs, catalogue, project_exchange(scenario.project, catalogue)
    )
    validate(inp)
    # Named in the language of the person who makes it, as a name they would have typed.
    name = gettext("%(scenario)s: %(option)s") % {
        "scenario": scenario.name,
        "option": LABELS[choice["key"]],
    }
    name = name[:MAX_NAME]
    return scenario_create(
        project=scenario.project,
        name=name,
        inputs=inputs,
        user=user,
        timing={"training_start": scenario.training_start, "service_start": scenario.service_start},
    )


def json_inputs(inputs: dict) -> dict:
    """An estimate request as JSON data: Decimals and other numbers as floats, nested alike."""
    return json.loads(json.dumps(inputs, default=float))
