"""Reads for the review: who reviews, which projects they see, the queue, what a review shows."""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db.models import DecimalField, F, JSONField, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.shortcuts import get_object_or_404

from apps.estimates import EstimateResult
from apps.projects.models import Project, ProjectSnapshot, ScenarioVersion
from apps.projects.roles import can_review
from apps.projects.version_diff import Change, inputs_changes, thresholds_exceeded, total_cost
from apps.projects.versions import version_estimate


def projects_for_review(user) -> QuerySet[Project]:
    """Projects submitted at least once whose review this user may see: all of them for the
    front office, whose job it is; otherwise only the user's own or shared ones."""
    if can_review(user):
        return Project.objects.reviewable()
    return Project.objects.for_user(user).reviewable()


def project_for_review(user, project_id: int) -> Project:
    return get_object_or_404(projects_for_review(user).select_related("owner"), pk=project_id)


# The queue's orders; the primary key breaks ties so that pages never shuffle.
SORTS = {
    "submitted": (F("submitted_at").asc(nulls_last=True), "pk"),
    "-submitted": (F("submitted_at").desc(nulls_last=True), "-pk"),
    "total_cost": (F("total_cost").asc(nulls_last=True), "pk"),
    "-total_cost": (F("total_cost").desc(nulls_last=True), "-pk"),
}


# Sorting by a fiscal year: "fy:FY2026" lowest first, "-fy:FY2026" highest first.
FISCAL_YEAR_SORT = "fy:"


def fiscal_year_sort(sort: str) -> tuple[str, bool] | None:
    """(label, highest first) of a sort by a fiscal year's total; None for any other sort."""
    descending = sort.startswith("-")
    rest = sort[1:] if descending else sort
    if not rest.startswith(FISCAL_YEAR_SORT) or len(rest) == len(FISCAL_YEAR_SORT):
        return None
    return rest[len(FISCAL_YEAR_SORT) :], descending


def _latest_snapshot():
    return ProjectSnapshot.objects.filter(project=OuterRef("pk")).order_by("-number")


def with_latest_submission(projects: QuerySet[Project]) -> QuerySet[Project]:
    """The projects with their owner and their latest snapshot's `submitted_at`, `submission`
    (its number), `total_cost` and `fiscal_year_totals` (the baseline budget's total per
    fiscal year), as columns of the same query."""
    latest = _latest_snapshot()
    return projects.select_related("owner").annotate(
        submitted_at=Subquery(latest.values("created_at")[:1]),
        submission=Subquery(latest.values("number")[:1]),
        total_cost=Subquery(latest.values("total_cost")[:1]),
        fiscal_year_totals=Subquery(
            latest.values("fiscal_year_totals")[:1], output_field=JSONField()
        ),
    )


def _order(projects: QuerySet[Project], sort: str) -> QuerySet[Project]:
    by_year = fiscal_year_sort(sort)
    if by_year is None:
        return projects.order_by(*SORTS[sort])
    label, descending = by_year
    year_total = Cast(
        KeyTextTransform("total", KeyTransform(label, "fiscal_year_totals")),
        DecimalField(max_digits=20, decimal_places=2),
    )
    projects = projects.annotate(
        year_total=Subquery(_latest_snapshot().annotate(year=year_total).values("year")[:1])
    )
    year = F("year_total")
    if descending:
        return projects.order_by(year.desc(nulls_last=True), "-pk")
    return projects.order_by(year.asc(nulls_last=True), "pk")


def review_queue(
    *,
    status: str = "",
    unit: str = "",
    submitted_from: date | None = None,
    submitted_to: date | None = None,
    sort: str = "submitted",
) -> QuerySet[Project]:
    """Reviewable projects with their latest submission, filtered and sorted in the database
    (by a fiscal year too: see `fiscal_year_sort`): one query however many there are."""
    projects = with_latest_submission(Project.objects.reviewable())
    if status:
        projects = projects.filter(status=status)
    if unit:
        projects = projects.filter(unit=unit)
    if submitted_from:
        projects = projects.filter(submitted_at__date__gte=submitted_from)
    if submitted_to:
        projects = projects.filter(submitted_at__date__lte=submitted_to)
    return _order(projects, sort)


