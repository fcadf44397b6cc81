"""Turn genai-prices' package data into the vendored JSON file (`manage.py refresh_api_prices`).

Only token prices are kept: input, cached input (cache read) and output, USD per million tokens.
A tiered price keeps its base tier (the tiers are named in the notes); time-of-day prices
(off-peak discounts) are left out. A model without input and output prices is skipped.
"""

import datetime
from collections.abc import Iterable
from decimal import Decimal

from django.utils.text import slugify

SOURCE = "genai-prices"
HOMEPAGE = "https://github.com/pydantic/genai-prices"
LICENCE = "MIT"
PRICE_KEYS = {"input": "input_mtok", "cached_input": "cache_read_mtok", "output": "output_mtok"}
# A millionth of a dollar per million tokens: finer than any published price, and it drops the
# binary-float noise a few upstream figures carry (1.0399999999999998 for 1.04).
PLACES = Decimal("0.000001")


def _decimal(value: object) -> str:
    return f"{Decimal(value).quantize(PLACES).normalize():f}"


def _price(value: object) -> tuple[str | None, str | None]:
    """The price as a decimal string, and a note when it is tiered (None, None: not published)."""
    if value is None:
        return None, None
    tiers = getattr(value, "tiers", None)
    if tiers is None:
        return _decimal(value), None
    steps = ", ".join(f"{_decimal(tier.price)} from {tier.start:,} input tokens" for tier in tiers)
    return _decimal(value.base), f"base {_decimal(value.base)}; {steps}"


def _prices(model: object) -> tuple[list[dict], list[str]]:
    """Dated token prices of a model in the order they came into force, and notes on them."""
    entries = model.prices
    if not isinstance(entries, list):
        entries = [type("Always", (), {"constraint": None, "prices": entries})]
    dated = []
    notes = set()
    for entry in entries:
        constraint = entry.constraint
        start = getattr(constraint, "start_date", None)
        if constraint is not None and start is None:
            notes.add("Time-of-day prices (off-peak discounts) are not included.")
            continue
        if constraint is None:
            # genai-prices takes the last price whose constraint holds: an unconstrained one
            # replaces every price before it.
            dated.clear()
        row = {"valid_from": None if start is None else start.isoformat()}
        for key, attribute in PRICE_KEYS.items():
            row[key], tiered = _price(getattr(entry.prices, attribute, None))
            if tiered:
                notes.add(f"Tiered {key.replace('_', ' ')} price per million tokens: {tiered}.")
        if row["input"] is not None and row["output"] is not None:
            dated.append(row)
    dated.sort(key=lambda row: row["valid_from"] or "")
    return dated, sorted(notes)


def vendored_catalogue(
    providers: Iterable[object], version: str, checked_on: datetime.date
) -> dict:
    """The JSON document written to apps/apiprices/data/genai-prices.json."""
    rows = []
    slugs: set[str] = set()
    for provider in sorted(providers, key=lambda p: p.id):
        urls = provider.pricing_urls or []
        models = []
        for model in sorted(provider.models, key=lambda m: m.id):
            prices, notes = _prices(model)
            if not prices:
                continue
            slug = base = slugify(f"{provider.id}-{model.id}".replace(".", "-"))[:200]
            counter = 2
            while slug in slugs:
                slug, counter = f"{base}-{counter}", counter + 1
            slugs.add(slug)
            comments = [model.price_comments] if model.price_comments else []
            models.append(
                {
                    "model": model.id,
                    "name": model.name or model.id,
                    "slug": slug,
                    "deprecated": bool(model.deprecated),
                    "notes": " ".join([*comments, *notes]),
                    "prices": prices,
                }
            )
        if models:
            rows.append(
                {
                    "provider": provider.id,
                    "name": provider.name,
                    "source_url": urls[0] if urls else HOMEPAGE,
                    "notes": provider.price_comments or "",
                    "models": models,
                }
            )
    return {
        "source": SOURCE,
        "homepage": HOMEPAGE,
        "licence": LICENCE,
        "version": version,
        "checked_on": checked_on.isoformat(),
        "currency": "USD",
        "unit": "per million tokens",
        "providers": rows,
    }
