"""ETags and If-Match in the API: a scenario write without If-Match gets 428, with a stale one
412, with the current one it applies; a project's If-Match is checked when sent."""

import pytest
from rest_framework.test import APIClient

from apps.projects.models import Project, Scenario
from tests.factories import make_manager, make_project, make_scenario, seed_000_inference

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Translation assistant"), "Pilot")


def url(scenario) -> str:
    return f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/"


def project_url(project) -> str:
    return f"/api/v1/projects/{project.pk}/"


WRITES = [
    ("put", {"name": "Wider use", "inputs": {"inference": seed_000_inference(300_000)}}),
    ("patch", {"name": "Wider use"}),
    ("delete", None),
]
WRITE_IDS = [method for method, _ in WRITES]


def write(client, method, scenario, body, **headers):
    return getattr(client, method)(url(scenario), body, format="json", **headers)


def unchanged(scenario) -> bool:
    current = Scenario.objects.filter(pk=scenario.pk).first()
    return current is not None and (current.name, current.version) == ("Pilot", 1)


def test_reading_a_scenario_gives_an_etag_naming_its_version(client, scenario):
    response = client.get(url(scenario))
    assert response.status_code == 200
    assert response["ETag"] == f'"scenario-{scenario.pk}-v1"'
    assert response.json()["version"] == 1


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_write_without_if_match_gets_428_and_changes_nothing(client, scenario, method, body):
    response = write(client, method, scenario, body)
    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]
    assert unchanged(scenario)


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_write_with_if_match_star_gets_428_it_does_not_name_a_version(
    client, scenario, method, body
):
    assert write(client, method, scenario, body, HTTP_IF_MATCH="*").status_code == 428
    assert unchanged(scenario)


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_write_with_a_stale_if_match_gets_412_and_changes_nothing(
    client, owner, scenario, method, body
):
    stale = client.get(url(scenario))["ETag"]
    # Someone saves the scenario after this client read it.
    client.patch(
        url(scenario),
        {"inputs": {"inference": seed_000_inference(1)}},
        format="json",
        HTTP_IF_MATCH=stale,
    )
    response = write(client, method, scenario, body, HTTP_IF_MATCH=stale)
    assert response.status_code == 412
    assert f'"scenario-{scenario.pk}-v2"' in response.json()["detail"]
    current = Scenario.objects.get(pk=scenario.pk)
    assert (current.name, current.version) == ("Pilot", 2)


@pytest.mark.parametrize(
    ("method", "body", "status"),
    [(*WRITES[0], 200), (*WRITES[1], 200), (*WRITES[2], 204)],
    ids=WRITE_IDS,
)
def test_a_write_with_the_current_etag_applies(client, scenario, method, body, status):
    etag = client.get(url(scenario))["ETag"]
    response = write(client, method, scenario, body, HTTP_IF_MATCH=etag)
    assert response.status_code == status, response.content
    if method == "delete":
        assert not Scenario.objects.filter(pk=scenario.pk).exists()
    else:
        assert Scenario.objects.get(pk=scenario.pk).name == "Wider use"


def test_the_etag_changes_after_each_save_and_the_response_carries_the_new_one(client, scenario):
    etags = [client.get(url(scenario))["ETag"]]
    for n in range(3):
        response = client.patch(
            url(scenario), {"name": f"Save {n}"}, format="json", HTTP_IF_MATCH=etags[-1]
        )
        assert response.status_code == 200, response.content
        assert response["ETag"] == client.get(url(scenario))["ETag"]
        etags.append(response["ETag"])
    assert etags == [f'"scenario-{scenario.pk}-v{n}"' for n in (1, 2, 3, 4)]


def test_if_match_may_list_several_etags_one_of_them_current(client, scenario):
    header = f'"scenario-{scenario.pk}-v7", "scenario-{scenario.pk}-v1"'
    response = client.patch(url(scenario), {"name": "Listed"}, format="json", HTTP_IF_MATCH=header)
    assert response.status_code == 200, response.content


def test_a_weak_etag_never_matches(client, scenario):
    weak = f'W/"scenario-{scenario.pk}-v1"'
    response = client.patch(url(scenario), {"name": "Weak"}, format="json", HTTP_IF_MATCH=weak)
    assert response.status_code == 412


def test_a_created_scenario_comes_with_its_etag(client, scenario):
    body = {"name": "New", "inputs": {"inference": seed_000_inference(10)}}
    response = client.post(
        f"/api/v1/projects/{scenario.project_id}/scenarios/", body, format="json"
    )
    assert response.status_code == 201, response.content
    assert response["ETag"] == f'"scenario-{response.json()["id"]}-v1"'


def test_another_manager_gets_404_not_412_whatever_if_match_says(scenario):
    stranger = APIClient()
    stranger.force_authenticate(make_manager("stranger"))
    response = stranger.patch(url(scenario), {"name": "Mine"}, format="json", HTTP_IF_MATCH="*")
    assert response.status_code == 404
    assert unchanged(scenario)


# Projects: only the owner changes a project's details, so If-Match is checked when sent.


def test_a_project_read_gives_an_etag_that_changes_when_it_changes(client, scenario):
    project = scenario.project
    etag = client.get(project_url(project))["ETag"]
    assert etag.startswith(f'"project-{project.pk}-')
    response = client.patch(
        project_url(project), {"title": "New"}, format="json", HTTP_IF_MATCH=etag
    )
    assert response.status_code == 200, response.content
    assert response["ETag"] != etag
    assert response["ETag"] == client.get(project_url(project))["ETag"]


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_project_write_with_a_stale_if_match_gets_412(client, scenario, method):
    project = scenario.project
    stale = client.get(project_url(project))["ETag"]
    # A collaborator's scenario save changes the project (its hosting warning can change).
    client.patch(
        url(scenario),
        {"name": "Renamed"},
        format="json",
        HTTP_IF_MATCH=f'"scenario-{scenario.pk}-v1"',
    )
    body = (
        {"title": "Stale"}
        if method != "put"
        else {**client.get(project_url(project)).json(), "title": "Stale"}
    )
    response = getattr(client, method)(
        project_url(project), body, format="json", HTTP_IF_MATCH=stale
    )
    assert response.status_code == 412
    assert Project.objects.get(pk=project.pk).title == "Translation assistant"


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_a_project_write_without_if_match_still_applies(client, scenario, method):
    project = scenario.project
    response = getattr(client, method)(project_url(project), {"title": "No header"}, format="json")
    assert response.status_code in {200, 204}, response.content


def test_the_schema_documents_if_match_and_the_answers_to_it(api_client):
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    scenario_path = schema["paths"]["/api/v1/projects/{project_id}/scenarios/{id}/"]
    for method in ("put", "patch", "delete"):
        operation = scenario_path[method]
        [if_match] = [p for p in operation["parameters"] if p["name"] == "If-Match"]
        assert if_match["in"] == "header" and if_match["required"] is True
        assert {"409", "412", "428"} <= operation["responses"].keys()
    assert "ETag" in scenario_path["get"]["responses"]["200"]["headers"]
    project_patch = schema["paths"]["/api/v1/projects/{id}/"]["patch"]
    [if_match] = [p for p in project_patch["parameters"] if p["name"] == "If-Match"]
    assert not if_match.get("required", False)
    assert {"409", "412"} <= project_patch["responses"].keys()
