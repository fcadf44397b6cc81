"""The decision page of a scenario, and "Use this option"."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from apps.estimates import EstimateInputError
from apps.options.chart import options_chart
from apps.options.forms import OptionsForm, UseOptionForm, commitment_choice
from apps.options.kept import commitment_sentences, fiscal_year_labels, option_rows
from apps.options.presentation import (
    chart_description,
    cheapest_share_sentences,
    condition_text,
    crossover_rows,
    unavailable_rows,
)
from apps.options.ranges import option_ranges_context
from apps.options.services import (
    kept_options,
    scenario_from_option,
    scenario_options_compare,
    scenario_request,
)
from apps.projects.guards import refuses_frozen_projects
from apps.projects.selectors import scenario_for_user
from apps.words.messages import error_texts


def _messages(error: EstimateInputError) -> list[str]:
    return [message for messages_ in error_texts(error.errors).values() for message in messages_]


@login_required
@require_GET
def scenario_options_page(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    training = scenario_request(scenario).get("training")
    form = OptionsForm(request.GET or None, training=training)
    context = {"scenario": scenario, "project": scenario.project, "form": form, "problems": []}
    if not form.is_bound or form.is_valid():
        choices = form.choices() if form.is_bound else None
        try:
            compared = scenario_options_compare(scenario, choices, today=timezone.localdate())
        except EstimateInputError as error:
            context["problems"] = _messages(error)
        else:
            kept = kept_options(compared, scenario.project.currency)
            context.update(
                compared=compared,
                years=fiscal_year_labels(kept),
                rows=option_rows(kept),
                **option_ranges_context(kept),
                crossovers=crossover_rows(compared.comparison),
                unavailable=unavailable_rows(kept),
                condition=condition_text(compared.comparison),
                cheapest_shares=cheapest_share_sentences(kept),
                chart=(chart := options_chart(list(compared.inputs), compared.comparison)),
                chart_description=chart_description(chart, scenario.project.currency),
                api_model=form.cleaned_data.get("api_model", "") if form.is_bound else "",
                api_price_tier=(
                    form.cleaned_data.get("api_price_tier", "") if form.is_bound else ""
                ),
                accelerator=form.cleaned_data.get("accelerator", "") if form.is_bound else "",
                training_route=form.cleaned_data.get("training_route", "") if form.is_bound else "",
                commitment=commitment_choice(form.cleaned_data) if form.is_bound else {},
                commitment_sentences=commitment_sentences(kept),
                api_warning=scenario.project.hosting_warning(
                    [{"inference": {"method": "external_api"}}]
                )
                if any(option.key == "external_api" for option in compared.inputs)
                else None,
            )
    return TemplateResponse(request, "options/options.html", context)


@login_required
@require_POST
@refuses_frozen_projects
def scenario_option_use(request: HttpRequest, scenario_id: int) -> HttpResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    form = UseOptionForm(request.POST, training=scenario_request(scenario).get("training"))
    if not form.is_valid():
        messages.error(request, gettext("Choose one of the options shown."))
        return redirect("scenario-options", scenario_id=scenario.pk)
    try:
        copy = scenario_from_option(scenario=scenario, choice=form.choice(), user=request.user)
    except EstimateInputError as error:
        messages.error(request, " ".join(_messages(error)))
        return redirect("scenario-options", scenario_id=scenario.pk)
    messages.success(request, gettext("“%(name)s” created from the option.") % {"name": copy.name})
    return redirect("scenario-detail", scenario_id=copy.pk)
