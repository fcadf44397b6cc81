"""The portfolio: baseline budgets summed by fiscal year × class × category, per currency.

Each project counts with the budget frozen at its latest submission (ProjectSnapshot.budget,
its baseline scenario's): the budget that was put forward, never drawn up again, so the sums
read one JSON column per project in one query. The front office sees every project in review;
anyone else the projects they own or collaborate on. Amounts in different currencies are never
added: there is one portfolio per currency, each listing its projects with their totals in it and
the rate their catalogue prices (in US dollars) were converted at, as frozen with the submission.
With `variance_portfolio`, each project also carries its plan against actual by fiscal year, as
the page's plan against actual computes it (apps.actuals.selectors.portfolio_variance).
"""

import csv
import io
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from openpyxl import Workbook

from apps.actuals.selectors import portfolio_variance
from apps.actuals.variance import Figures, Variance
from apps.budget.fiscal_labels import fiscal_year_text
from apps.budget.kept import kept_budget
from apps.budget.models import Category
from apps.budget.presentation import CLASS_LABELS
from apps.core.spreadsheet_text import formula_safe
from apps.estimates.budget import Portfolio, portfolio
from apps.estimates.currency import ExchangeRate
from apps.estimates.kept import KeptBudget
from apps.exports.variance_tables import share_percent
from apps.exports.xlsx_export import put
from apps.projects.models import Project, ProjectSnapshot
from apps.projects.roles import can_review

# The status filter: by default what was put forward and stands (submitted and cleared).
STATUSES = [
    ("", gettext_lazy("Submitted and cleared")),
    ("submitted", gettext_lazy("Submitted for review")),
    ("cleared", gettext_lazy("Cleared")),
    ("returned", gettext_lazy("Returned for changes")),
    ("all", gettext_lazy("Any status")),
]
DEFAULT_STATUSES = (Project.Status.SUBMITTED, Project.Status.CLEARED)
# The CSV's header row, in the reader's language (the columns' order is the rows').
CSV_COLUMNS = (
    pgettext_lazy("CSV column", "currency"),
    pgettext_lazy("CSV column", "row"),
    pgettext_lazy("CSV column", "class"),
    pgettext_lazy("CSV column", "category"),
    pgettext_lazy("CSV column", "fiscal year"),
    pgettext_lazy("CSV column", "amount"),
    pgettext_lazy("CSV column", "actual"),
    pgettext_lazy("CSV column", "variance"),
    pgettext_lazy("CSV column", "variance (% of plan)"),
    pgettext_lazy("CSV column", "project"),
)


def portfolio_projects(user, *, status: str = "", unit: str = "") -> QuerySet[Project]:
    """The projects this user's portfolio sums, with their latest submission (its id and when
    it was made: `latest_snapshot`, `latest_snapshot_at`; None without one)."""
    projects = Project.objects.reviewable()
    if not can_review(user):
        projects = Project.objects.for_user(user).reviewable()
    if status == "":
        projects = projects.filter(status__in=DEFAULT_STATUSES)
    elif status != "all":
        projects = projects.filter(status=status)
    if unit:
        projects = projects.filter(unit=unit)
    latest = ProjectSnapshot.objects.filter(project=OuterRef("pk")).order_by("-number")
    return projects.annotate(
        latest_snapshot=Subquery(latest.values("pk")[:1]),
        latest_snapshot_at=Subquery(latest.values("created_at")[:1]),
    ).order_by("pk")


def portfolio_units(user) -> list[str]:
    """The units of the user's portfolio projects, for the filter (one query)."""
    projects = portfolio_projects(user, status="all").exclude(unit="")
    return sorted(set(projects.values_list("unit", flat=True)))


@dataclass(frozen=True)
class ProjectTotal:
    """One project of a portfolio: its budget's total over its period and its NPV, in the
    currency it was submitted in, and the rate its prices were converted at (None: in US
    dollars, not converted), as frozen with its latest submission.

    years: its plan against actual (plan, actual, variance and its share of plan) in each of
    the portfolio's fiscal years, None in a year its plan does not cover; None for a project
    without actuals, which the page leaves out of its plan against actual (and where not
    asked for: see variance_portfolio)."""

    project_id: int
    title: str
    total: Decimal
    npv: Decimal
    exchange: ExchangeRate | None
    years: tuple[Figures | None, ...] | None = None


