"""The portfolio page, its CSV and XLSX downloads, and GET /api/v1/portfolio/budget/."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apps.actuals.selectors import portfolio_variance
from apps.api.fields import MoneyField
from apps.audit.services import Action, audit_event_create
from apps.budget.models import BudgetClass
from apps.exchange.serializers import ExchangeRateSerializer, exchange_rate_representation
from apps.reviews.portfolio import (
    STATUSES,
    budget_portfolio,
    portfolio_csv,
    portfolio_projects,
    portfolio_units,
    portfolio_xlsx,
    table_lines,
    variance_portfolio,
)
from apps.words.currencies import rate_text


class PortfolioFilterForm(forms.Form):
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=STATUSES, required=False)
    unit = forms.ChoiceField(label=gettext_lazy("Organisational unit"), required=False)

    def __init__(self, data, *, units: list[str]):
        super().__init__(data)
        self.fields["unit"].choices = [("", gettext_lazy("All units")), *((u, u) for u in units)]

    def filters(self) -> dict:
        cleaned = getattr(self, "cleaned_data", {})
        return {"status": cleaned.get("status", ""), "unit": cleaned.get("unit", "")}


def _filters(request: HttpRequest) -> tuple[PortfolioFilterForm, dict]:
    form = PortfolioFilterForm(request.GET, units=portfolio_units(request.user))
    form.is_valid()  # invalid filters are shown with their errors; the others still apply
    return form, form.filters()


def _projects_with_rates(item) -> list[tuple]:
    """Each project of a currency's portfolio with the rate it was converted at in words (None
    in US dollars), each distinct rate worded once: most projects share one."""
    words: dict = {}
    return [
        (
            project,
            None
            if project.exchange is None
            else words.setdefault(project.exchange, rate_text(project.exchange)),
        )
        for project in item.projects
    ]


@login_required
@require_GET
def portfolio_page(request: HttpRequest) -> TemplateResponse:
    form, filters = _filters(request)
    portfolios = budget_portfolio(request.user, **filters)
    return TemplateResponse(
        request,
        "reviews/portfolio.html",
        {
            "form": form,
            "portfolios": [
                (item, table_lines(item.portfolio), _projects_with_rates(item))
                for item in portfolios
            ],
            "query": request.GET.urlencode(),
            "variances": portfolio_variance(portfolio_projects(request.user, **filters)),
        },
    )


def _download(
    request: HttpRequest, content: bytes, content_type: str, extension: str
) -> HttpResponse:
    audit_event_create(
        action=Action.EXPORT_DOWNLOADED,
        actor=request.user,
        subject=None,
        name="portfolio",
        changes={"format": [None, extension], "filters": [None, request.GET.dict()]},
    )
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="portfolio-budget.{extension}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def portfolio_export_csv(request: HttpRequest) -> HttpResponse:
    _, filters = _filters(request)
    content = portfolio_csv(variance_portfolio(request.user, **filters))
    return _download(request, content, "text/csv; charset=utf-8", "csv")


@login_required
@require_GET
def portfolio_export_xlsx(request: HttpRequest) -> HttpResponse:
    _, filters = _filters(request)
    content = portfolio_xlsx(variance_portfolio(request.user, **filters))
    xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return _download(request, content, xlsx, "xlsx")


# The API


class PortfolioQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[value for value, _ in STATUSES],
        required=False,
        allow_blank=True,  # "" (submitted and cleared) is a value: the schema lists it
        default="",
        help_text='"" (submitted and cleared), "submitted", "cleared", "returned" or "all".',
    )
    unit = serializers.CharField(required=False, default="", help_text="The exact unit.")


class PortfolioRowSerializer(serializers.Serializer):
    budget_class = serializers.ChoiceField(choices=BudgetClass.choices)
    category = serializers.IntegerField(help_text="UNDG harmonised budget category, 1–7.")
    amounts = serializers.ListField(child=MoneyField(), help_text="One per fiscal year.")
    total = MoneyField()


def per_year(name: str, help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=MoneyField(), source=f"portfolio.{name}", help_text=help_text
    )


class YearFigureField(serializers.ListField):
    """One figure of a project's plan against actual (ProjectTotal.years) per fiscal year of
    its portfolio, null in a year the project's plan does not cover; null as a whole for a
    project without actuals (the page leaves those out of its plan against actual)."""

    def __init__(self, figure: str, **kwargs) -> None:
        self.figure = figure
        super().__init__(source="years", allow_null=True, **kwargs)

    def to_representation(self, data) -> list:
        return [
            None if figures is None else self.child.to_representation(getattr(figures, self.figure))
            for figures in data
        ]


class PortfolioProjectSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="project_id")
    title = serializers.CharField()
    total = MoneyField(help_text="The budget's total over its period, in the portfolio's currency.")
    npv = MoneyField(help_text="The budget's net present value, in the portfolio's currency.")
    exchange_rates = serializers.SerializerMethodField(
        help_text="The rate the project's prices (in US dollars) were converted at, frozen with "
        "its latest submission; empty in US dollars."
    )

    plan = YearFigureField(
        "plan",
        child=MoneyField(allow_null=True),
        help_text="The plan the actuals are set against, per fiscal year of `fiscal_years` (null "
        "in a year the project's plan does not cover): its baseline's budget month by month, as "
        "the portfolio page's plan against actual sums it, in the portfolio's currency; null "
        "for a project without actuals, which the page leaves out of its plan against actual.",
    )
    actual = YearFigureField(
        "actual",
        child=MoneyField(allow_null=True),
        help_text="What was billed, per fiscal year of `fiscal_years` (null in a year the "
        "project's plan does not cover), in the portfolio's currency; null without actuals.",
    )
    variance = YearFigureField(
        "variance",
        child=MoneyField(allow_null=True),
        help_text="Actual − plan (over plan is positive), per fiscal year of `fiscal_years` "
        "(null in a year the project's plan does not cover), in the portfolio's currency; null "
        "without actuals.",
    )
    variance_share = YearFigureField(
        "variance_share",
        child=serializers.FloatField(allow_null=True),
        help_text="(Actual − plan) / plan (0.1 is 10 % over plan), per fiscal year of "
        "`fiscal_years` (null in a year with nothing planned or that the project's plan does "
        "not cover); null without actuals.",
    )

    @extend_schema_field(ExchangeRateSerializer(many=True))
    def get_exchange_rates(self, project) -> list[dict]:
        exchange = project.exchange
        return [] if exchange is None else [exchange_rate_representation(exchange)]


class CurrencyPortfolioSerializer(serializers.Serializer):
    currency = serializers.CharField()
    budgets = serializers.IntegerField(source="portfolio.budgets", help_text="Budgets summed.")
    projects_without_budget = serializers.IntegerField(
        source="without_budget", help_text="Projects whose latest submission had no budget."
    )
    fiscal_years = serializers.ListField(
        child=serializers.CharField(), source="portfolio.fiscal_years"
    )
    rows = PortfolioRowSerializer(many=True, source="portfolio.rows")
    contingency_capex = per_year("contingency_capex", "Contingency on capex, per fiscal year.")
    contingency_opex = per_year("contingency_opex", "Contingency on opex, per fiscal year.")
    indirect = per_year("indirect", "Indirect support costs, per fiscal year.")
    total = per_year("total", "Everything, per fiscal year.")
    projects = PortfolioProjectSerializer(
        many=True, help_text="The projects summed, each with its figures in this currency."
    )


class PortfolioSerializer(serializers.Serializer):
    portfolios = CurrencyPortfolioSerializer(
        many=True, help_text="One per currency: amounts in different currencies are not added."
    )


@extend_schema(
    parameters=[PortfolioQuerySerializer],
    responses={200: PortfolioSerializer},
    summary="The baseline budgets of the caller's projects in review, summed by fiscal year × "
    "class × category (the front office: every project in review)",
    tags=["reviews"],
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def portfolio_budget_view(request: Request) -> Response:
    query = PortfolioQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    portfolios = variance_portfolio(request.user, **query.validated_data)
    return Response(PortfolioSerializer({"portfolios": portfolios}).data)