def _chronological(totals: list[dict]) -> list[str]:
    """The fiscal-year labels of many budgets' `fiscal_year_totals`, oldest first."""
    starts = {}
    for years in totals:
        for label, year in (years or {}).items():
            starts[label] = min(year["start"], starts.get(label, year["start"]))
    return sorted(starts, key=lambda label: (starts[label], label))


def review_fiscal_years() -> list[str]:
    """The fiscal years of the latest submissions in review, oldest first, for the queue's
    sort (one query)."""
    totals = Project.objects.reviewable().annotate(
        years=Subquery(
            _latest_snapshot().values("fiscal_year_totals")[:1], output_field=JSONField()
        )
    )
    return _chronological(list(totals.values_list("years", flat=True)))


@dataclass(frozen=True)
class QueueRow:
    """A project in the queue with its budget's total in each of the page's fiscal years."""

    project: Project
    years: list[Decimal | None]


def queue_rows(projects: list[Project]) -> tuple[list[str], list[QueueRow]]:
    """The fiscal years of these projects' budgets (oldest first: the queue's columns) and a
    row per project with its total in each (None where its budget has no such year)."""
    labels = _chronological([p.fiscal_year_totals for p in projects])
    rows = []
    for project in projects:
        years = project.fiscal_year_totals or {}
        rows.append(
            QueueRow(
                project,
                [Decimal(years[label]["total"]) if label in years else None for label in labels],
            )
        )
    return labels, rows


def review_units() -> list[str]:
    """The units that have a project in review, for the queue's filter."""
    return list(
        Project.objects.reviewable()
        .exclude(unit="")
        .order_by("unit")
        .values_list("unit", flat=True)
        .distinct()
    )


@dataclass(frozen=True)
class ScenarioReview:
    """One scenario of a submission: the figures that matter, and what changed since the last."""

    version: ScenarioVersion
    result: EstimateResult
    total_cost: Decimal
    cost_per_request: Decimal | None  # PerRequest.precise_cost: below a cent too
    thresholds_exceeded: list[str]
    previous: ScenarioVersion | None  # the same scenario in the submission before, if any
    changes: list[Change]  # its inputs' changes since then

    @property
    def horizon_months(self) -> int | None:
        return len(self.result.inference.monthly) if self.result.inference else None


def _versions(snapshot: ProjectSnapshot) -> list[ScenarioVersion]:
    return list(
        snapshot.scenario_versions.select_related("scenario", "created_by").order_by(
            "-scenario__is_baseline", "name", "pk"
        )
    )


def snapshot_review(
    snapshot: ProjectSnapshot, previous: ProjectSnapshot | None
) -> list[ScenarioReview]:
    """Each scenario version of a submission, the baseline first, from the results stored with
    it (never estimated again), compared with the submission before."""
    before = {v.scenario_id: v for v in _versions(previous)} if previous else {}
    reviews = []
    for version in _versions(snapshot):
        result = version_estimate(version).result
        inference = result.inference
        earlier = before.get(version.scenario_id)
        reviews.append(
            ScenarioReview(
                version=version,
                result=result,
                total_cost=total_cost(result),
                cost_per_request=inference.per_request.precise_cost if inference else None,
                thresholds_exceeded=thresholds_exceeded(result),
                previous=earlier,
                changes=inputs_changes(earlier, version) if earlier else [],
            )
        )
    return reviews


@dataclass(frozen=True)
class TimelineEntry:
    """A status change or a comment, in the order they happened."""

    at: datetime
    who: str
    status: str  # the status moved to; empty for a comment
    text: str


def timeline(project: Project) -> list[TimelineEntry]:
    """Every status change (who, when, why) and comment on the project, oldest first."""

    def name(user) -> str:
        return user.get_username() if user else "someone whose account was deleted"

    entries = [
        TimelineEntry(c.changed_at, name(c.changed_by), c.get_to_status_display(), c.comment)
        for c in project.status_changes.select_related("changed_by")
    ] + [
        TimelineEntry(c.created_at, name(c.author), "", c.body)
        for c in project.comments.select_related("author")
    ]
    return sorted(entries, key=lambda entry: entry.at)
