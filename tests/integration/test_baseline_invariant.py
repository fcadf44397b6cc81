"""A project with scenarios always has exactly one baseline: an import naming none makes its
first scenario the baseline, deleting the baseline asks which scenario takes its place (page
and API), and a submission needs a baseline whose budget can be drawn up."""

from datetime import date

import pytest

from apps.projects.conditional import scenario_etag
from apps.projects.models import Project, Scenario
from tests.factories import SEED_000_TRAINING, make_project, make_scenario, seed_000_inference
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    project = make_project(
        owner, "Two ways", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(project, "Wider use", inputs={"inference": seed_000_inference(300_000)})
    make_scenario(project, "Pre-train", inputs={"training": SEED_000_TRAINING})
    return project


def baselines(project) -> list[str]:
    return list(project.scenarios.filter(is_baseline=True).values_list("name", flat=True))


def document(*flags: bool) -> dict:
    return {
        "format": "compute-planner-project",
        "format_version": 1,
        "project": {
            "title": "Imported",
            "scenarios": [
                {
                    "name": f"Scenario {i}",
                    "is_baseline": flag,
                    "inputs": {"training": SEED_000_TRAINING},
                }
                for i, flag in enumerate(flags)
            ],
        },
    }


# Import


def test_an_import_naming_no_baseline_makes_its_first_scenario_the_baseline(owner):
    api = client_for(owner)
    response = api.post("/api/v1/projects/import/", document(False, False), format="json")
    assert response.status_code == 201, response.content
    project = Project.objects.get(pk=response.json()["id"])
    assert baselines(project) == ["Scenario 0"]
    assert api.get(f"/api/v1/projects/{project.pk}/budget/").status_code == 200


def test_an_import_naming_two_baselines_is_refused_saying_why(owner):
    response = client_for(owner).post(
        "/api/v1/projects/import/", document(True, True), format="json"
    )
    assert response.status_code == 400
    assert response.json()["project"]["scenarios"] == ["At most one scenario can be the baseline."]
    assert not Project.objects.filter(title="Imported").exists()


def test_an_import_keeps_the_baseline_it_names(owner):
    response = client_for(owner).post(
        "/api/v1/projects/import/", document(False, True), format="json"
    )
    assert baselines(Project.objects.get(pk=response.json()["id"])) == ["Scenario 1"]


# Deleting the baseline: the API


def scenario_url(scenario) -> str:
    return f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/"


def test_deleting_the_baseline_without_naming_the_next_answers_409_saying_why(owner, project):
    pilot = project.scenarios.get(name="Pilot")
    response = client_for(owner).delete(scenario_url(pilot), HTTP_IF_MATCH=scenario_etag(pilot))
    assert response.status_code == 409
    assert response.json() == {
        "detail": "“Pilot” is the project’s baseline: choose which of its other scenarios "
        "becomes the baseline, then delete it."
    }
    assert baselines(project) == ["Pilot"] and project.scenarios.count() == 3


def test_deleting_the_baseline_naming_the_next_makes_it_the_baseline(owner, project):
    pilot, wider = project.scenarios.get(name="Pilot"), project.scenarios.get(name="Wider use")
    response = client_for(owner).delete(
        f"{scenario_url(pilot)}?new_baseline={wider.pk}", HTTP_IF_MATCH=scenario_etag(pilot)
    )
    assert response.status_code == 204
    assert baselines(project) == ["Wider use"] and project.scenarios.count() == 2


@pytest.mark.parametrize("named", ["self", "stranger", "garbage"])
def test_naming_a_scenario_not_among_the_others_is_refused(owner, project, named):
    pilot = project.scenarios.get(name="Pilot")
    elsewhere = make_scenario(make_project(owner, "Elsewhere"), "Other", is_baseline=True)
    value = {"self": pilot.pk, "stranger": elsewhere.pk, "garbage": "1e999"}[named]
    response = client_for(owner).delete(
        f"{scenario_url(pilot)}?new_baseline={value}", HTTP_IF_MATCH=scenario_etag(pilot)
    )
    # Not a whole number: the parameter itself is wrong (400); a scenario not among the others
    # leaves the deletion without a next baseline (409).
    assert response.status_code == (400 if named == "garbage" else 409)
    assert baselines(project) == ["Pilot"] and baselines(elsewhere.project) == ["Other"]


def test_deleting_another_scenario_or_the_last_one_needs_no_choice(owner, project):
    api = client_for(owner)
    for name in ("Wider use", "Pre-train", "Pilot"):
        scenario = project.scenarios.get(name=name)
        response = api.delete(scenario_url(scenario), HTTP_IF_MATCH=scenario_etag(scenario))
        assert response.status_code == 204
    assert not project.scenarios.exists()


# Deleting the baseline: the page


def test_the_page_asks_which_scenario_becomes_the_baseline_then_deletes(client, owner, project):
    client.force_login(owner)
    pilot, wider = project.scenarios.get(name="Pilot"), project.scenarios.get(name="Wider use")
    asked = client.post(f"/scenarios/{pilot.pk}/delete/")
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Which scenario becomes the baseline?" in html
    assert "Wider use" in html and "Pre-train" in html
    assert f'value="{pilot.pk}"' not in html
    assert project.scenarios.count() == 3

    unanswered = client.post(f"/scenarios/{pilot.pk}/delete/", {"new_baseline": ""})
    assert "Choose the scenario that becomes the baseline." in unanswered.content.decode()
    assert project.scenarios.count() == 3

    done = client.post(f"/scenarios/{pilot.pk}/delete/", {"new_baseline": wider.pk})
    assert done.status_code == 302
    assert baselines(project) == ["Wider use"]
    assert not Scenario.objects.filter(pk=pilot.pk).exists()


# Submission


def test_a_submission_whose_baseline_budget_cannot_be_drawn_up_is_refused_saying_why(
    owner, project
):
    pilot = project.scenarios.get(name="Pilot")
    broken = {"training": {**SEED_000_TRAINING, "accelerator": "no-such-accelerator"}}
    Scenario.objects.filter(pk=pilot.pk).update(inputs=broken)
    response = client_for(owner).post(f"/api/v1/projects/{project.pk}/submit/")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert detail.startswith(
        "“Two ways” cannot be submitted: the budget of its baseline, “Pilot”, cannot be drawn up."
    )
    assert Project.objects.get(pk=project.pk).status == "draft"
    assert not project.snapshots.exists()


def test_a_submission_without_a_baseline_is_refused_by_the_api_too(owner, project):
    Scenario.objects.filter(project=project).update(is_baseline=False)
    response = client_for(owner).post(f"/api/v1/projects/{project.pk}/submit/")
    assert response.status_code == 409
    assert "has no baseline scenario" in response.json()["detail"]
    assert Project.objects.get(pk=project.pk).status == "draft"


def test_a_submission_with_a_drawable_baseline_budget_goes_through(owner, project):
    response = client_for(owner).post(f"/api/v1/projects/{project.pk}/submit/")
    assert response.status_code == 200, response.content
    assert project.snapshots.get().total_cost is not None
