"""Turn the external-API parts of an estimate request into engine inputs, with the prices in force.

`apps.catalogue.resolve` calls these for `inference.method == "external_api"` and
`training.method == "api_fine_tune"` (this app registers them when Django starts it); errors and
notes go to its error list and resolution.
"""

import datetime
from decimal import Decimal

from apps.apiprices.footprint import ECOLOGITS_VERSION, request_footprint
from apps.apiprices.models import ApiPrice, PriceTier
from apps.apiprices.selectors import PriceInForce, api_model_slugs, price_in_force
from apps.catalogue.resolution import RequestErrors, Resolution
from apps.catalogue.suggestions import unknown_slug_message
from apps.estimates import InferenceInput, RequestFootprint, TrainingInput
from apps.estimates.external_api import API_FINE_TUNE_NUMBERS, EXTERNAL_API_NUMBERS
from apps.estimates.messages import Day, Message, Number, _, exact

PRICE_FIELDS = {
    "price_per_million_input_tokens": "input",
    "price_per_million_cached_input_tokens": "cached_input",
    "price_per_million_output_tokens": "output",
}


def _numbers(data: dict, names: tuple[str, ...]) -> dict:
    return {name: data[name] for name in names if data.get(name) is not None}


def _decimal(value: Decimal | None) -> Number | Message:
    return _("not published") if value is None else exact(value)


def tier_names(row: PriceInForce) -> str:
    """The tiers a model has on the day of `row`, by their request value: "standard, off_peak"."""
    return ", ".join(row.tiers)


def tier_note(tier: str, price: ApiPrice) -> Message:
    """What the chosen tier other than the standard price means."""
    if tier == PriceTier.LONG_PROMPT:
        return _(
            "Long-prompt price tier: every token of a prompt above %(tokens)s tokens is billed "
            "at these prices.",
            tokens=exact(price.above_input_tokens or 0),
        )
    return _(
        "Off-peak price tier: the provider's discount for requests sent in its off-peak hours "
        "(the hours are in the price catalogue's notes); the standard price applies at other "
        "times."
    )


def api_price_note(row: PriceInForce, day: datetime.date, price: ApiPrice | None = None) -> Message:
    """Where the prices of an estimate come from: `price` (the standard price by default)."""
    api_model, price = row.api_model, price or row.price
    return _(
        "%(model)s: prices in force on %(day)s (USD per million tokens) input %(input)s, "
        "cached input %(cached)s, output %(output)s; prices as of %(as_of)s, %(version)s, "
        "%(source)s.",
        model=f"{api_model.provider_name} {api_model.name}",
        day=Day(day),
        input=_decimal(price.input),
        cached=_decimal(price.cached_input),
        output=_decimal(price.output),
        as_of=Day(api_model.as_of),
        version=api_model.catalogue_version,
        source=api_model.source,
    )


def _note_a_long_prompt(data: dict, row: PriceInForce, tier: str, resolution: Resolution) -> None:
    """Say so when the prompt is longer than the model's long-prompt tier starts but another
    tier was chosen: the provider bills such prompts at the long-prompt price."""
    long_prompt = row.tiers.get(PriceTier.LONG_PROMPT)
    input_tokens = data.get("input_tokens")
    if (
        tier == PriceTier.LONG_PROMPT
        or long_prompt is None
        or long_prompt.above_input_tokens is None
        or input_tokens is None
        or input_tokens <= long_prompt.above_input_tokens
    ):
        return
    resolution.note(
        "inference",
        _(
            "Prompts of %(tokens)s input tokens are above %(threshold)s: the provider bills them "
            "at its long-prompt price tier (api_price_tier long_prompt), not at the prices used "
            "here.",
            tokens=exact(input_tokens),
            threshold=exact(long_prompt.above_input_tokens),
        ),
    )


