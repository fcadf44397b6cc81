"""Turn genai-prices' package data into the vendored JSON file (`manage.py refresh_api_prices`).

Only token prices are kept: input, cached input (cache read) and output, USD per million tokens.
A price tiered by prompt length keeps its base as the standard price and its first step as the
model's long-prompt tier (`tier_prices`; every step is named in the notes). Time-of-day prices are
left out of genai-prices' data: its DeepSeek rows store the night-time discount as the price, so
apps/apiprices/data/corrections.json gives those models' rows whole, from DeepSeek's own pricing
page, with the off-peak discount as a tier. A model without input and output prices is skipped.
"""

import datetime
import json
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path

from django.utils.text import slugify

SOURCE = "genai-prices"
HOMEPAGE = "https://github.com/pydantic/genai-prices"
LICENCE = "MIT"
PRICE_KEYS = {"input": "input_mtok", "cached_input": "cache_read_mtok", "output": "output_mtok"}
CORRECTIONS_FILE = Path(__file__).resolve().parent / "data" / "corrections.json"
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


def _long_prompt(prices: object, valid_from: str | None) -> dict | None:
    """The long-prompt tier of a price tiered by prompt length: its first step, from the number
    of input tokens where that step starts (None when no price of the entry is tiered)."""
    steps = {
        key: tiers[0]
        for key, attribute in PRICE_KEYS.items()
        if (tiers := getattr(getattr(prices, attribute, None), "tiers", None))
    }
    if not steps:
        return None
    row = {"tier": "long_prompt", "valid_from": valid_from}
    row["above_input_tokens"] = min(step.start for step in steps.values())
    for key, attribute in PRICE_KEYS.items():
        if key in steps:
            row[key] = _decimal(steps[key].price)
        else:
            row[key], _tiered = _price(getattr(prices, attribute, None))
    return row


def _prices(model: object) -> tuple[list[dict], list[dict], list[str]]:
    """Dated token prices of a model in the order they came into force, its long-prompt tier
    prices, and notes on them."""
    entries = model.prices
    if not isinstance(entries, list):
        entries = [type("Always", (), {"constraint": None, "prices": entries})]
    dated, tiers = [], []
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
            tiers.clear()
        row = {"valid_from": None if start is None else start.isoformat()}
        for key, attribute in PRICE_KEYS.items():
            row[key], tiered = _price(getattr(entry.prices, attribute, None))
            if tiered:
                notes.add(f"Tiered {key.replace('_', ' ')} price per million tokens: {tiered}.")
        if row["input"] is not None and row["output"] is not None:
            dated.append(row)
            long_prompt = _long_prompt(entry.prices, row["valid_from"])
            if long_prompt is not None:
                tiers.append(long_prompt)
    dated.sort(key=lambda row: row["valid_from"] or "")
    tiers.sort(key=lambda row: row["valid_from"] or "")
    return dated, tiers, sorted(notes)


def corrected(models: list[dict], corrections: dict) -> list[dict]:
    """`models` (one provider's vendored rows) with the rows corrections.json gives whole in
    place of genai-prices' own, and why in the notes."""
    by_slug = {row["slug"]: row for row in corrections["models"]}
    rows = []
    for model in models:
        fix = by_slug.get(model["slug"])
        if fix is not None:
            model = {
                **model,
                "notes": f"Corrected in this catalogue: {fix['why']} Source: {fix['source']}",
                "prices": fix["prices"],
                "tier_prices": fix["tier_prices"],
            }
        rows.append(model)
    return rows


def vendored_catalogue(
    providers: Iterable[object],
    version: str,
    checked_on: datetime.date,
    corrections_path: Path = CORRECTIONS_FILE,
) -> dict:
    """The JSON document written to apps/apiprices/data/genai-prices.json."""
    corrections = json.loads(corrections_path.read_text(encoding="utf-8"))
    rows = []
    slugs: set[str] = set()
    for provider in sorted(providers, key=lambda p: p.id):
        urls = provider.pricing_urls or []
        models = []
        for model in sorted(provider.models, key=lambda m: m.id):
            prices, tier_prices, notes = _prices(model)
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
                    **({"tier_prices": tier_prices} if tier_prices else {}),
                }
            )
        if models:
            rows.append(
                {
                    "provider": provider.id,
                    "name": provider.name,
                    "source_url": urls[0] if urls else HOMEPAGE,
                    "notes": provider.price_comments or "",
                    "models": corrected(models, corrections),
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
