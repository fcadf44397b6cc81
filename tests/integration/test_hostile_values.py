"""Hostile values at every write route, the API's and the pages' forms: huge numbers, far dates,
NaN and Infinity as strings, wrong types, very long strings, nulls. None is a server error, and
every refusal speaks to people: no Python exception text, no traceback."""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from apps.budget.models import CostLine
from apps.budget.services import cost_line_create
from apps.projects.conditional import cost_line_etag, scenario_etag
from apps.projects.models import Scenario
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_api_projects import client_for
from tests.integration.test_budget_api import LINE
from tests.integration.test_budget_models import STAFF
from tests.integration.test_cost_line_etags import line_post
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

# What Python, Django or a database say when they were not meant to be heard.
RAW = (
    "Traceback",
    "out of range",
    "InvalidOperation",
    "decimal.",
    "<class",
    "NoneType",
    "object has no attribute",
    "invalid literal",
    "could not convert",
    "OverflowError",
    "ValueError",
    "TypeError",
    "KeyError",
    "DataError",
    "IntegrityError",
    "numeric field overflow",
)
API_VALUES = [
    10**400,
    "1e999",
    "NaN",
    "-Infinity",
    "999999999999999999999999.99",
    "9999-12-31",
    True,
    {},
    None,
    "x" * 20_000,
    "\x00",
]
FORM_VALUES = ["1e999", "NaN", "9999-12-31", "x" * 20_000, "\x00"]


def assert_for_people(response, what: str) -> None:
    assert response.status_code < 500, what
    if response.status_code >= 400:
        text = response.content.decode()
        assert not [raw for raw in RAW if raw in text], (what, text[:2000])


