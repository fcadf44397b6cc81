"""The review workflow's writes: submit a project, return it for changes or clear it, comment.

Which moves are allowed lives on the model (`Project.check_can_move_to`); who may make them is
checked by the views: managers of the project submit, front offices return and clear.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext

from apps.audit.context import one_action
from apps.audit.services import Action, audit_event_create
from apps.budget.kept import drawn_up_record
from apps.budget.selectors import (
    BudgetUnavailable,
    ScenarioBudget,
    baseline_of,
    scenario_budget,
)
from apps.estimates.budget import Budget
from apps.projects import services as project_services
from apps.projects.models import (
    Project,
    ProjectSnapshot,
    ReviewComment,
    ScenarioVersion,
    StatusChange,
    StatusChangeRefused,
)

MOVES = {
    Project.Status.SUBMITTED: Action.WORKPLAN_SUBMITTED,
    Project.Status.RETURNED: Action.WORKPLAN_RETURNED,
    Project.Status.CLEARED: Action.WORKPLAN_CLEARED,
}


def _move(*, project: Project, to_status: str, user, comment: str = "") -> StatusChange:
    audit_event_create(
        action=MOVES[to_status],
        actor=user,
        subject=project,
        project_id=project.pk,
        changes={"status": [project.status, to_status]}
        | ({"comment": [None, comment]} if comment else {}),
    )
    change = StatusChange(
        project=project,
        from_status=project.status,
        to_status=to_status,
        comment=comment,
        changed_by=user,
    )
    change.full_clean()
    change.save()
    project.status = to_status
    project.save(update_fields=["status", "updated_at"])
    return change


# The largest total a snapshot keeps (ProjectSnapshot.total_cost: 20 digits, 2 after the point).
LARGEST_TOTAL = Decimal("1e18")


def baseline_budget(project: Project) -> ScenarioBudget:
    """The project's budget: its baseline scenario's, drawn up now. Without a baseline, or
    when its budget cannot be drawn up or is too large to keep, the submission is refused
    (StatusChangeRefused) saying why."""
    baseline = baseline_of(project)
    if baseline is None:
        raise StatusChangeRefused(
            gettext("“%(title)s” has no baseline scenario: mark one as the baseline, then submit.")
            % {"title": project.title}
        )
    try:
        drawn_up = scenario_budget(baseline)
    except BudgetUnavailable as error:
        raise StatusChangeRefused(
            gettext(
                "“%(title)s” cannot be submitted: the budget of its baseline, “%(name)s”, cannot "
                "be drawn up. %(reason)s"
            )
            % {"title": project.title, "name": baseline.name, "reason": error.reason()}
        ) from None
    if abs(drawn_up.budget.summary.total) >= LARGEST_TOTAL:
        raise StatusChangeRefused(
            gettext(
                "“%(title)s” cannot be submitted: the budget of its baseline, “%(name)s”, totals "
                "more than a review can record. Check its cost lines’ quantities and prices."
            )
            % {"title": project.title, "name": baseline.name}
        )
    return drawn_up


def fiscal_year_totals(budget: Budget) -> dict:
    """{label: {"start", "total"}} of a budget, for sorting the queue (ISO dates, money text)."""
    return {
        year.label: {"start": year.start.isoformat(), "total": f"{total:.2f}"}
        for year, total in zip(budget.fiscal_years, budget.totals.total, strict=True)
    }


@transaction.atomic
def project_submit(*, project: Project, user) -> ProjectSnapshot:
    """Freeze the latest version of every scenario as the project's next snapshot, with the
    project's budget (its baseline's, frozen), and submit the project for review. Refused
    (StatusChangeRefused) without scenarios, or without a baseline whose budget can be drawn
    up."""
    project_services.project_lock(project)
    project.check_can_move_to(Project.Status.SUBMITTED)
    scenarios = list(project.scenarios.all())
    if not scenarios:
        raise StatusChangeRefused(
            gettext("“%(title)s” has no scenario: add one, then submit it.")
            % {"title": project.title}
        )
    for scenario in scenarios:
        if scenario.version == 0:  # saved before versions were kept: keep one now
            with one_action():  # part of the submission, not an action of its own
                project_services.scenario_update(
                    scenario=scenario, name=scenario.name, inputs=scenario.inputs, user=user
                )
    versions = list(
        ScenarioVersion.objects.filter(scenario__project=project, number=F("scenario__version"))
    )
    drawn_up = baseline_budget(project)
    number = (project.snapshots.aggregate(last=Max("number"))["last"] or 0) + 1
    snapshot = ProjectSnapshot(
        project=project,
        number=number,
        created_by=user,
        total_cost=drawn_up.budget.summary.total,
        budget=drawn_up_record(drawn_up),
        fiscal_year_totals=fiscal_year_totals(drawn_up.budget),
    )
    snapshot.full_clean()
    snapshot.save()
    snapshot.scenario_versions.set(versions)
    _move(project=project, to_status=Project.Status.SUBMITTED, user=user)
    return snapshot


@transaction.atomic
def project_return(*, project: Project, user, comment: str) -> StatusChange:
    """Send a submitted project back to its managers, saying what needs to change."""
    if not comment.strip():
        raise ValidationError({"comment": gettext("Say what needs to change.")})
    project_services.project_lock(project)
    project.check_can_move_to(Project.Status.RETURNED)
    return _move(
        project=project, to_status=Project.Status.RETURNED, user=user, comment=comment.strip()
    )


@transaction.atomic
def project_clear(*, project: Project, user, comment: str = "") -> StatusChange:
    """Clear a submitted project: the review is done and the project stays frozen."""
    project_services.project_lock(project)
    project.check_can_move_to(Project.Status.CLEARED)
    return _move(
        project=project, to_status=Project.Status.CLEARED, user=user, comment=comment.strip()
    )


@transaction.atomic
def comment_create(*, project: Project, author, body: str) -> ReviewComment:
    comment = ReviewComment(project=project, author=author, body=body.strip())
    comment.full_clean()
    comment.save()
    audit_event_create(
        action=Action.COMMENTED,
        actor=author,
        subject=comment,
        name=project.title,
        project_id=project.pk,
        changes={"body": [None, comment.body]},
    )
    return comment
