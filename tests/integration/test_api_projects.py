"""/api/v1/projects/ and their scenarios: CRUD, the pages' permissions, inputs and estimates."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from apps.accounts.services import api_token_create, api_token_revoke
from apps.projects.conditional import scenario_etag
from apps.projects.models import Classification, Project, Scenario
from apps.projects.presets import DEFAULT_PRESET, PRESETS_BY_SLUG
from apps.projects.roles import FRONT_OFFICE
from tests.factories import (
    SEED_000_TRAINING,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db
PROJECTS = "/api/v1/projects/"
SEED_000 = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}


def project_url(project) -> str:
    return f"{PROJECTS}{project.pk}/"


def scenarios_url(project) -> str:
    return f"{project_url(project)}scenarios/"


def scenario_url(scenario) -> str:
    return f"{scenarios_url(scenario.project)}{scenario.pk}/"


def estimate_url(scenario) -> str:
    return f"/api/v1/scenarios/{scenario.pk}/estimate/"


def if_match(scenario) -> dict:
    """The If-Match header of a client that has just read the scenario."""
    return {"HTTP_IF_MATCH": scenario_etag(Scenario.objects.get(pk=scenario.pk))}


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def colleague():
    return get_user_model().objects.create_user("colleague")


@pytest.fixture
def project(owner, colleague):
    project = make_project(owner, "Translation assistant")
    project.collaborators.add(colleague)
    return project


@pytest.fixture
def scenario(project):
    return make_scenario(project, "Pilot", inputs=SEED_000, is_baseline=True)


# Projects: create, read, update, delete.


def test_manager_creates_a_project_whose_baseline_starts_from_the_first_preset(owner, colleague):
    body = {
        "title": "Translation assistant",
        "unit": "Language services",
        "classification": "internal",
        "collaborators": ["colleague"],
        "period_start": "2026-01-01",
        "period_end": "2026-12-31",
    }
    response = client_for(owner).post(PROJECTS, body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    project = Project.objects.get(pk=data["id"])
    assert data["owner"] == "owner"
    assert data["collaborators"] == ["colleague"]
    assert data["status"] == "draft"
    assert data["currency"] == "USD"
    assert data["hosting_warning"] is None
    assert data["scenarios_url"] == f"http://testserver{scenarios_url(project)}"
    assert "preset" not in data
    baseline = project.scenarios.get()
    assert baseline.is_baseline
    assert baseline.name == DEFAULT_PRESET.name
    assert baseline.inputs == DEFAULT_PRESET.inputs


def test_a_preset_slug_chooses_what_the_first_scenario_starts_from(owner):
    response = client_for(owner).post(
        PROJECTS, {"title": "Chat", "preset": "chat-service-rented"}, format="json"
    )
    assert response.status_code == 201, response.content
    baseline = Project.objects.get(pk=response.json()["id"]).scenarios.get()
    assert baseline.inputs == PRESETS_BY_SLUG["chat-service-rented"].inputs


def test_owner_reads_replaces_patches_and_deletes_a_project(owner, project, scenario):
    client = client_for(owner)
    data = client.get(project_url(project)).json()
    assert data["title"] == "Translation assistant"
    assert data["collaborators"] == ["colleague"]

    replaced = {
        **data,
        "title": "Translator",
        "classification": "confidential",
        "collaborators": [],
    }
    response = client.put(project_url(project), replaced, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["title"] == "Translator"
    assert response.json()["collaborators"] == []

    response = client.patch(project_url(project), {"description": "For the UN"}, format="json")
    assert response.status_code == 200, response.content
    project.refresh_from_db()
    assert (project.title, project.description) == ("Translator", "For the UN")
    assert project.classification == Classification.CONFIDENTIAL

    assert client.delete(project_url(project)).status_code == 204
    assert client.get(project_url(project)).status_code == 404
    assert not Scenario.objects.filter(pk=scenario.pk).exists()


def test_patching_other_fields_keeps_the_collaborators(owner, colleague, project):
    response = client_for(owner).patch(project_url(project), {"title": "New"}, format="json")
    assert response.status_code == 200, response.content
    assert list(project.collaborators.all()) == [colleague]


def test_the_owner_is_not_listed_among_the_collaborators(owner, colleague, project):
    body = {"collaborators": ["owner", "colleague"]}
    response = client_for(owner).patch(project_url(project), body, format="json")
    assert response.json()["collaborators"] == ["colleague"]


@pytest.mark.parametrize("method", ["post", "patch"])
def test_a_collaborator_name_with_a_nul_character_is_no_user(owner, colleague, project, method):
    """Found by the API fuzz test: PostgreSQL refuses a NUL in a lookup, which answered 500."""
    url = PROJECTS if method == "post" else project_url(project)
    body = {"title": "Plan", "collaborators": ["colleague", "coll\x00eague"]}
    response = getattr(client_for(owner), method)(url, body, format="json")
    assert response.status_code == 400
    assert response.json() == {"collaborators": ["No active user named coll\x00eague."]}
    assert list(project.collaborators.all()) == [colleague]


def test_status_and_owner_are_read_only(owner, stranger, project):
    body = {"status": "approved", "owner": "stranger"}
    response = client_for(owner).patch(project_url(project), body, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["owner"]) == ("draft", "owner")


def test_a_rented_scenario_on_a_confidential_project_carries_a_hosting_warning(owner, project):
    make_scenario(project, inputs=SEED_000)
    project.classification = Classification.CONFIDENTIAL
    project.save()
    data = client_for(owner).get(project_url(project)).json()
    assert "not approved for confidential data" in data["hosting_warning"]


BAD_PROJECTS = [
    ({"title": ""}, "title"),
    ({"currency": "EUR"}, "currency"),
    ({"classification": "secret"}, "classification"),
    ({"collaborators": ["nobody"]}, "collaborators"),
    ({"collaborators": ["retired"]}, "collaborators"),
    ({"preset": "moon-landing"}, "preset"),
    ({"period_start": "2026-12-31", "period_end": "2026-01-01"}, "period_end"),
]


@pytest.mark.parametrize(("body", "key"), BAD_PROJECTS, ids=[k for _, k in BAD_PROJECTS])
def test_invalid_project_fields_get_a_400_at_the_field_and_nothing_is_created(owner, body, key):
    get_user_model().objects.create_user("retired", is_active=False)
    response = client_for(owner).post(PROJECTS, {"title": "A project", **body}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()[key]
    assert not Project.objects.exists()


# Scenarios: create, read, update, delete.


def test_owner_creates_reads_updates_and_deletes_a_scenario(owner, project):
    client = client_for(owner)
    response = client.post(
        scenarios_url(project), {"name": "Pilot", "inputs": SEED_000}, format="json"
    )
    assert response.status_code == 201, response.content
    created = response.json()
    scenario = Scenario.objects.get(pk=created["id"])
    assert created["project"] == project.pk
    assert created["is_baseline"] is False
    assert created["estimate_url"] == f"http://testserver{estimate_url(scenario)}"

    assert client.get(scenario_url(scenario)).json() == created
    assert [s["id"] for s in client.get(scenarios_url(project)).json()] == [scenario.pk]

    wider = {"name": "Wider use", "inputs": {"inference": seed_000_inference(300_000)}}
    response = client.put(scenario_url(scenario), wider, format="json", **if_match(scenario))
    assert response.status_code == 200, response.content
    response = client.patch(
        scenario_url(scenario), {"name": "Wider"}, format="json", **if_match(scenario)
    )
    assert response.status_code == 200, response.content
    scenario.refresh_from_db()
    assert scenario.name == "Wider"
    assert scenario.inputs == wider["inputs"]

    assert client.delete(scenario_url(scenario), **if_match(scenario)).status_code == 204
    assert not Scenario.objects.filter(pk=scenario.pk).exists()


def test_scenario_inputs_read_back_exactly_as_they_were_put(owner, scenario):
    inputs = {
        "training": {
            "method": "parameters_tokens", "parameters": 7e9, "tokens": 2e9,
            "accelerator": "nvidia-a100-sxm-80gb", "accelerator_count": 8, "mfu": 0.35,
        },
        "inference": {
            "method": "tokens", "parameters": 7e9, "input_tokens": 500, "output_tokens": 250,
            "accelerator": "nvidia-l4", "requests_per_month": 100_000, "months": 24,
            "pricing_mode": "own", "purchase_price": 2500.5,
        },
        "energy_profile": "us-grid-hyperscale-pue",
    }  # fmt: skip
    client = client_for(owner)
    put = client.put(
        scenario_url(scenario),
        {"name": "Pilot", "inputs": inputs},
        format="json",
        **if_match(scenario),
    )
    assert put.status_code == 200, put.content
    assert put.json()["inputs"] == inputs
    assert client.get(scenario_url(scenario)).json()["inputs"] == inputs


def test_making_a_scenario_the_baseline_unsets_the_previous_one(owner, project, scenario):
    other = make_scenario(project, "Wider use")
    response = client_for(owner).patch(
        scenario_url(other), {"is_baseline": True}, format="json", **if_match(other)
    )
    assert response.status_code == 200, response.content
    assert response.json()["is_baseline"] is True
    assert list(project.scenarios.filter(is_baseline=True)) == [other]


def test_the_baseline_cannot_be_unset_without_naming_another(owner, scenario):
    response = client_for(owner).patch(
        scenario_url(scenario), {"is_baseline": False}, format="json", **if_match(scenario)
    )
    assert response.status_code == 400
    assert response.json()["is_baseline"]
    scenario.refresh_from_db()
    assert scenario.is_baseline


BAD_INPUTS = [
    ({"training": {**SEED_000_TRAINING, "mfu": 1.5}}, ("training", "mfu")),
    ({"training": {**SEED_000_TRAINING, "accelerator_hours": "200"}}, ("training", "accelerator_hours")),
    ({"training": {**SEED_000_TRAINING, "accelerator": "nvidia-h9000"}}, ("training", "accelerator")),
    ({"training": {**SEED_000_TRAINING, "mfu ": 0.4}}, ("training", "mfu ")),
    ({"inference": seed_000_inference(15_000, months=241)}, ("inference", "months")),
    ({"inference": seed_000_inference(15_000), "energy_profile": "the-moon"}, ("energy_profile",)),
    ({"inference": {**seed_000_inference(15_000), "pricing_mode": "own", "accelerator": "google-tpu-v5e"}}, ("inference", "purchase_price")),
    ({}, ("non_field_errors",)),
    ("lots", ("non_field_errors",)),
]  # fmt: skip
BAD_INPUT_IDS = [".".join(path) for _, path in BAD_INPUTS]


def assert_messages_at(body: dict, path: tuple[str, ...]) -> None:
    node = body["inputs"]
    for key in path:
        assert key in node, (path, body)
        node = node[key]
    assert isinstance(node, list) and node and all(isinstance(m, str) and m for m in node)


@pytest.mark.parametrize(("inputs", "path"), BAD_INPUTS, ids=BAD_INPUT_IDS)
def test_invalid_inputs_get_a_400_under_inputs_and_no_scenario_is_created(
    owner, project, inputs, path
):
    response = client_for(owner).post(
        scenarios_url(project), {"name": "Bad", "inputs": inputs}, format="json"
    )
    assert response.status_code == 400, response.content
    assert_messages_at(response.json(), path)
    assert not project.scenarios.exists()


@pytest.mark.parametrize(("inputs", "path"), BAD_INPUTS, ids=BAD_INPUT_IDS)
def test_invalid_inputs_get_a_400_under_inputs_and_the_scenario_is_unchanged(
    owner, scenario, inputs, path
):
    response = client_for(owner).patch(
        scenario_url(scenario), {"inputs": inputs}, format="json", **if_match(scenario)
    )
    assert response.status_code == 400, response.content
    assert_messages_at(response.json(), path)
    scenario.refresh_from_db()
    assert scenario.inputs == SEED_000


# Estimates.


def test_scenario_estimate_equals_the_estimate_endpoint_for_the_same_inputs(owner, project):
    inputs = {
        "training": {"method": "total_flop", "total_flop": 3e23, "accelerator": "nvidia-h100-sxm"},
        "inference": {**seed_000_inference(40_000), "monthly_growth": 0.05, "months": 18},
        "energy_profile": "us-grid-hyperscale-pue",
    }
    scenario = make_scenario(project, inputs=inputs)
    from_scenario = client_for(owner).get(estimate_url(scenario))
    stateless = APIClient().post("/api/v1/estimate/", inputs, format="json")
    assert from_scenario.status_code == stateless.status_code == 200, from_scenario.content
    assert from_scenario.json() == stateless.json()


def test_seed_000_scenario_estimate_gives_8_33_accelerator_hours_a_month(owner):
    client = client_for(owner)
    project = client.post(PROJECTS, {"title": "Translation assistant"}, format="json").json()
    baseline = Scenario.objects.get(project_id=project["id"], is_baseline=True)
    response = client.get(estimate_url(baseline))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["training"]["accelerator_hours"] == pytest.approx(200)
    assert body["inference"]["monthly"][0]["accelerator_hours"] == pytest.approx(8.3333, rel=1e-4)


# Permissions: the pages' rules, with 404 for anyone who may not see the project.


def test_collaborator_reads_the_project_and_creates_changes_and_deletes_scenarios(
    colleague, project, scenario
):
    client = client_for(colleague)
    assert client.get(project_url(project)).status_code == 200
    assert client.get(estimate_url(scenario)).status_code == 200
    created = client.post(
        scenarios_url(project), {"name": "Mine", "inputs": SEED_000}, format="json"
    )
    assert created.status_code == 201, created.content
    patched = client.patch(
        scenario_url(scenario), {"name": "Renamed"}, format="json", **if_match(scenario)
    )
    assert patched.status_code == 200, patched.content
    mine = Scenario.objects.get(pk=created.json()["id"])
    assert client.delete(scenario_url(mine), **if_match(mine)).status_code == 204


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_collaborator_gets_403_changing_project_details(colleague, project, method):
    response = getattr(client_for(colleague), method)(
        project_url(project), {"title": "Mine now"}, format="json"
    )
    assert response.status_code == 403
    project.refresh_from_db()
    assert project.title == "Translation assistant"


def route_url(route: str, scenario) -> str:
    return {
        "projects": PROJECTS,
        "project": project_url(scenario.project),
        "scenarios": scenarios_url(scenario.project),
        "scenario": scenario_url(scenario),
        "estimate": estimate_url(scenario),
    }[route]


STRANGER_ROUTES = [
    ("get", "project"), ("put", "project"), ("patch", "project"), ("delete", "project"),
    ("get", "scenarios"), ("post", "scenarios"), ("get", "scenario"), ("put", "scenario"),
    ("patch", "scenario"), ("delete", "scenario"), ("get", "estimate"),
]  # fmt: skip


@pytest.mark.parametrize(("method", "route"), STRANGER_ROUTES, ids=map(" ".join, STRANGER_ROUTES))
def test_another_manager_gets_404_for_someone_elses_project_and_scenario(
    stranger, scenario, method, route
):
    # An empty body would be a 400 if it were read: the 404 comes first.
    response = getattr(client_for(stranger), method)(route_url(route, scenario), {}, format="json")
    assert response.status_code == 404
    assert Project.objects.filter(title="Translation assistant").exists()
    assert Scenario.objects.get(pk=scenario.pk).inputs == SEED_000


def test_another_manager_does_not_see_someone_elses_project_in_the_list(stranger, project):
    mine = make_project(stranger, "Mine")
    assert [p["id"] for p in client_for(stranger).get(PROJECTS).json()] == [mine.pk]


def test_a_scenario_is_404_under_another_projects_url(owner, scenario):
    other = make_project(owner, "Other")
    response = client_for(owner).get(f"{scenarios_url(other)}{scenario.pk}/")
    assert response.status_code == 404


def test_list_shows_own_and_shared_projects(owner, colleague, stranger, project):
    shared_with_owner = make_project(stranger, "Shared")
    shared_with_owner.collaborators.add(owner)
    make_project(stranger, "Private")
    ids = {p["id"] for p in client_for(owner).get(PROJECTS).json()}
    assert ids == {project.pk, shared_with_owner.pk}


def test_front_office_user_gets_403_creating_a_project():
    user = get_user_model().objects.create_user("reviewer")
    user.groups.add(Group.objects.get_or_create(name=FRONT_OFFICE)[0])
    response = client_for(user).post(PROJECTS, {"title": "A project"}, format="json")
    assert response.status_code == 403
    assert not Project.objects.exists()


def test_superusers_may_create_projects_without_the_manager_role():
    user = get_user_model().objects.create_user("admin", is_staff=True, is_superuser=True)
    response = client_for(user).post(PROJECTS, {"title": "A project"}, format="json")
    assert response.status_code == 201, response.content


def test_staff_such_as_catalogue_editors_get_403_creating_a_project():
    """The admin lets in staff only, so catalogue editors are staff: that plans no project."""
    user = get_user_model().objects.create_user("editor", is_staff=True)
    response = client_for(user).post(PROJECTS, {"title": "A project"}, format="json")
    assert response.status_code == 403
    assert not Project.objects.exists()


ANONYMOUS_ROUTES = [("get", "projects"), ("post", "projects"), *STRANGER_ROUTES]


@pytest.mark.parametrize(("method", "route"), ANONYMOUS_ROUTES, ids=map(" ".join, ANONYMOUS_ROUTES))
def test_anonymous_callers_get_a_401_with_a_bearer_challenge(scenario, method, route):
    response = getattr(APIClient(), method)(route_url(route, scenario), {}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert Scenario.objects.get(pk=scenario.pk).inputs == SEED_000


def test_an_api_token_authenticates_project_requests(owner, project):
    token, key = api_token_create(user=owner, name="Planning script")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert [p["id"] for p in client.get(PROJECTS).json()] == [project.pk]
    response = client.post(PROJECTS, {"title": "By script"}, format="json")
    assert response.status_code == 201, response.content

    api_token_revoke(token=token, user=owner)
    assert client.get(PROJECTS).status_code == 401


# Query counts: lists do not grow a query per row.


def queries_to_get(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(queries.captured_queries)


def test_listing_5_projects_takes_as_many_queries_as_listing_1(owner, colleague, stranger):
    client = client_for(owner)

    def add_project(n: int) -> None:
        project = make_project(owner, f"Project {n}")
        project.collaborators.add(colleague, stranger)
        make_scenario(project, "Pilot", is_baseline=True)
        make_scenario(project, "Wider use")

    add_project(0)
    one = queries_to_get(client, PROJECTS)
    for n in range(1, 5):
        add_project(n)
    assert len(client.get(PROJECTS).json()) == 5
    assert queries_to_get(client, PROJECTS) == one


def test_listing_5_scenarios_takes_as_many_queries_as_listing_1(owner, project):
    client = client_for(owner)
    make_scenario(project, "Scenario 0")
    one = queries_to_get(client, scenarios_url(project))
    for n in range(1, 5):
        make_scenario(project, f"Scenario {n}")
    assert len(client.get(scenarios_url(project)).json()) == 5
    assert queries_to_get(client, scenarios_url(project)) == one
