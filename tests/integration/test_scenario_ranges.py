"""Scenarios with ranges: stored in their inputs with a seed, estimated, versioned and exported."""

import json

import pytest
from rest_framework.test import APIClient

from apps.catalogue.uncertainty import MAX_SEED
from apps.projects.conditional import scenario_etag
from apps.projects.models import Project, Scenario
from apps.projects.versions import version_estimate
from tests.factories import SEED_000_TRAINING, make_project, seed_000_inference

pytestmark = pytest.mark.django_db
RANGES = {
    "training.accelerator_hours": {"low": 100, "high": 400},
    "inference.requests_per_month": {"low": 5_000, "high": 50_000},
}
INPUTS = {
    "training": SEED_000_TRAINING,
    "inference": seed_000_inference(15_000),
    "ranges": RANGES,
    "uncertainty": {"samples": 2_000},
}


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def project(owner):
    return make_project(owner, "Translation assistant")


def create(owner, project, inputs=INPUTS):
    return client_for(owner).post(
        f"/api/v1/projects/{project.pk}/scenarios/",
        {"name": "Pilot", "inputs": inputs},
        format="json",
    )


def put(owner, scenario, inputs):
    return client_for(owner).put(
        f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/",
        {"name": scenario.name, "inputs": inputs},
        format="json",
        HTTP_IF_MATCH=scenario_etag(Scenario.objects.get(pk=scenario.pk)),
    )


def test_a_scenario_stores_its_ranges_and_gets_a_seed_of_its_own(owner, project):
    response = create(owner, project)
    assert response.status_code == 201, response.content
    stored = response.json()["inputs"]
    assert stored["ranges"] == RANGES
    seed = stored["uncertainty"]["seed"]
    assert 0 <= seed <= MAX_SEED
    assert stored["uncertainty"]["samples"] == 2_000
    assert Scenario.objects.get().inputs == stored


def test_the_scenario_estimate_carries_the_uncertainty_of_its_stored_seed(owner, project):
    scenario = Scenario.objects.get(pk=create(owner, project).json()["id"])
    client = client_for(owner)
    estimate = client.get(f"/api/v1/scenarios/{scenario.pk}/estimate/").json()
    block = estimate["uncertainty"]
    assert block["seed"] == scenario.inputs["uncertainty"]["seed"]
    assert block["samples"] == 2_000
    # The same figures as the stateless estimate of the same inputs.
    direct = client.post("/api/v1/estimate/", scenario.inputs, format="json").json()
    assert direct["uncertainty"] == block
    assert "training.accelerator_hours" in block["figures"]


def test_a_save_without_a_seed_keeps_the_seed_and_a_given_seed_replaces_it(owner, project):
    scenario = Scenario.objects.get(pk=create(owner, project).json()["id"])
    seed = scenario.inputs["uncertainty"]["seed"]
    wider = {**INPUTS, "inference": seed_000_inference(30_000)}
    assert put(owner, scenario, wider).status_code == 200
    scenario.refresh_from_db()
    assert scenario.inputs["uncertainty"]["seed"] == seed
    assert put(owner, scenario, {**INPUTS, "uncertainty": {"seed": 42}}).status_code == 200
    scenario.refresh_from_db()
    assert scenario.inputs["uncertainty"] == {"seed": 42}


def test_a_scenario_without_ranges_gets_no_seed_and_no_uncertainty(owner, project):
    plain = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
    response = create(owner, project, plain)
    assert response.json()["inputs"] == plain
    estimate = client_for(owner).get(f"/api/v1/scenarios/{response.json()['id']}/estimate/")
    assert "uncertainty" not in estimate.json()


@pytest.mark.parametrize(
    ("ranges", "path", "expected"),
    [
        ({"training.mfu": {"low": 0.6, "high": 0.3}}, "training.mfu", "above the high end"),
        # The accelerator-hours method does not read tokens.
        ({"training.tokens": {"low": 1e12, "high": 2e12}}, "training.tokens", "not part of"),
    ],
)
def test_bad_ranges_are_400s_under_inputs_at_their_path(owner, project, ranges, path, expected):
    response = create(owner, project, {**INPUTS, "ranges": ranges})
    assert response.status_code == 400, response.content
    messages = response.json()["inputs"]["ranges"][path]
    assert any(expected in message for message in messages), messages
    assert not Scenario.objects.exists()


def test_versions_keep_the_ranges_the_seed_and_the_uncertainty_figures(owner, project):
    scenario = Scenario.objects.get(pk=create(owner, project).json()["id"])
    version = scenario.versions.get(number=1)
    assert version.inputs == scenario.inputs
    assert version_estimate(version).ranges.seed == scenario.inputs["uncertainty"]["seed"]


def test_a_json_export_round_trips_the_ranges_and_the_seed(owner, project):
    scenario = Scenario.objects.get(pk=create(owner, project).json()["id"])
    client = client_for(owner)
    document = json.loads(
        client.get(f"/api/v1/projects/{project.pk}/export/", {"format": "json"}).content
    )
    exported = document["project"]["scenarios"][0]
    assert exported["inputs"] == scenario.inputs
    assert exported["results"]["uncertainty"]["seed"] == scenario.inputs["uncertainty"]["seed"]
    response = client.generic(
        "POST", "/api/v1/projects/import/", json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 201, response.content
    imported = Project.objects.get(pk=response.json()["id"]).scenarios.get()
    assert imported.inputs == scenario.inputs


@pytest.mark.parametrize("export_format", ["csv", "xlsx", "pdf"])
def test_the_other_exports_of_a_scenario_with_ranges_still_download(owner, project, export_format):
    scenario = Scenario.objects.get(pk=create(owner, project).json()["id"])
    response = client_for(owner).get(
        f"/api/v1/scenarios/{scenario.pk}/export/", {"format": export_format}
    )
    assert response.status_code == 200, response.content[:500]