@dataclass
class World:
    owner: AbstractUser
    scenario: Scenario
    line: CostLine


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once for the module, in a transaction rolled back at its end; each test (one route
    or one form, its values sent one after the other) runs in a savepoint inside it."""
    with django_db_blocker.unblock(), transaction.atomic():
        owner = make_manager("owner")
        project = make_project(
            owner, "Hostile", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
        )
        scenario = make_scenario(project, "Pilot", is_baseline=True)
        yield World(owner, scenario, cost_line_create(scenario=scenario, fields=STAFF))
        transaction.set_rollback(True)


SHARE = {"label": "Governance board", "expires_in_days": 7}
PROJECT = {
    "title": "Hostile",
    "unit": "",
    "period_start": "2026-01-01",
    "period_end": "2027-12-31",
    "fiscal_year_start_month": 1,
    "capitalisation_threshold": "5000.00",
    "discount_rate": 0.035,
    "contingency_capex": 0,
    "indirect_rate": 0,
}


def api_routes(scenario, line) -> list[tuple[str, str, dict, object]]:
    """(method, url, a valid body, the If-Match it needs: a function of nothing, or None)."""
    project = scenario.project

    def current_scenario_etag():
        return scenario_etag(Scenario.objects.get(pk=scenario.pk))

    def current_line_etag():
        return cost_line_etag(line.pk, Scenario.objects.get(pk=scenario.pk))

    inputs = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
    timing = {"name": "Pilot", "training_start": "2026-01-01", "service_start": "2026-06-01"}
    document = {
        "format": "compute-planner-project",
        "format_version": 1,
        "project": {
            "title": "Imported",
            "period_start": "2026-01-01",
            "period_end": "2027-12-31",
            "scenarios": [{"name": "Only", "is_baseline": True, "inputs": inputs}],
        },
    }
    options = {**inputs, "budget": {"period_start": "2026-01-01", "service_start": "2026-02-01"}}
    scenario_url = "/api/v1/projects/{project}/scenarios/{scenario}/"
    line_url = "/api/v1/scenarios/{scenario}/cost-lines/{line}/"
    routes = [
        ("post", "/api/v1/projects/", PROJECT, None),
        ("patch", "/api/v1/projects/{project}/", PROJECT, None),
        # The inputs' fields are the estimate's (POST /api/v1/estimate/ below): not again here.
        ("post", "/api/v1/projects/{project}/scenarios/", {**timing, "inputs": inputs}, None),
        ("patch", scenario_url, timing, current_scenario_etag),
        ("post", "/api/v1/scenarios/{scenario}/cost-lines/", LINE, None),
        ("patch", line_url, LINE, current_line_etag),
        ("put", line_url, LINE, current_line_etag),
        ("post", "/api/v1/projects/import/", document, None),
        ("post", "/api/v1/options/", options, None),
        ("post", "/api/v1/estimate/", inputs, None),
        ("post", "/api/v1/scenarios/{scenario}/share-links/", SHARE, None),
        ("post", "/api/v1/projects/{project}/share-links/", SHARE, None),
        ("post", "/api/v1/projects/{project}/comments/", {"body": "Looks right."}, None),
    ]
    ids = {"project": project.pk, "scenario": scenario.pk, "line": line.pk}
    return [(method, url.format(**ids), body, etag) for method, url, body, etag in routes]


# One test per page form, which pytest-xdist's workers share out; their names here.
FORMS = [
    "/projects/new/",
    "/projects/{project}/edit/",
    "/scenarios/{scenario}/",
    "/scenarios/{scenario}/cost-lines/new/",
    "/scenarios/{scenario}/cost-lines/{line}/edit/",
]


def with_value(body: dict, path: tuple[str, ...], value) -> dict:
    """A copy of `body` whose field at `path` (nested keys; list items by index) is `value`."""
    body = json.loads(json.dumps(body))
    place = body
    for key in path[:-1]:
        place = place[int(key) if isinstance(place, list) else key]
    place[path[-1]] = value
    return body


def paths(body: dict, prefix: tuple = (), url: str = "") -> list[tuple]:
    """Every leaf field of `body`, by its path (a scenario's inputs: as a whole)."""
    found = []
    for key, value in body.items():
        if key == "inputs" and "/scenarios/" in url:
            found.append((*prefix, key))
            continue
        if isinstance(value, dict) and value:
            found.extend(paths(value, (*prefix, key)))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            found.extend(paths(value[0], (*prefix, key, "0")))
        else:
            found.append((*prefix, key))
    return found


def test_every_form_has_its_test(world):
    assert list(page_forms(world.scenario, world.line)) == FORMS
    fields = sum(len(hostile) for _, hostile in page_forms(world.scenario, world.line).values())
    assert fields * len(FORM_VALUES) > 200


def test_hostile_values_at_every_api_write_route_answer_4xx_for_people(world):
    api = client_for(world.owner)
    sent = 0
    for method, url, body, etag in api_routes(world.scenario, world.line):
        for path in paths(body, url=url):
            for value in API_VALUES:
                headers = {"HTTP_IF_MATCH": etag()} if etag else {}
                response = getattr(api, method)(
                    url, with_value(body, path, value), format="json", **headers
                )
                assert_for_people(
                    response, f"{method.upper()} {url} {'.'.join(path)}={value!r:.40}"
                )
                sent += 1
    assert sent > 600


def test_far_dates_and_huge_amounts_are_refused_at_every_api_route_that_takes_them(world):
    api = client_for(world.owner)
    dated = {"period_start", "period_end", "training_start", "service_start", "start", "end"}
    amounts = {"unit_price", "quantity", "capitalisation_threshold"}
    for method, url, body, etag in api_routes(world.scenario, world.line):
        for path in paths(body, url=url):
            values = (
                ["9999-12-31", "1989-12-31"]
                if path[-1] in dated
                else ["999999999999.9999", "1e999", "NaN"]
                if path[-1] in amounts
                else []
            )
            for value in values:
                headers = {"HTTP_IF_MATCH": etag()} if etag else {}
                response = getattr(api, method)(
                    url, with_value(body, path, value), format="json", **headers
                )
                assert response.status_code == 400, (url, path, value, response.content[:300])


def page_forms(scenario, line) -> dict[str, tuple[dict, dict]]:
    """Each form by its page (named as in FORMS): (a valid form, the fields given hostile
    values)."""
    project_form = {
        "title": "Hostile",
        "unit": "",
        "description": "",
        "currency": "USD",
        "classification": "public",
        "collaborators": "",
        "period_start": "2026-01-01",
        "period_end": "2027-12-31",
        "fiscal_year_start_month": "1",
        "fiscal_year_label": "end_year",
        "capitalisation_threshold": "5,000",
        "discount_rate": "3.5",
        "contingency_capex": "0",
        "contingency_opex": "0",
        "indirect_rate": "0",
    }
    line_form = line_post()
    # The scenario form's estimate fields are one parser's (apps.words.numbers): a
    # few of them stand for the rest, with every field the budget and the save read.
    scenario_form = {
        name: value
        for name, value in scenario_post().items()
        if name
        in {
            "name",
            "training_accelerator_hours",
            "training_mfu",
            "inference_requests_per_month",
            "inference_monthly_growth",
            "inference_months",
            "energy_profile",
        }
    }
    scenario_fields = {**scenario_post(), "training_start": "2026-01-01", "service_start": ""}
    return {
        "/projects/new/": ({**project_form, "preset": "fine-tune-7b"}, project_form),
        "/projects/{project}/edit/": (project_form, project_form),
        "/scenarios/{scenario}/": (
            scenario_fields,
            {**scenario_form, "training_start": "", "service_start": "", "version": ""},
        ),
        "/scenarios/{scenario}/cost-lines/new/": (line_form, line_form),
        "/scenarios/{scenario}/cost-lines/{line}/edit/": (line_form, {**line_form, "version": ""}),
    }


@pytest.mark.parametrize("page", FORMS)
def test_hostile_values_at_every_page_form_answer_for_people(client, world, page):
    scenario = world.scenario
    client.force_login(world.owner)
    url = page.format(project=scenario.project_id, scenario=scenario.pk, line=world.line.pk)
    form, hostile_fields = page_forms(scenario, world.line)[page]
    sent = 0
    for field in hostile_fields:
        for value in FORM_VALUES:
            data = {**form, "version": Scenario.objects.get(pk=scenario.pk).version}
            data[field] = value
            response = client.post(url, data)
            assert_for_people(response, f"POST {url} {field}={value!r:.40}")
            sent += 1
    assert sent >= len(FORM_VALUES)
