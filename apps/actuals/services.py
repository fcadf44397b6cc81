"""Writes of actuals: importing a billing file (all or nothing, replacing what the same source
billed for the same periods), mapping rules, and a month's actual entered by hand."""

import hashlib
import logging
from datetime import date
from decimal import Decimal

import kombu.exceptions
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext

from apps.actuals import tasks
from apps.actuals.models import (
    MANUAL_SOURCE,
    ActualAmount,
    ActualsImport,
    AlertThresholds,
    MappingRule,
)
from apps.projects.models import Project

logger = logging.getLogger(__name__)


def _digest(upload) -> str:
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return digest.hexdigest()


def _enqueue(import_id: int) -> None:
    try:
        tasks.actuals_import_task.delay(import_id)
    except kombu.exceptions.OperationalError:
        logger.exception("Could not queue actuals import %s", import_id)
        ActualsImport.objects.filter(pk=import_id).update(
            status=ActualsImport.Status.FAILED,
            errors=[{"row": 0, "message": gettext("The import could not be queued: try again.")}],
            finished_at=timezone.now(),
        )


@transaction.atomic
def actuals_import_create(
    *, project: Project, user, upload: UploadedFile, source: str = ""
) -> ActualsImport:
    """Store the file and queue its import (run after the commit, on a worker or in-process)."""
    record = ActualsImport(
        project=project,
        created_by=user,
        source=source.strip(),
        file_name=(upload.name or "")[:255],
        digest=_digest(upload),
        language=translation.get_language() or "en",
    )
    record.file.save(f"{project.pk}-{record.digest[:16]}.csv", upload, save=False)
    record.full_clean()
    record.save()
    transaction.on_commit(lambda: _enqueue(record.pk))
    return record


@transaction.atomic
def mapping_rule_create(*, project: Project, column: str, value: str, kind: str) -> MappingRule:
    """A new rule, last in the project's order."""
    last = MappingRule.objects.filter(project=project).aggregate(last=Max("position"))["last"]
    rule = MappingRule(
        project=project,
        column=column.strip(),
        value=value,
        kind=kind,
        position=0 if last is None else last + 1,
    )
    rule.full_clean()
    rule.save()
    return rule


@transaction.atomic
def mapping_rule_update(*, rule: MappingRule, fields: dict) -> MappingRule:
    for name, value in fields.items():
        setattr(rule, name, value.strip() if name == "column" else value)
    rule.full_clean()
    rule.save()
    return rule


@transaction.atomic
def mapping_rule_delete(*, rule: MappingRule) -> None:
    rule.delete()


@transaction.atomic
def alert_thresholds_update(
    *, project: Project, percentages: list[int], on_actual: bool, on_forecast: bool
) -> AlertThresholds:
    """Set when the project's budget alerts are raised: each percentage once, in order."""
    thresholds = AlertThresholds.objects.filter(project=project).first() or AlertThresholds(
        project=project
    )
    thresholds.percentages = sorted(set(percentages))
    thresholds.on_actual = on_actual
    thresholds.on_forecast = on_forecast
    thresholds.full_clean()
    thresholds.save()
    return thresholds


@transaction.atomic
def actual_enter(*, project: Project, month: date, kind: str, amount: Decimal) -> ActualAmount:
    """A month's actual of one kind entered by hand: replaces what was entered by hand for that
    month and kind before."""
    month = month.replace(day=1)
    ActualAmount.objects.filter(
        project=project, source=MANUAL_SOURCE, month=month, kind=kind
    ).delete()
    return ActualAmount.objects.create(
        project=project,
        source=MANUAL_SOURCE,
        billing_period=month,
        month=month,
        kind=kind,
        amount=amount,
        rows=1,
    )
