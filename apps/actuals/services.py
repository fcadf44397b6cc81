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
from apps.actuals.replan import TOKENS, MeasuredDemand
from apps.actuals.selectors import measured_demand_of, project_plan
from apps.actuals.stamp import actuals_changed
from apps.budget.selectors import baseline_of
from apps.estimates.budget.fiscal import month_start
from apps.estimates.messages import Day, Message, Number, _
from apps.projects.models import Project, Scenario
from apps.projects.origin import origin_record
from apps.projects.services import scenario_create

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
    actuals_changed(project.pk)
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


class ReplanRefused(ValueError):
    """No scenario can be re-planned from the actuals; the message says why."""


def _origin(demand: MeasuredDemand, baseline: Scenario, today: date) -> Message:
    basis = (
        _("tokens billed") if demand.basis == TOKENS else _("inference accelerator-hours billed")
    )
    common = {
        "day": Day(today),
        "requests": Number(round(demand.requests_per_month), "whole"),
        "month": Day(month_start(demand.month), "month"),
        "basis": basis,
        "baseline": baseline.name,
    }
    if demand.ratios == 0:
        return _(
            "Re-planned from the actuals on %(day)s: %(requests)s requests in %(month)s, the "
            "latest full month, measured from the %(basis)s; no growth, as only that month "
            "has usage. Everything else is copied from the baseline “%(baseline)s”.",
            **common,
        )
    return _(
        "Re-planned from the actuals on %(day)s: %(requests)s requests in %(month)s, the "
        "latest full month, measured from the %(basis)s, growing %(growth)s a month (the "
        "geometric mean of the last %(ratios)s month-on-month ratios). Everything else is "
        "copied from the baseline “%(baseline)s”.",
        growth=Number(demand.monthly_growth, "signed_percent"),
        ratios=Number(demand.ratios, "whole"),
        **common,
    )


@transaction.atomic
def scenario_replan(*, project: Project, user, today: date) -> Scenario:
    """A new scenario whose demand starts from the usage measured in the actuals
    (apps.actuals.replan), its service starting the month after the latest full month; its
    inputs, training start and cost lines copied from the baseline. Refused (ReplanRefused)
    without a baseline that serves requests, or without usage billed in a full month."""
    baseline = baseline_of(project)
    if baseline is None:
        raise ReplanRefused(gettext("This project has no baseline scenario."))
    if not (baseline.inputs or {}).get("inference"):
        raise ReplanRefused(
            gettext("The baseline serves no requests: there is no demand to re-plan.")
        )
    demand = measured_demand_of(project, project_plan(project), today)
    if demand is None:
        raise ReplanRefused(
            gettext(
                "No full month of the actuals has tokens or inference accelerator-hours billed: "
                "there is no usage to re-plan from."
            )
        )
    inputs = {**baseline.inputs}
    inputs["inference"] = {
        **inputs["inference"],
        "requests_per_month": round(demand.requests_per_month, 2),
        "monthly_growth": round(demand.monthly_growth, 6),
    }
    label = month_start(demand.month).strftime("%Y-%m")
    name = gettext("%(name)s, re-planned from actuals to %(month)s") % {
        "name": baseline.name,
        "month": label,
    }

    def copy_lines(scenario: Scenario) -> None:
        lines = list(baseline.cost_lines.all())
        for line in lines:
            line.pk, line.scenario = None, scenario
        scenario.cost_lines.model.objects.bulk_create(lines)

    return scenario_create(
        project=project,
        name=name[:200],
        inputs=inputs,
        user=user,
        timing={
            "training_start": baseline.training_start,
            "service_start": month_start(demand.month + 1),
        },
        parts=copy_lines,
        origin=origin_record(_origin(demand, baseline, today)),
    )