@dataclass(frozen=True)
class CurrencyPortfolio:
    """The budgets of one currency summed; `without_budget`: projects whose latest submission
    had no budget (no baseline, or it could not be drawn up), counted but not summed;
    `projects`: the projects summed, each with its total in the currency."""

    currency: str
    portfolio: Portfolio
    without_budget: int
    projects: tuple[ProjectTotal, ...] = ()


# Budgets kept with submissions, read back, by (snapshot id, when it was made): a submission is
# frozen, never changed, so what its record reads back to is kept in the process for the next
# portfolio rather than read again from its JSON (most of a portfolio's time).
_KEPT: OrderedDict[tuple[int, datetime], KeptBudget | None] = OrderedDict()
KEPT_HELD = 5_000


def _kept_budgets(keys: list[tuple[int, datetime]]) -> dict[tuple, KeptBudget | None]:
    """The budget kept with each of these submissions (None: it had none): those read before
    from the process's memory, the others in one query."""
    missing = {pk: at for pk, at in keys if (pk, at) not in _KEPT}
    if missing:
        rows = ProjectSnapshot.objects.filter(pk__in=missing).values_list("pk", "budget")
        for pk, record in rows:
            _KEPT[(pk, missing[pk])] = kept_budget(record) if record else None
    found = {}
    for key in keys:
        _KEPT.move_to_end(key)
        found[key] = _KEPT[key]
    while len(_KEPT) > KEPT_HELD:
        _KEPT.popitem(last=False)
    return found


def budget_portfolio(user, *, status: str = "", unit: str = "") -> list[CurrencyPortfolio]:
    """The user's portfolio, one per currency (in alphabetical order); one query, and one
    more for the submissions whose budget this process has not read yet."""
    budgets: dict[str, list] = {}
    projects: dict[str, list[ProjectTotal]] = {}
    missing: dict[str, int] = {}
    rows = list(
        portfolio_projects(user, status=status, unit=unit).values_list(
            "pk", "title", "currency", "latest_snapshot", "latest_snapshot_at"
        )
    )
    kept_by_key = _kept_budgets([(row[3], row[4]) for row in rows if row[3] is not None])
    for pk, title, currency, snapshot, made_at in rows:
        kept = None if snapshot is None else kept_by_key[(snapshot, made_at)]
        if kept is not None:
            # The currency the budget was submitted in, which the project may have changed since.
            budgets.setdefault(kept.currency, []).append(kept.budget)
            summary = kept.budget.summary
            projects.setdefault(kept.currency, []).append(
                ProjectTotal(pk, title, summary.total, summary.npv, kept.exchange)
            )
        else:
            missing[currency] = missing.get(currency, 0) + 1
    return [
        CurrencyPortfolio(
            currency,
            portfolio(budgets.get(currency, [])),
            missing.get(currency, 0),
            tuple(projects.get(currency, ())),
        )
        for currency in sorted(budgets.keys() | missing.keys())
    ]


def variance_portfolio(user, *, status: str = "", unit: str = "") -> list[CurrencyPortfolio]:
    """budget_portfolio with each project's plan against actual by the portfolio's fiscal years
    (ProjectTotal.years) in the project's currency, from the page's portfolio_variance; a
    project whose currency is no longer the one it was submitted in has none. A fixed number
    of queries however many projects."""
    portfolios = budget_portfolio(user, status=status, unit=unit)
    variances = {
        (item.currency, project.pk): variance
        for item in portfolio_variance(portfolio_projects(user, status=status, unit=unit))
        for project, variance in zip(item.projects, item.variances, strict=True)
    }
    return [
        replace(
            item,
            projects=tuple(
                replace(
                    project,
                    years=_by_year(
                        item.portfolio.fiscal_years,
                        variances.get((item.currency, project.project_id)),
                    ),
                )
                for project in item.projects
            ),
        )
        for item in portfolios
    ]


def _by_year(labels: tuple[str, ...], variance: Variance | None) -> tuple | None:
    if variance is None:
        return None
    totals = {year.label: year.total for year in variance.years}
    return tuple(totals.get(label) for label in labels)


def category_label(number: int) -> str:
    return str(Category(number).label)


@dataclass(frozen=True)
class Line:
    """A row of a portfolio table: its label, class and category, amounts and total."""

    label: str
    budget_class: str
    category: int | None
    amounts: tuple[Decimal, ...]
    total: Decimal


