"""Sweep pages: define a sweep from a scenario, watch its progress, read and download results."""

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.catalogue.models import Accelerator, LanguageModel
from apps.projects.selectors import scenario_for_user
from apps.sweeps import background, services
from apps.sweeps.allowance import SweepLimitReached
from apps.sweeps.definition import DefinitionError, points_text
from apps.sweeps.forms import SweepDefinitionForm, point_count
from apps.sweeps.inputs import SECTION_LABELS, SWEEPABLE
from apps.sweeps.metrics import CHART_METRICS, RANKING_LABELS, TABLE_METRICS, metrics_in
from apps.sweeps.models import ScenarioFreshness, Sweep
from apps.sweeps.selectors import (
    accelerator_names,
    model_names,
    sweep_chart,
    sweep_definition,
    sweep_for_user,
    sweep_rows,
    sweep_summary,
)
from apps.words.currencies import rate_text
from apps.words.numbers import decimal_text, percent_text

TABLE_ROWS = 50


def _scenario_context(scenario) -> dict:
    return {
        "scenario": scenario,
        "project": scenario.project,
        "freshness": ScenarioFreshness.objects.filter(scenario=scenario).first(),
        "sweeps": scenario.sweeps.all()[:20],
        "inputs_used": [spec for spec in SWEEPABLE.values() if not spec.unused_by(scenario.inputs)],
    }


