"""One save, one computation (issue 22): saving the scenario page's form estimates the scenario
once (the form validates its inputs by estimating them, and the version keeps that estimate),
draws its budget up from that estimate and compares its options, all kept with the version;
the page the save returns to reads them and computes nothing. Every engine run is counted at its
one entry point (apps.estimates.engine.compute): a second computation of anything fails here."""

import pytest
from django.utils import timezone

from apps.budget.services import cost_line_create
from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import engine
from apps.options.services import scenario_options_compare
from apps.projects.forms import ScenarioForm
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_budget_models import STAFF
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS

pytestmark = pytest.mark.django_db
PLAIN_INPUTS = {key: RANGED_INPUTS[key] for key in ("training", "inference")}


def form_data(scenario) -> dict:
    """The scenario page's form as a browser posts it, unchanged."""
    initial = ScenarioForm.initial_from_request(scenario.name, scenario.inputs, scenario.version)
    initial.update(training_start=scenario.training_start, service_start=scenario.service_start)
    form = ScenarioForm(initial=initial, catalogue=Catalogue.load())
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value not in (None, False, ""):
            data[name] = "on" if value is True else str(value)
    return data


def scalar(inputs: list) -> list:
    return [inp for inp in inputs if engine._input_shape(inp) == ()]


def runs_of(scenario_input, inputs: list) -> int:
    return sum(inp == scenario_input for inp in scalar(inputs))


@pytest.mark.parametrize("inputs", [RANGED_INPUTS, PLAIN_INPUTS], ids=["ranges", "no ranges"])
def test_a_save_computes_each_figure_once_and_its_page_none(client, monkeypatch, inputs):
    owner = make_manager("maria")
    client.force_login(owner)
    scenario = make_scenario(make_project(owner), "Pilot", inputs=inputs, is_baseline=True)
    cost_line_create(scenario=scenario, fields=STAFF, user=owner)
    scenario.refresh_from_db()
    data = {**form_data(scenario), "inference_requests_per_month": "16,000"}
    ranges = "ranges" in inputs
    computed = []
    compute = engine.compute
    monkeypatch.setattr(
        engine, "compute", lambda inp, **kw: computed.append(inp) or compute(inp, **kw)
    )

    saved = client.post(f"/scenarios/{scenario.pk}/", data)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    during_save = list(computed)
    page = client.get(saved["Location"])
    assert page.status_code == 200 and "Scenario saved." in page.content.decode()
    assert len(computed) == len(during_save), "the page after the save computed again"

    # What comparing its options alone computes: each option is an estimate of its own.
    scenario.refresh_from_db()
    computed.clear()
    scenario_options_compare(scenario, None, today=timezone.localdate())
    options = list(computed)
    itself, _ = estimate_input_from_request(scenario.inputs)
    # The scenario itself: estimated once (by the form), its version and its budget reading
    # that estimate (an option may be the scenario itself: fine-tuning hosted as it is hosted,
    # which the options estimate as they estimate each of theirs); its ranges sampled once for
    # the estimate and once for the budget's months; and nothing else.
    assert runs_of(itself, during_save) == 1 + runs_of(itself, options)
    assert len(scalar(during_save)) == 1 + len(scalar(options))
    sampled = len(during_save) - len(scalar(during_save))
    assert sampled == (2 if ranges else 0) + len(options) - len(scalar(options))