def external_api_inference(
    data: dict,
    errors: RequestErrors,
    resolution: Resolution,
    day: datetime.date | None = None,
) -> InferenceInput:
    """The inference input of an external API: the catalogue's prices for `api_model` on `day`
    (today by default), each overridden by the request's own price where it gives one."""
    day = day or datetime.date.today()
    numbers = _numbers(data, EXTERNAL_API_NUMBERS)
    slug = data.get("api_model")
    tier = data.get("api_price_tier") or PriceTier.STANDARD
    overridden = all(name in numbers for name in PRICE_FIELDS)
    if slug:
        row = price_in_force(slug, day)
        chosen = None if row is None else row.tier_price(tier)
        if row is None:
            errors.add(
                "inference.api_model",
                unknown_slug_message(
                    _(
                        "No API model %(slug)s with a price on %(day)s in the price catalogue.",
                        slug=repr(slug),
                        day=Day(day),
                    ),
                    slug,
                    (known for known in api_model_slugs() if known != slug),
                ),
            )
        elif chosen is None:
            model_name = f"{row.api_model.provider_name} {row.api_model.name}"
            errors.add(
                "inference.api_price_tier",
                _(
                    "%(model)s has no %(tier)s price on %(day)s; choose one of its price tiers: "
                    "%(tiers)s.",
                    model=model_name,
                    tier=repr(tier),
                    day=Day(day),
                    tiers=tier_names(row),
                ),
            )
        else:
            resolution.api_models[slug] = row
            for name, attribute in PRICE_FIELDS.items():
                price = getattr(chosen, attribute)
                if name not in numbers and price is not None:
                    numbers[name] = float(price)
            if not overridden:
                resolution.note("inference", api_price_note(row, day, chosen))
                if tier != PriceTier.STANDARD:
                    resolution.note("inference", tier_note(tier, chosen))
                _note_a_long_prompt(data, row, tier, resolution)
    elif tier != PriceTier.STANDARD:
        errors.add(
            "inference.api_price_tier",
            _("A price tier is read from the price catalogue: choose an API model."),
        )
    elif not overridden:
        for name in ("price_per_million_input_tokens", "price_per_million_output_tokens"):
            if name not in numbers:
                errors.add(
                    f"inference.{name}",
                    _("Choose an API model from the price catalogue, or give its prices."),
                )
    footprint = None
    if slug and slug in resolution.api_models:
        footprint = _footprint(resolution.api_models[slug], numbers, resolution)
    return InferenceInput(method="external_api", request_footprint=footprint, **numbers)


def _footprint(row: PriceInForce, numbers: dict, resolution: Resolution) -> RequestFootprint | None:
    """The model's footprint per request from EcoLogits, with a note saying where it is from."""
    api_model = row.api_model
    decoded = numbers.get("output_tokens", 0.0) + numbers.get("reasoning_tokens", 0.0)
    footprint = request_footprint(
        api_model.provider, api_model.model, decoded, numbers.get("latency_seconds")
    )
    name = f"{api_model.provider_name} {api_model.name}"
    if footprint is None:
        resolution.note(
            "inference",
            _(
                "%(model)s: energy, emissions and water not published (EcoLogits %(version)s "
                "has no data on this model).",
                model=name,
                version=ECOLOGITS_VERSION,
            ),
        )
    else:
        resolution.note(
            "inference",
            _(
                "%(model)s: energy, emissions (use and embodied) and water per request from "
                "EcoLogits %(version)s (GenAI Impact's methodology and model data, the "
                "provider's data centres and grid), for %(tokens)s generated tokens; the figures "
                "are the middle of its range.",
                model=name,
                version=ECOLOGITS_VERSION,
                tokens=exact(decoded),
            ),
        )
    return footprint


def api_fine_tune_training(data: dict) -> TrainingInput:
    """The training input of fine-tuning through a vendor's API (prices given by the user)."""
    return TrainingInput(method="api_fine_tune", **_numbers(data, API_FINE_TUNE_NUMBERS))
