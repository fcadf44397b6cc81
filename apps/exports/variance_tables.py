"""A project's plan against actual as export tables: by fiscal year and by month, per kind of
line in money, then accelerator-hours and tokens, planned and actual.

Built from the same variance the actuals page and GET /api/v1/projects/{id}/variance/ show
(apps.actuals.selectors.project_variance), so that CSV, XLSX and PDF carry their amounts to the
cent.
"""

from decimal import Decimal

from django.utils.translation import gettext as _

from apps.actuals.kinds import kind_name
from apps.actuals.selectors import has_actuals, project_variance
from apps.actuals.variance import TOKEN_TYPES, Figures, Period, Variance
from apps.budget.fiscal_labels import fiscal_year_text
from apps.exports.figures import Column, Table, Value
from apps.projects.models import Project

PERCENT = Decimal("0.1")


def share_percent(share: float | None) -> Decimal | None:
    """A variance's share of plan (0.1) as the percentage exports write (10.0)."""
    return None if share is None else (Decimal(repr(share)) * 100).quantize(PERCENT)


def _money_row(period: str, kind: str, figures: Figures) -> tuple[Value, ...]:
    return (
        period,
        kind,
        figures.plan,
        figures.actual,
        figures.variance,
        share_percent(figures.variance_share),
        figures.forecast,
    )


def _money_columns(first: str, currency: str) -> tuple[Column, ...]:
    return (
        Column("period", first, ""),
        Column("kind", _("Kind of line"), ""),
        Column("plan", _("Plan"), currency, True),
        Column("actual", _("Actual"), currency, True),
        Column("variance", _("Variance"), currency, True),
        Column("variance_share", _("Variance as a share of plan"), "%"),
        Column("forecast", _("Forecast"), currency, True),
    )


def _usage_columns(first: str) -> tuple[Column, ...]:
    names = {"input": _("input"), "cached": _("cached"), "output": _("output")}
    return (
        Column("period", first, ""),
        Column("accelerator_hours.plan", _("Accelerator-hours planned"), "h"),
        Column("accelerator_hours.actual", _("Accelerator-hours used"), "h"),
        *(
            Column(f"tokens.plan.{t}", _("Tokens planned, %(type)s") % {"type": names[t]}, "")
            for t in TOKEN_TYPES
        ),
        *(
            Column(f"tokens.actual.{t}", _("Tokens used, %(type)s") % {"type": names[t]}, "")
            for t in TOKEN_TYPES
        ),
    )


def _usage_row(label: str, period: Period) -> tuple[Value, ...]:
    usage = period.usage
    planned = usage.tokens_plan
    return (
        label,
        usage.accelerator_hours_plan,
        usage.accelerator_hours_actual,
        *(None if planned is None else planned[t] for t in TOKEN_TYPES),
        *(usage.tokens_actual[t] for t in TOKEN_TYPES),
    )


def _money_rows(label: str, period: Period) -> list[tuple[Value, ...]]:
    rows = [_money_row(label, _("All lines"), period.total)]
    rows += [_money_row(label, kind_name(kind), f) for kind, f in period.kinds.items()]
    return rows


def variance_tables(variance: Variance, currency: str) -> list[Table]:
    """Four tables: money by fiscal year, money by month (each period's total, then each kind
    of line), usage by fiscal year, usage by month."""
    year_label, month_label = _("Fiscal year"), _("Month")
    months = [(m.label, m) for year in variance.years for m in year.months]
    years = [(fiscal_year_text(year.label), year) for year in variance.years]
    return [
        Table(
            title=_("Plan against actual by fiscal year, in %(currency)s") % {"currency": currency},
            field="variance.fiscal_years",
            columns=_money_columns(year_label, currency),
            rows=tuple(row for label, year in years for row in _money_rows(label, year)),
        ),
        Table(
            title=_("Plan against actual by month, in %(currency)s") % {"currency": currency},
            field="variance.months",
            columns=_money_columns(month_label, currency),
            rows=tuple(row for label, month in months for row in _money_rows(label, month)),
        ),
        Table(
            title=_("Accelerator-hours and tokens by fiscal year, planned and used"),
            field="variance.fiscal_years",
            columns=_usage_columns(year_label),
            rows=tuple(_usage_row(label, year) for label, year in years),
        ),
        Table(
            title=_("Accelerator-hours and tokens by month, planned and used"),
            field="variance.months",
            columns=_usage_columns(month_label),
            rows=tuple(_usage_row(label, month) for label, month in months),
        ),
    ]


def project_variance_tables(project: Project) -> list[Table]:
    """The project's plan against actual (see variance_tables), or none without actuals."""
    if not has_actuals(project):
        return []
    _plan, variance = project_variance(project)
    return variance_tables(variance, project.currency)
