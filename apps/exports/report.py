"""What an export holds: a project's facts and, for each scenario, its estimate response and
its budget."""

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from django.conf import settings
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer

from apps.api.estimate import estimate_kept, kept_estimate_representation
from apps.budget.fiscal_labels import fiscal_year_text
from apps.budget.models import CostLine
from apps.budget.selectors import BudgetUnavailable, scenario_budget
from apps.budget.serializers import BudgetSerializer
from apps.catalogue.resolve import Catalogue
from apps.estimates import EstimateInputError
from apps.estimates.currency import ExchangeRate
from apps.estimates.kept import KeptEstimate, KeptOptions
from apps.exports.errors import error_lines
from apps.exports.figures import FigureRow, Table, figure_rows
from apps.exports.range_rows import uncertainty_rows
from apps.exports.variance_tables import project_variance_tables
from apps.options.kept import scenario_kept_options
from apps.options.representation import options_representation
from apps.projects.currency import project_exchange
from apps.projects.models import Project, Scenario
from apps.words.currencies import rate_text
from apps.words.messages import error_texts


@dataclass(frozen=True)
class ScenarioReport:
    scenario: Scenario
    kept: KeptEstimate | None  # the estimate and its ranges; None when the inputs no longer do
    error: str  # why there is no estimate, in the API's field paths
    budget: dict | None = None  # as GET /api/v1/scenarios/{id}/budget/ answers; None: none
    budget_error: str = ""  # why there is no budget
    options: KeptOptions | None = None  # the decision view (GET …/options/); None: none
    # The budget's other rates: each fiscal year's own, each cost line currency's.
    budget_rates: tuple[ExchangeRate, ...] = ()

    @cached_property
    def response(self) -> dict | None:
        """The estimate as the API answers it (what JSON holds and the figure rows read)."""
        return None if self.kept is None else kept_estimate_representation(self.kept)

    @cached_property
    def options_response(self) -> dict | None:
        """The decision view as the options API answers it (what JSON holds)."""
        return None if self.options is None else options_representation(self.options)

    @cached_property
    def figures(self) -> list[FigureRow]:
        if self.kept is None:
            return []
        return figure_rows(self.response) + uncertainty_rows(self.kept.ranges, self.currency)

    @property
    def currency(self) -> str:
        """The currency the estimate's prices were converted into (the project's), else the
        catalogue's US dollars."""
        exchange = None if self.kept is None else self.kept.exchange
        return "USD" if exchange is None else exchange.to_currency


@dataclass(frozen=True)
class Report:
    project: Project
    scenarios: list[ScenarioReport]
    exported_at: datetime
    exported_by: str
    filename: str  # without extension
    language: str  # the words of CSV, XLSX and PDF files are in this language (JSON has none)
    # A project's plan against actual (apps.exports.variance_tables); none without actuals.
    variance: tuple[Table, ...] = ()

    def _rates(self) -> list[tuple[str, str, str]]:
        """The rates the scenarios' prices were converted at, each once, in words."""
        rates = {
            report.kept.exchange
            for report in self.scenarios
            if report.kept is not None and report.kept.exchange is not None
        }
        others = {rate for report in self.scenarios for rate in report.budget_rates}
        return [
            ("exchange_rate", gettext("Exchange rate"), rate_text(exchange))
            for exchange in sorted(rates, key=lambda rate: (rate.to_currency, str(rate.date)))
        ] + [
            ("exchange_rate", gettext("Exchange rate"), _rate_words(rate))
            for rate in sorted(
                others, key=lambda rate: (rate.fiscal_year or "", rate.from_currency)
            )
        ]

    def facts(self, day=None, moment=None) -> list[tuple[str, str, str]]:
        """The project's facts as (field, label, text), dates as ISO 8601 unless `day` and
        `moment` write a date and a time otherwise (the PDF: as the language does)."""
        day = day or _iso
        moment = moment or (lambda value: value.isoformat(timespec="seconds"))
        project = self.project
        facts = [
            ("title", gettext("Title"), project.title),
            ("unit", gettext("Organisational unit"), project.unit),
            ("description", gettext("Description"), project.description),
            ("owner", gettext("Owner"), project.owner.get_username()),
            (
                "classification",
                gettext("Data classification"),
                project.get_classification_display(),
            ),
            ("status", gettext("Status"), project.get_status_display()),
            ("currency", gettext("Currency"), project.currency),
            *self._rates(),
            ("period_start", gettext("Planning period start"), _day(day, project.period_start)),
            ("period_end", gettext("Planning period end"), _day(day, project.period_end)),
        ]
        warning = project.hosting_warning(s.scenario.inputs for s in self.scenarios)
        if warning:
            facts.append(("hosting_warning", gettext("Hosting warning"), warning))
        facts += [
            ("exported_at", gettext("Exported at"), moment(self.exported_at)),
            ("exported_by", gettext("Exported by"), self.exported_by),
        ]
        return facts


