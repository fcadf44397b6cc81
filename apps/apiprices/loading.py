"""Load the vendored API prices (apps/apiprices/data/genai-prices.json) into the database."""

import datetime
import json
from decimal import Decimal
from pathlib import Path

from auditlog.context import disable_auditlog
from django.db import transaction

from apps.apiprices.models import ApiModel, ApiPrice, PriceTier
from apps.apiprices.vendoring import CORRECTIONS_FILE
from apps.catalogue.loading import LoadReport
from apps.catalogue.models import one_catalogue_change
from apps.catalogue.sourced import Evidence

PRICES_FILE = Path(__file__).resolve().parent / "data" / "genai-prices.json"


# One event for a load, by its command, rather than one for each of thousands of rows; and one
# new catalogue version, which the API's list and page of prices are cached under.
@disable_auditlog()
@transaction.atomic
@one_catalogue_change()
def api_prices_load(
    *,
    path: Path = PRICES_FILE,
    corrections_path: Path = CORRECTIONS_FILE,
    overwrite: bool = False,
) -> LoadReport:
    """Create the models that are missing with their prices; with overwrite, also reset existing
    models and their prices to the file. Without it, what editors changed in the admin stays."""
    data = json.loads(path.read_text(encoding="utf-8"))
    checked_on = datetime.date.fromisoformat(data["checked_on"])
    existing = {row.slug: row for row in ApiModel.objects.all()}
    report = LoadReport()
    new_models, new_prices = [], []
    for provider in data["providers"]:
        for row in provider["models"]:
            values = {
                "provider": provider["provider"],
                "provider_name": provider["name"],
                "model": row["model"],
                "name": row["name"],
                "deprecated": row["deprecated"],
                "catalogue_version": f"{data['source']} {data['version']}",
                "evidence": Evidence.SECONDARY,
                "source": provider["source_url"],
                "as_of": checked_on,
                "notes": row["notes"],
            }
            api_model = existing.get(row["slug"])
            if api_model is None:
                api_model = ApiModel(slug=row["slug"], **values)
                new_models.append(api_model)
                report.created += 1
            elif overwrite:
                ApiModel.objects.filter(pk=api_model.pk).update(**values)
                api_model.prices.all().delete()
                report.updated += 1
            else:
                report.unchanged += 1
                continue
            new_prices.extend(_price_rows(api_model, row))
    # One insert for the models and one for their prices: the file holds about two thousand
    # models. bulk_create sets the models' primary keys (SQLite and PostgreSQL return them).
    ApiModel.objects.bulk_create(new_models)
    ApiPrice.objects.bulk_create(new_prices)
    report.corrected = _apply_corrections(data, corrections_path)
    return report


def _price_rows(api_model: ApiModel, row: dict) -> list[ApiPrice]:
    """A vendored model's standard prices and its tiers' prices, as rows."""
    return [
        ApiPrice(
            api_model=api_model,
            tier=price.get("tier", PriceTier.STANDARD),
            above_input_tokens=price.get("above_input_tokens"),
            valid_from=price["valid_from"],
            input=price["input"],
            cached_input=price["cached_input"],
            output=price["output"],
        )
        for price in (*row["prices"], *row.get("tier_prices", ()))
    ]


def _as_shipped(price: ApiPrice) -> tuple:
    return (
        price.tier,
        price.valid_from and price.valid_from.isoformat(),
        price.input,
        price.cached_input,
        price.output,
    )


def _order(row: tuple) -> tuple:
    return row[0], row[1] or ""


def _apply_corrections(data: dict, corrections_path: Path) -> int:
    """Bring a model loaded from an earlier file to the corrected rows, while its prices are still
    exactly the rows that file shipped (what an editor changed in the admin is kept). Returns how
    many models were corrected."""
    corrections = json.loads(corrections_path.read_text(encoding="utf-8"))
    vendored = {row["slug"]: row for provider in data["providers"] for row in provider["models"]}
    corrected = 0
    for fix in corrections["models"]:
        api_model = ApiModel.objects.filter(slug=fix["slug"]).first()
        if api_model is None or fix["slug"] not in vendored:
            continue
        shipped = [
            (
                PriceTier.STANDARD,
                price["valid_from"],
                Decimal(price["input"]),
                None if price["cached_input"] is None else Decimal(price["cached_input"]),
                Decimal(price["output"]),
            )
            for price in fix["shipped"]
        ]
        held = [_as_shipped(price) for price in api_model.prices.all()]
        if sorted(held, key=_order) != sorted(shipped, key=_order):
            continue
        api_model.prices.all().delete()
        ApiPrice.objects.bulk_create(_price_rows(api_model, vendored[fix["slug"]]))
        api_model.notes = vendored[fix["slug"]]["notes"]
        api_model.save(update_fields=["notes"])
        corrected += 1
    return corrected
