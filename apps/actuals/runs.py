"""Running an import of a billing file: read it (apps.actuals.reading) and, when every row is
good, store its sums in place of what the same source billed for the same periods."""

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from apps.actuals.alerts import alerts_raise
from apps.actuals.currency import project_rates, rates_record
from apps.actuals.models import MANUAL_SOURCE, ActualAmount, ActualsImport, MappingRule
from apps.actuals.reading import FileRefused, Reading, Rule, Words, read_billing
from apps.actuals.stamp import actuals_changed
from apps.estimates.budget import KINDS
from apps.projects.models import Project

PLAIN_SOURCE = "csv"


def _words() -> Words:
    return Words(
        bad_amount=gettext("%(column)s is not a number."),
        bad_month=gettext("%(column)s is not a date (YYYY-MM or YYYY-MM-DD)."),
        bad_category=gettext(
            "Charge category “%(value)s” is not one of Usage, Purchase, Tax, Credit, Adjustment."
        ),
        bad_kind=gettext("“%(value)s” is not a kind of budget line."),
        bad_quantity=gettext("%(column)s is not a number."),
        bad_unit=gettext(
            "Unit “%(value)s” is not one of accelerator_hours, input_tokens, cached_tokens, "
            "output_tokens."
        ),
        missing=gettext("This row has not as many cells as the header (%(column)s)."),
    )


def project_rules(project: Project) -> list[Rule]:
    return [
        Rule(column=rule.column, value=rule.value, kind=rule.kind)
        for rule in MappingRule.objects.filter(project=project).order_by("position", "pk")
    ]


def _fail(record: ActualsImport, errors: list[tuple[int, str]], count: int) -> None:
    record.status = ActualsImport.Status.FAILED
    record.errors = [{"row": row, "message": message} for row, message in errors]
    record.error_count = count
    record.finished_at = timezone.now()
    record.save()


def actuals_import_run(*, import_id: int) -> ActualsImport:
    """Read the import's file and, when every row is good, replace what its source billed for
    the periods the file covers with the file's sums, in one transaction. A file read before
    (same project, source and bytes, imported) changes nothing. The file is deleted once read:
    what the import keeps is its sums."""
    record = ActualsImport.objects.select_related("project").get(pk=import_id)
    if record.status not in (ActualsImport.Status.QUEUED, ActualsImport.Status.RUNNING):
        return record
    record.status = ActualsImport.Status.RUNNING
    record.save(update_fields=["status"])
    try:
        with translation.override(record.language):
            _read_and_store(record)
    finally:
        if record.file:
            record.file.delete(save=False)
            ActualsImport.objects.filter(pk=record.pk).update(file="")
    return record


def _refusal(refused: FileRefused) -> str:
    if refused.missing:
        return gettext(
            "This file is neither a FOCUS export nor the plain CSV: columns missing: %(columns)s."
        ) % {"columns": ", ".join(refused.missing)}
    return gettext("This file cannot be read as CSV (UTF-8, or gzipped) or Parquet: %(reason)s") % {
        "reason": refused.reason or gettext("it is empty")
    }


def _read_and_store(record: ActualsImport) -> None:
    project = record.project
    try:
        with open(record.file.path, "rb") as stream:
            reading = read_billing(
                stream,
                currency=project.currency,
                rules=project_rules(project),
                kinds=KINDS,
                convert=project_rates(project),
                words=_words(),
                progress=lambda rows: ActualsImport.objects.filter(pk=record.pk).update(
                    rows_read=rows
                ),
            )
    except FileRefused as refused:
        _fail(record, [(0, _refusal(refused))], 1)
        return
    except (FileNotFoundError, ValueError):  # no file: the import ran already, or never had one
        _fail(record, [(0, gettext("The file of this import is gone: upload it again."))], 1)
        return
    record.rows_read = reading.rows_read
    if reading.error_count:
        _fail(record, reading.errors, reading.error_count)
        return
    _store(record, reading)
    if not record.unchanged:
        alerts_raise(project=project)


def _source(record: ActualsImport, reading: Reading) -> str:
    if record.source:
        return record.source
    return (reading.first_source or PLAIN_SOURCE)[:200]


@transaction.atomic
def _store(record: ActualsImport, reading: Reading) -> None:
    project = record.project
    record.source = _source(record, reading)
    record.format = reading.format
    record.rows_matched = reading.rows_matched
    record.rows_unmatched = reading.rows_unmatched
    record.amount_unmatched = reading.amount_unmatched
    months = reading.months
    record.period_start = months[0] if months else None
    record.period_end = months[-1] if months else None
    record.exchange_rates = rates_record(reading.exchange_rates)
    record.unchanged = (
        ActualsImport.objects.filter(
            project=project,
            source=record.source,
            digest=record.digest,
            status=ActualsImport.Status.DONE,
        )
        .exclude(pk=record.pk)
        .exists()
    )
    if not record.unchanged:
        actuals_changed(project.pk)
        ActualAmount.objects.filter(
            project=project, source=record.source, billing_period__in=reading.periods
        ).exclude(source=MANUAL_SOURCE).delete()
        ActualAmount.objects.bulk_create(
            ActualAmount(
                project=project,
                actuals_import=record,
                source=record.source,
                billing_period=period,
                month=month,
                kind=kind,
                accelerator=accelerator,
                model=model if kind else "",
                token_type=token_type,
                amount=total.amount,
                accelerator_hours=total.accelerator_hours,
                tokens=total.tokens,
                rows=total.rows,
                first_row=total.first_row,
                description=total.description[:500],
            )
            for (period, month, kind, accelerator, model, token_type), total in (
                reading.totals.items()
            )
        )
    record.status = ActualsImport.Status.DONE
    record.errors = []
    record.finished_at = timezone.now()
    record.save()
