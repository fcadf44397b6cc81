"""Load the vendored API prices (apps/apiprices/data/genai-prices.json) into the database."""

import datetime
import json
from pathlib import Path

from django.db import transaction

from apps.apiprices.models import ApiModel, ApiPrice
from apps.catalogue.loading import LoadReport
from apps.catalogue.sourced import Evidence

PRICES_FILE = Path(__file__).resolve().parent / "data" / "genai-prices.json"


@transaction.atomic
def api_prices_load(*, path: Path = PRICES_FILE, overwrite: bool = False) -> LoadReport:
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
            new_prices.extend(
                ApiPrice(
                    api_model=api_model,
                    valid_from=price["valid_from"],
                    input=price["input"],
                    cached_input=price["cached_input"],
                    output=price["output"],
                )
                for price in row["prices"]
            )
    # One insert for the models and one for their prices: the file holds about two thousand
    # models. bulk_create sets the models' primary keys (SQLite and PostgreSQL return them).
    ApiModel.objects.bulk_create(new_models)
    ApiPrice.objects.bulk_create(new_prices)
    return report