@login_required
@require_http_methods(["GET", "POST"])
def sweep_new(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    form = SweepDefinitionForm(
        request.POST or None,
        scenario_inputs=scenario.inputs,
        accelerators=list(Accelerator.objects.all()),
        models=list(LanguageModel.objects.all()),
    )
    count = point_count(request.POST, scenario_inputs=scenario.inputs) if request.POST else None
    status, retry_after = 200, None
    if request.method == "POST" and request.POST.get("action") != "count" and form.is_valid():
        try:
            sweep = services.sweep_create(
                scenario=scenario,
                created_by=request.user,
                definition=form.definition(),
                name=form.sweep.cleaned_data["name"],
            )
        except DefinitionError as error:
            form.add_errors(error)
        except SweepLimitReached as reached:
            form.add_errors(DefinitionError({"non_field_errors": [reached.message]}))
            status, retry_after = 429, reached.retry_after_seconds
        except services.QueueUnavailable as error:
            form.add_errors(DefinitionError({"non_field_errors": [str(error.message)]}))
            status, retry_after = 503, services.QUEUE_RETRY_AFTER_SECONDS
        else:
            messages.success(
                request,
                gettext("Sweep “%(name)s” started: %(points)s.")
                % {"name": sweep.name, "points": points_text([sweep.total_points])},
            )
            return redirect(sweep)
    context = {**_scenario_context(scenario), "form": form, "count": count}
    response = TemplateResponse(request, "sweeps/sweep_new.html", context, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@login_required
@require_POST
def sweep_count(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    """The number of points of the form as typed (HTMX, while people type)."""
    scenario = scenario_for_user(request.user, scenario_id)
    context = {"count": point_count(request.POST, scenario_inputs=scenario.inputs)}
    return TemplateResponse(request, "sweeps/sweep_new.html#point-count", context)


def progress_milestone(sweep: Sweep) -> tuple[str, str]:
    """(key, text) announced to screen readers: every tenth of the points, and the end."""
    if sweep.status == Sweep.Status.QUEUED:
        return "queued", gettext("Sweep queued: waiting for a worker.")
    if sweep.status == Sweep.Status.RUNNING:
        tenth = sweep.percent_done // 10 * 10
        return f"running-{tenth}", gettext("Sweep running: %(percent)s of the points computed.") % {
            "percent": percent_text(decimal_text(Decimal(tenth)))
        }
    if sweep.status == Sweep.Status.COMPLETED:
        return "completed", gettext("Sweep completed: all %(points)s computed.") % {
            "points": points_text([sweep.total_points])
        }
    if sweep.status == Sweep.Status.FAILED:
        return "failed", gettext("Sweep failed: %(reason)s") % {"reason": sweep.error}
    return "cancelled", gettext("Sweep cancelled.")


class _Rows:
    """The sweep's points as a sequence that Paginator can count and slice."""

    def __init__(self, sweep: Sweep) -> None:
        self.sweep = sweep

    def __len__(self) -> int:
        return self.sweep.total_points

    def __getitem__(self, window: slice) -> list:
        return sweep_rows(self.sweep, window.start, window.stop)


def _results_context(request: HttpRequest, sweep: Sweep, accelerators: dict) -> dict:
    if not sweep.has_results:
        return {}
    summary = sweep_summary(sweep)
    # A sweep computed before a figure was added charts the figures it has.
    charted = [name for name in CHART_METRICS if name not in summary.not_computed]
    metric = request.GET.get("metric")
    metric = metric if metric in charted else charted[0]
    position = request.GET.get("accelerator", "0")
    position = int(position) if position.isdigit() else 0
    names = list(accelerators.values())
    by_name = metrics_in(sweep.currency)
    return {
        "heatmap_accelerator": names[min(position, len(names) - 1)] if names else "",
        "summary_figures": [
            (by_name[name], figure)
            for name, figure in summary.figures.items()
            if figure["count"] or not figure["computed"]
        ],
        "not_computed": [by_name[name].label for name in summary.not_computed],
        "rankings": [
            (RANKING_LABELS[name], rows) for name, rows in summary.rankings.items() if rows
        ],
        "chart": sweep_chart(sweep, metric, position),
        "chart_metric": by_name[metric],
        "chart_metrics": [by_name[name] for name in charted],
        "accelerator_position": position,
        "page": Paginator(_Rows(sweep), TABLE_ROWS).get_page(request.GET.get("page")),
        "table_metrics": [by_name[name] for name in TABLE_METRICS],
    }


def _sweep_context(sweep: Sweep) -> dict:
    definition = sweep_definition(sweep)
    milestone, announcement = progress_milestone(sweep)
    return {
        "sweep": sweep,
        "scenario": sweep.scenario,
        "project": sweep.scenario.project,
        "definition": definition,
        "accelerators": accelerator_names(definition.accelerators),
        "models": model_names(definition.models),
        # where the listed accelerators are used, in words ("Inference")
        "accelerator_sections": [SECTION_LABELS[s] for s in definition.accelerator_sections],
        "milestone": milestone,
        "announcement": announcement,
        # the rate the sweep's prices were converted at, pinned when it was made, in words
        "rate_sentence": None if sweep.exchange_rate is None else rate_text(sweep.exchange_rate),
    }


@login_required
@require_GET
def sweep_detail(request: HttpRequest, sweep_id: int) -> TemplateResponse:
    sweep = sweep_for_user(request.user, sweep_id)
    background.sweeps_resume_abandoned(Sweep.objects.filter(pk=sweep.pk))
    context = _sweep_context(sweep)
    if request.htmx and not request.htmx.history_restore_request:
        # A poll: the progress; the announcement when it changed; the results when it ended.
        context["announce"] = request.GET.get("announced") != context["milestone"]
        if not sweep.is_active:
            context.update(_results_context(request, sweep, context["accelerators"]))
        template = "sweeps/sweep_detail.html#poll"
    else:
        context.update(_results_context(request, sweep, context["accelerators"]))
        template = "sweeps/sweep_detail.html"
    response = TemplateResponse(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def sweep_cancel(request: HttpRequest, sweep_id: int) -> HttpResponse:
    sweep = sweep_for_user(request.user, sweep_id)
    if services.sweep_cancel(sweep=sweep):
        messages.success(
            request, gettext("Sweep cancelled: its remaining points will not be computed.")
        )
    else:
        messages.info(
            request,
            gettext("The sweep had ended already (%(status)s).")
            % {"status": sweep.get_status_display()},
        )
    return redirect(sweep)
