"""Load the catalogue shipped in apps/catalogue/data/ (hardware, prices, models) into the DB."""

import json
from dataclasses import dataclass
from pathlib import Path

from auditlog.context import disable_auditlog
from django.db import transaction

from apps.catalogue.models import (
    PRECISIONS,
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
    one_catalogue_change,
)

DATA = Path(__file__).resolve().parent / "data"
CATALOGUE_FILE = DATA / "catalogue.json"
MODELS_FILE = DATA / "models.json"
SOURCE_KEYS = ("evidence", "source", "as_of", "notes")


def _figure_names(model, besides=()) -> tuple[str, ...]:
    """Every figure of a row of `model` in the files: all of them are required (null if none)."""
    unlisted = {"id", "slug", "updated_at", *SOURCE_KEYS, *besides}
    return tuple(field.name for field in model._meta.concrete_fields if field.name not in unlisted)


MODEL_FIGURES = _figure_names(LanguageModel)
ACCELERATOR_FIGURES = _figure_names(Accelerator, [f"peak_tflops_{p}" for p in PRECISIONS])
ENERGY_FIGURES = _figure_names(EnergyProfile)
THRESHOLD_FIGURES = _figure_names(ComputeThreshold)


@dataclass
class LoadReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    corrected: int = 0
    withdrawn: int = 0

    def changes(self) -> dict:
        """What the load changed, as the audit log keeps it: {what: [None, how many]}."""
        counts = {"created": self.created, "updated": self.updated}
        counts |= {"corrected": self.corrected, "withdrawn": self.withdrawn}
        return {what: [None, count] for what, count in counts.items() if count}

    def __str__(self) -> str:
        text = f"{self.created} created, {self.updated} updated, {self.unchanged} kept as they were"
        if self.corrected or self.withdrawn:
            text += f", {self.corrected} corrected, {self.withdrawn} withdrawn"
        return text


def _sourced(row: dict) -> dict:
    return {key: row.get(key, "") for key in SOURCE_KEYS}


def _figures(row: dict, keys) -> dict:
    """The row's figures under `keys`, with its source, evidence, date and notes."""
    return {**{key: row[key] for key in keys}, **_sourced(row)}


def _peaks(row: dict) -> dict:
    """The row's dense peaks as model fields; a format the catalogue does not know is an error."""
    unknown = set(row["peak_tflops"]) - set(PRECISIONS)
    if unknown:
        raise ValueError(f"{row['slug']}: unknown peak_tflops keys {sorted(unknown)}")
    return {f"peak_tflops_{p}": value for p, value in row["peak_tflops"].items()}


def _upsert(model, lookup: dict, values: dict, *, overwrite: bool, report: LoadReport):
    instance = model.objects.filter(**lookup).first()
    if instance is None:
        instance = model(**lookup, **values)
        instance.full_clean()
        instance.save()
        report.created += 1
    elif overwrite:
        for field, value in values.items():
            setattr(instance, field, value)
        instance.full_clean()
        instance.save()
        report.updated += 1
    else:
        report.unchanged += 1
    return instance


def _upsert_by_slug(model, row: dict, keys, *, overwrite: bool, report: LoadReport, **values):
    lookup, values = {"slug": row["slug"]}, {**_figures(row, keys), **values}
    return _upsert(model, lookup, values, overwrite=overwrite, report=report)


def _apply_corrections(corrections: dict, notes: dict[str, str], *, report: LoadReport) -> None:
    """Bring rows loaded from an earlier file up to date where nobody has edited them since.

    A figure is corrected only while it still holds the value an earlier file shipped, and a
    price row is withdrawn only while it still matches the row an earlier file shipped, so what a
    catalogue editor changed in the admin is never touched. A corrected accelerator also takes the
    file's notes, which say why the figure changed.
    """
    for fix in corrections.get("accelerators", []):
        instance = Accelerator.objects.filter(
            slug=fix["slug"], **{fix["field"]: fix["shipped"]}
        ).first()
        if instance is not None:
            setattr(instance, fix["field"], fix["now"])
            instance.notes = notes.get(fix["slug"], instance.notes)
            instance.full_clean()
            instance.save(update_fields=[fix["field"], "notes", "updated_at"])
            report.corrected += 1
    for row in corrections.get("withdrawn_price_offers", []):
        deleted, _ = PriceOffer.objects.filter(
            accelerator__slug=row["accelerator"],
            kind=row["kind"],
            provider=row["provider"],
            region=row.get("region", ""),
            description=row.get("description", ""),
            price_per_accelerator_hour=row["price_per_accelerator_hour"],
        ).delete()
        report.withdrawn += deleted


def _load_models(path: Path, *, overwrite: bool, report: LoadReport) -> None:
    for row in json.loads(path.read_text(encoding="utf-8"))["models"]:
        missing = set(MODEL_FIGURES) - set(row)
        if missing:
            raise ValueError(f"{row['slug']}: missing {sorted(missing)} (write null if none)")
        _upsert_by_slug(LanguageModel, row, MODEL_FIGURES, overwrite=overwrite, report=report)


# One event for a load, by its command, rather than one for each of thousands of rows; and one
# new catalogue version.
@disable_auditlog()
@transaction.atomic
@one_catalogue_change()
def catalogue_load(
    *, path: Path = CATALOGUE_FILE, models_path: Path = MODELS_FILE, overwrite: bool = False
) -> LoadReport:
    """Create the rows that are missing; with overwrite, also reset existing rows to the files.

    Without overwrite a second load keeps what catalogue editors changed in the admin.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    report = LoadReport()
    accelerators = {}
    for row in data["accelerators"]:
        accelerators[row["slug"]] = _upsert_by_slug(
            Accelerator, row, ACCELERATOR_FIGURES, overwrite=overwrite, report=report, **_peaks(row)
        )
    for row in data["price_offers"]:
        lookup = {
            "accelerator": accelerators[row["accelerator"]],
            "kind": row["kind"],
            "provider": row["provider"],
            "region": row.get("region", ""),
            "description": row.get("description", ""),
        }
        values = {
            "price_per_accelerator_hour": row.get("price_per_accelerator_hour"),
            "purchase_price": row.get("purchase_price"),
            "lifetime_years": row.get("lifetime_years"),
            "currency": row.get("currency", "USD"),
            **_sourced(row),
        }
        _upsert(PriceOffer, lookup, values, overwrite=overwrite, report=report)
    for row in data["energy_profiles"]:
        _upsert_by_slug(EnergyProfile, row, ENERGY_FIGURES, overwrite=overwrite, report=report)
    for row in data["commitment_discounts"]:
        _upsert(
            CommitmentDiscount,
            {key: row[key] for key in ("provider", "term_years", "payment")},
            _figures(row, ("program", "applies_to", "discount")),
            overwrite=overwrite,
            report=report,
        )
    for row in data["thresholds"]:
        _upsert_by_slug(
            ComputeThreshold, row, THRESHOLD_FIGURES, overwrite=overwrite, report=report
        )
    notes = {row["slug"]: row.get("notes", "") for row in data["accelerators"]}
    _apply_corrections(data.get("corrections", {}), notes, report=report)
    _load_models(models_path, overwrite=overwrite, report=report)
    return report