# The cost lines in the budget table's order (apps.budget.selectors.cost_lines_of).
_LINES = Prefetch("cost_lines", queryset=CostLine.objects.order_by("kind", "name", "pk"))


def _rate_words(rate: ExchangeRate) -> str:
    """A rate's sentence, a fiscal year's own rate with the year it converts."""
    if rate.fiscal_year is None:
        return rate_text(rate)
    return gettext("%(year)s: %(rate)s") % {
        "year": fiscal_year_text(rate.fiscal_year),
        "rate": rate_text(rate),
    }


def _iso(value) -> str:
    return value.isoformat() if value else ""


def _day(write, value) -> str:
    return write(value) if value else ""


def scenario_estimate(scenario: Scenario, catalogue: Catalogue | None = None) -> ScenarioReport:
    """The scenario's estimate response and budget, or why its stored inputs no longer give
    them. The scenario comes with its project (select_related) and cost lines (prefetched)."""
    budget, budget_error, budget_rates = _budget(scenario, catalogue)
    try:
        exchange = project_exchange(scenario.project, catalogue)
        return ScenarioReport(
            scenario,
            estimate_kept(scenario.inputs, exchange=exchange),
            "",
            budget,
            budget_error,
            options=scenario_kept_options(scenario),
            budget_rates=budget_rates,
        )
    except ValidationError as error:
        return ScenarioReport(scenario, None, " ".join(error_lines(error.detail)))
    except EstimateInputError as error:
        return ScenarioReport(scenario, None, " ".join(error_lines(error_texts(error.errors))))


def _budget(
    scenario: Scenario, catalogue: Catalogue | None
) -> tuple[dict | None, str, tuple[ExchangeRate, ...]]:
    """The budget as the API answers it (through the same selector and serializer), its
    sentences kept as the engine's Messages, and its rates besides the prices'."""
    try:
        drawn_up = scenario_budget(
            scenario, catalogue=catalogue, lines=list(scenario.cost_lines.all())
        )
    except BudgetUnavailable as error:
        return None, error.reason(), ()
    answer = json.loads(JSONRenderer().render(BudgetSerializer(drawn_up).data))
    # The engine's words as the Messages they are, so that every language words them (JSON
    # writes a Message as its English, as the API does).
    for line, kept in zip(answer["lines"], drawn_up.budget.lines, strict=True):
        line["name"], line["basis"] = kept.name, kept.basis
    answer["notes"] = list(drawn_up.budget.notes)
    return answer, "", drawn_up.rates


def _filename(text: str, fallback: str) -> str:
    return slugify(text)[:80].strip("-") or fallback


def _report(
    project: Project, scenarios: list[Scenario], user, filename: str, variance=()
) -> Report:
    catalogue = Catalogue.load()
    for scenario in scenarios:
        scenario.project = project
    return Report(
        project=project,
        scenarios=[scenario_estimate(scenario, catalogue) for scenario in scenarios],
        exported_at=timezone.now(),
        exported_by=user.get_username(),
        filename=filename,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        variance=tuple(variance),
    )


def project_report(project: Project, *, user) -> Report:
    """Every scenario of the project, the baseline first, then by name."""
    scenarios = list(
        project.scenarios.prefetch_related(_LINES).order_by("-is_baseline", "name", "pk")
    )
    name = _filename(project.title, f"project-{project.pk}")
    return _report(project, scenarios, user, name, project_variance_tables(project))


def scenario_report(scenario: Scenario, *, user) -> Report:
    project = scenario.project
    prefetch_related_objects([scenario], _LINES)
    name = _filename(f"{project.title} {scenario.name}", f"scenario-{scenario.pk}")
    return _report(project, [scenario], user, name)