def table_lines(summed: Portfolio) -> list[Line]:
    """The rows a page or file shows: class × category, then contingency, indirect, total."""
    lines = [
        Line(
            f"{CLASS_LABELS[row.budget_class]}, {category_label(row.category)}",
            row.budget_class,
            row.category,
            row.amounts,
            row.total,
        )
        for row in summed.rows
    ]
    for label, amounts in (
        (_("Contingency on capex"), summed.contingency_capex),
        (_("Contingency on opex"), summed.contingency_opex),
        (_("Indirect support costs"), summed.indirect),
        (_("Total"), summed.total),
    ):
        lines.append(Line(label, "", None, amounts, sum(amounts, Decimal("0.00"))))
    return lines


def _share_text(share: float | None) -> str:
    return "" if share is None else str(share_percent(share))


def portfolio_csv(portfolios: list[CurrencyPortfolio]) -> bytes:
    """One row per cell: currency, row, class, category, fiscal year, amount (UTF-8 with BOM);
    the header and the class in the reader's language; amounts, category numbers and fiscal
    years' keys (apps.budget.fiscal_labels) as they are. Then each project with actuals (its
    title as the row, its id in the last column): per fiscal year its plan as the amount, the
    actual, the variance (actual − plan) and that as a percentage of plan (empty with nothing
    planned), in the project's currency; the other rows leave those columns empty."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([str(column) for column in CSV_COLUMNS])
    for item in portfolios:
        labels = item.portfolio.fiscal_years
        for line in table_lines(item.portfolio):
            for label, amount in zip(labels, line.amounts, strict=True):
                writer.writerow(
                    [
                        item.currency,
                        formula_safe(line.label),
                        str(CLASS_LABELS.get(line.budget_class, "")),
                        line.category or "",
                        formula_safe(label),
                        f"{amount:.2f}",
                        *("", "", "", ""),
                    ]
                )
        for project in item.projects:
            if project.years is None:
                continue
            for label, figures in zip(labels, project.years, strict=True):
                if figures is not None:
                    writer.writerow(
                        [
                            item.currency,
                            formula_safe(project.title),
                            "",
                            "",
                            formula_safe(label),
                            f"{figures.plan:.2f}",
                            f"{figures.actual:.2f}",
                            f"{figures.variance:.2f}",
                            _share_text(figures.variance_share),
                            project.project_id,
                        ]
                    )
    return buffer.getvalue().encode("utf-8-sig")


def portfolio_xlsx(portfolios: list[CurrencyPortfolio]) -> bytes:
    """A sheet per currency: rows class × category and the rows below, a column per year."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    for item in portfolios or [None]:
        sheet = workbook.create_sheet(item.currency if item else _("Portfolio"))
        if item is None:
            put(sheet, 1, 1, _("No budget to sum."))
            continue
        years = item.portfolio.fiscal_years
        headings = [
            _("Row"),
            *(f"{fiscal_year_text(y)} ({item.currency})" for y in years),
            _("Total"),
        ]
        for column, heading in enumerate(headings, start=1):
            put(sheet, 1, column, heading, bold=True)
        for row, line in enumerate(table_lines(item.portfolio), start=2):
            for column, value in enumerate([line.label, *line.amounts, line.total], start=1):
                put(sheet, row, column, value)
        _variance_sheet(workbook, item)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _variance_sheet(workbook: Workbook, item: CurrencyPortfolio) -> None:
    """A currency's projects with actuals, on a sheet after its own: a row per project, and per
    fiscal year its plan, actual and variance (in the currency) and the variance as a
    percentage of plan (empty with nothing planned)."""
    billed = [project for project in item.projects if project.years is not None]
    if not billed:
        return
    currency = item.currency
    sheet = workbook.create_sheet(_("%(currency)s, plan against actual") % {"currency": currency})
    headings = [_("Project")]
    for label in item.portfolio.fiscal_years:
        named = {"year": fiscal_year_text(label), "currency": currency}
        headings += [
            f"{named['year']} ({currency})",
            _("%(year)s actual (%(currency)s)") % named,
            _("%(year)s variance (%(currency)s)") % named,
            _("%(year)s variance (%% of plan)") % named,
        ]
    for column, heading in enumerate(headings, start=1):
        put(sheet, 1, column, heading, bold=True)
    for row, project in enumerate(billed, start=2):
        values: list = [project.title]
        for figures in project.years:
            values += [None] * 4 if figures is None else _variance_cells(figures)
        for column, value in enumerate(values, start=1):
            put(sheet, row, column, value)


def _variance_cells(figures: Figures) -> list:
    return [
        figures.plan,
        figures.actual,
        figures.variance,
        share_percent(figures.variance_share),
    ]
