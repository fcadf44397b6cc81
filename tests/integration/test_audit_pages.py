"""Reading the audit log: a project's, in the API (GET /api/v1/projects/{id}/audit/, newest first,
paged) and on its page with a CSV file, for its members, the front office once it is in the queue,
and administrators; the whole log for administrators only. No method changes it."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from apps.audit.models import Action, AuditEvent
from apps.projects.services import project_update
from apps.reviews.services import project_submit
from tests.factories import make_front_office, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    maria, rene = make_manager("maria"), make_front_office("rene")
    collaborator, stranger = make_manager("kofi"), make_manager("stranger")
    project = make_project(maria, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    project_update(project=project, fields={"title": "Translator"}, collaborators=[collaborator])
    admin = get_user_model().objects.create_superuser("admin", password="x" * 20)
    return {
        "maria": maria,
        "rene": rene,
        "kofi": collaborator,
        "stranger": stranger,
        "admin": admin,
        "project": project,
    }


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def audit_url(project) -> str:
    return f"/api/v1/projects/{project.pk}/audit/"


def test_the_api_lists_a_projects_events_newest_first_with_who_what_and_changes(world):
    body = api_as(world["maria"]).get(audit_url(world["project"])).json()
    assert body["count"] == 3 and body["page"] == 1 and body["pages"] == 1
    assert body["next"] is None and body["previous"] is None
    actions = [event["action"] for event in body["results"]]
    assert actions == ["collaborators_changed", "project_changed", "scenario_saved"]
    assert body["results"][2]["actor"] == "maria"
    changed = body["results"][1]
    assert set(changed) == {"id", "at", "actor", "action", "object", "changes"}
    assert changed["changes"] == {"title": ["Translation assistant", "Translator"]}
    assert changed["object"] == {
        "type": "projects.project",
        "id": str(world["project"].pk),
        "name": "Translator",
    }
    assert body["results"][0]["changes"] == {"collaborators": [[], ["kofi"]]}


def test_the_api_pages_the_events(world):
    answer = api_as(world["maria"]).get(audit_url(world["project"]) + "?page_size=2&page=2")
    body = answer.json()
    assert (body["count"], body["page"], body["page_size"], body["pages"]) == (3, 2, 2, 2)
    assert [event["action"] for event in body["results"]] == ["scenario_saved"]
    assert body["next"] is None and body["previous"].endswith("?page=1&page_size=2")
    assert api_as(world["maria"]).get(audit_url(world["project"]) + "?page=3").status_code == 400
    assert (
        api_as(world["maria"]).get(audit_url(world["project"]) + "?page_size=0").status_code == 400
    )


def test_who_may_read_a_projects_log(world):
    project, url = world["project"], audit_url(world["project"])
    for name in ("maria", "kofi", "admin"):
        assert api_as(world[name]).get(url).status_code == 200, name
        client = Client()
        client.force_login(world[name])
        assert client.get(f"/projects/{project.pk}/audit/").status_code == 200, name
    # The front office sees a project once it is in its queue; a stranger never.
    assert api_as(world["rene"]).get(url).status_code == 404
    assert api_as(world["stranger"]).get(url).status_code == 404
    assert APIClient().get(url).status_code in (401, 403)
    project_submit(project=project, user=world["maria"])
    assert api_as(world["rene"]).get(url).status_code == 200
    assert api_as(world["stranger"]).get(url).status_code == 404


def test_no_method_of_the_api_changes_the_log(world):
    url = audit_url(world["project"])
    before = list(AuditEvent.objects.values_list("pk", "changes"))
    client = api_as(world["maria"])
    for method in ("post", "put", "patch", "delete"):
        assert getattr(client, method)(url, {}, format="json").status_code == 405, method
    event = AuditEvent.objects.filter(project_id=world["project"].pk).first()
    assert client.delete(f"{url}{event.pk}/").status_code == 404
    assert list(AuditEvent.objects.values_list("pk", "changes")) == before


def test_the_project_page_shows_the_events_and_downloads_them_as_csv(world):
    client = Client()
    client.force_login(world["kofi"])
    project = world["project"]
    html = client.get(f"/projects/{project.pk}/audit/").content.decode()
    assert "Collaborators changed" in html and "Title: Translation assistant → Translator" in html
    response = client.get(f"/projects/{project.pk}/audit.csv")
    assert response["Content-Disposition"].startswith("attachment")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["At (UTC)", "Actor", "Action"]
    assert [row[3] for row in rows[1:3]] == ["collaborators_changed", "project_changed"]
    assert len(rows) == 4


def test_the_project_page_reads_in_french(world):
    client = Client(headers={"accept-language": "fr"})
    client.force_login(world["maria"])
    html = client.get(f"/projects/{world['project'].pk}/audit/").content.decode()
    assert "Journal d’audit" in html and "Collaborateurs modifiés" in html


def test_the_whole_log_is_for_administrators(world):
    client = Client()
    client.force_login(world["maria"])
    assert client.get("/audit/").status_code == 403
    assert client.get("/audit.csv").status_code == 403
    client.force_login(world["admin"])
    html = client.get("/audit/").content.decode()
    assert "Role changed" in html and "Project created" in html
    filtered = client.get("/audit/", {"action": Action.PROJECT_CHANGED}).content.decode()
    assert "Project changed" in filtered and "Role changed</th>" not in filtered
    rows = list(
        csv.reader(io.StringIO(client.get("/audit.csv?actor=maria").content.decode("utf-8-sig")))
    )
    assert {row[1] for row in rows[1:]} == {"maria"}


def test_the_schema_describes_the_audit_route(world):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/projects/{project_id}/audit/"]["get"]
    assert {parameter["name"] for parameter in operation["parameters"]} >= {"page", "page_size"}
    assert set(schema["paths"]["/api/v1/projects/{project_id}/audit/"]) == {"get"}
