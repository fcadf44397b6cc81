"""The budget API answers from the cache while nothing it is drawn from changes, and anew when
a cost line, a project budget setting or the scenario's inputs change."""

from decimal import Decimal

import pytest

from apps.budget import api as budget_api
from apps.budget.services import cost_line_create
from tests.integration import test_budget_api as base
from tests.integration.test_budget_models import STAFF

pytestmark = pytest.mark.django_db

# The budget API tests' fixtures: their scenario with a planning period and the owner's client
# (the owner is tests/integration/conftest.py's).
scenario, api, budget_url = base.scenario, base.api, base.budget_url


@pytest.fixture
def calls(monkeypatch):
    counted = []
    real = budget_api.scenario_budget

    def counting(*args, **kwargs):
        counted.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(budget_api, "scenario_budget", counting)
    return counted


def test_a_repeated_request_is_a_cache_hit_that_skips_the_computation(api, scenario, calls):
    first = api.get(budget_url(scenario)).json()
    second = api.get(budget_url(scenario)).json()
    assert first == second
    assert len(calls) == 1


def test_a_new_cost_line_changes_the_answer(api, scenario, calls):
    before = api.get(budget_url(scenario)).json()
    cost_line_create(scenario=scenario, fields=dict(STAFF))
    after = api.get(budget_url(scenario)).json()
    assert len(calls) == 2
    assert len(after["lines"]) == len(before["lines"]) + 1


def test_a_project_budget_setting_changes_the_answer(api, scenario, calls):
    before = api.get(budget_url(scenario)).json()
    project = scenario.project
    project.contingency_opex = Decimal("0.10")
    project.save()
    after = api.get(budget_url(scenario)).json()
    assert len(calls) == 2
    assert after["totals"]["contingency"] != before["totals"]["contingency"]


def test_changed_scenario_inputs_change_the_answer(api, scenario, calls):
    before = api.get(budget_url(scenario)).json()
    scenario.inputs["inference"]["requests_per_month"] *= 2
    scenario.save()
    after = api.get(budget_url(scenario)).json()
    assert len(calls) == 2
    assert after["totals"]["total"] != before["totals"]["total"]


def test_a_cost_line_changed_outside_the_services_changes_the_answer(api, scenario, calls):
    """The admin or a shell saves a line without a new version: the line's signal still marks
    the scenario changed, so the cached answer is not served."""
    line = cost_line_create(scenario=scenario, fields=dict(STAFF))
    before = api.get(budget_url(scenario)).json()
    line.quantity = line.quantity * 2
    line.save()
    after = api.get(budget_url(scenario)).json()
    assert len(calls) == 2
    assert after["summary"]["total"] != before["summary"]["total"]


def test_a_cached_budget_is_still_a_404_for_someone_else(api, scenario):
    from django.test import Client

    from tests.factories import make_manager

    assert api.get(budget_url(scenario)).status_code == 200
    other = Client()
    other.force_login(make_manager("someone-else"))
    assert other.get(budget_url(scenario)).status_code == 404


def _ranged_inputs(scenario, **settings) -> dict:
    return {
        **scenario.inputs,
        "ranges": {"inference.requests_per_month": {"low": 5_000, "high": 50_000}},
        "uncertainty": {"samples": 2_000, **settings},
    }


def test_changed_ranges_or_seed_change_the_answer(api, scenario, calls):
    scenario.inputs = _ranged_inputs(scenario, seed=1)
    scenario.save()
    first = api.get(budget_url(scenario)).json()["uncertainty"]
    scenario.inputs["ranges"]["inference.requests_per_month"]["high"] = 90_000
    scenario.save()
    wider = api.get(budget_url(scenario)).json()["uncertainty"]
    scenario.inputs["uncertainty"]["seed"] = 2
    scenario.save()
    reseeded = api.get(budget_url(scenario)).json()["uncertainty"]
    assert len(calls) == 3
    assert wider["figures"]["summary.total"]["p95"] > first["figures"]["summary.total"]["p95"]
    assert (reseeded["seed"], wider["seed"]) == (2, 1)
    assert reseeded["figures"] != wider["figures"]


def test_the_cache_key_follows_the_ranges_and_the_seed_even_at_the_same_version(scenario):
    """The drawn-up budget's own key (what `budget_payload` caches) reads the inputs, ranges
    and seed included, not just the version and save times."""
    from apps.budget.selectors import budget_cache_key, cost_lines_of
    from apps.catalogue.snapshot import Catalogue

    catalogue, lines = Catalogue.load(), cost_lines_of(scenario)
    keys = set()
    for seed, high in ((1, 50_000), (2, 50_000), (1, 90_000)):
        scenario.inputs = _ranged_inputs(scenario, seed=seed)
        scenario.inputs["ranges"]["inference.requests_per_month"]["high"] = high
        keys.add(budget_cache_key(scenario, lines, catalogue))
    assert len(keys) == 3


@pytest.mark.parametrize(("who", "queries"), [("owner", 1), ("collaborator", 2)])
def test_a_cache_hit_costs_one_query_and_one_more_for_a_collaborator(scenario, who, queries):
    """The stamp's query, and the collaborator's membership (apps.projects.selectors
    .is_member_of, the pages' rule); nothing else, ranges or not."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import make_manager
    from tests.integration.test_api_projects import client_for

    scenario.inputs = _ranged_inputs(scenario, seed=3)
    scenario.save()
    user = scenario.project.owner
    if who == "collaborator":
        user = make_manager("collaborator")
        scenario.project.collaborators.add(user)
    client = client_for(user)
    assert "uncertainty" in client.get(budget_url(scenario)).json()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(budget_url(scenario)).status_code == 200
    assert len(captured) == queries, [query["sql"] for query in captured]
