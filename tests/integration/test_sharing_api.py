"""The share-link API: create for a scenario or a submitted project, list, revoke; 404 for others."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.sharing.models import ShareLink
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_sharing_links import share, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(api_client):
    user = make_manager("maria")
    api_client.force_authenticate(user)
    return user


@pytest.fixture
def scenario(manager):
    return make_scenario(make_project(manager, title="Support bot"), is_baseline=True)


def test_creating_a_link_returns_its_id_url_and_expiry_and_the_url_opens(api_client, scenario):
    before = timezone.now()
    response = api_client.post(
        f"/api/v1/scenarios/{scenario.pk}/share-links/", {"label": "Board"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "url", "expires_at"}
    link = ShareLink.objects.get(pk=body["id"])
    assert link.scenario_version == scenario.versions.get(number=scenario.version)
    expires_at = parse_datetime(body["expires_at"])
    assert expires_at == link.expires_at
    assert before + timedelta(days=30) <= expires_at <= timezone.now() + timedelta(days=30)
    url = urlsplit(body["url"])
    assert url.netloc == "testserver" and url.path.startswith("/s/")
    assert Client().get(url.path).status_code == 200


def test_a_link_may_last_from_1_to_90_days(api_client, scenario):
    url = f"/api/v1/scenarios/{scenario.pk}/share-links/"
    for days, status in ((1, 201), (90, 201), (91, 400), (0, 400), (365, 400)):
        response = api_client.post(url, {"label": "B", "expires_in_days": days}, format="json")
        assert response.status_code == status, days
    too_long = api_client.post(url, {"label": "B", "expires_in_days": 91}, format="json")
    assert too_long.json() == {
        "expires_in_days": ["A link lasts at most 90 days; share a new one when it runs out."]
    }
    assert ShareLink.objects.count() == 2


def test_a_link_needs_a_label_and_nothing_unknown(api_client, scenario):
    url = f"/api/v1/scenarios/{scenario.pk}/share-links/"
    assert "label" in api_client.post(url, {}, format="json").json()
    unknown = api_client.post(url, {"label": "B", "token": "mine"}, format="json")
    assert unknown.status_code == 400 and "token" in unknown.json()
    assert not ShareLink.objects.exists()


def test_deleting_a_link_revokes_it_from_the_very_next_request(api_client, scenario):
    link, token = share(scenario)
    board = Client()
    assert board.get(f"/s/{token}/").status_code == 200
    assert api_client.delete(f"/api/v1/share-links/{link.pk}/").status_code == 204
    assert board.get(f"/s/{token}/").status_code == 404
    assert api_client.delete(f"/api/v1/share-links/{link.pk}/").status_code == 204
    listed = api_client.get("/api/v1/share-links/").json()
    assert [(item["id"], item["is_active"]) for item in listed] == [(link.pk, False)]
    assert listed[0]["revoked_at"] is not None


def test_the_list_shows_views_and_subject_but_never_a_token_or_its_hash(api_client, scenario):
    link, token = share(scenario)
    Client().get(f"/s/{token}/")
    response = api_client.get("/api/v1/share-links/")
    assert response.status_code == 200
    (item,) = response.json()
    assert item["id"] == link.pk and item["view_count"] == 1
    assert (item["project"], item["scenario"], item["version"], item["snapshot"]) == (
        scenario.project_id,
        scenario.pk,
        1,
        None,
    )
    assert item["created_by"] == "maria" and item["is_active"] is True
    assert token not in response.content.decode()
    assert link.token_hash not in response.content.decode()


def test_a_submitted_project_is_shared_as_its_latest_snapshot(api_client, scenario):
    url = f"/api/v1/projects/{scenario.project_id}/share-links/"
    draft = api_client.post(url, {"label": "Board"}, format="json")
    assert draft.status_code == 409
    assert draft.json() == {
        "detail": "Only a submitted project can be shared: submit it for review first."
    }
    snapshot = submit(scenario.project)
    created = api_client.post(url, {"label": "Board", "expires_in_days": 7}, format="json")
    assert created.status_code == 201
    assert ShareLink.objects.get(pk=created.json()["id"]).snapshot == snapshot
    listed = api_client.get("/api/v1/share-links/").json()
    assert (listed[0]["snapshot"], listed[0]["scenario"]) == (1, None)


def test_a_scenario_never_saved_as_a_version_is_refused_with_409(api_client, manager):
    unsaved = make_project(manager).scenarios.create(name="Imported", inputs={"training": {}})
    response = api_client.post(
        f"/api/v1/scenarios/{unsaved.pk}/share-links/", {"label": "Board"}, format="json"
    )
    assert response.status_code == 409


def test_signing_in_is_required(scenario):
    anonymous = Client()
    response = anonymous.post(
        f"/api/v1/scenarios/{scenario.pk}/share-links/",
        {"label": "Board"},
        content_type="application/json",
    )
    assert response.status_code in {401, 403}
    assert anonymous.get("/api/v1/share-links/").status_code in {401, 403}
    assert not ShareLink.objects.exists()


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/v1/scenarios/{scenario}/share-links/"),
        ("post", "/api/v1/projects/{project}/share-links/"),
        ("delete", "/api/v1/share-links/{link}/"),
    ],
)
def test_nobody_reaches_another_projects_share_links_through_the_api(api_client, method, url):
    owner = make_manager("owner")
    scenario = make_scenario(make_project(owner), is_baseline=True)
    submit(scenario.project)
    link, _ = share(scenario)
    api_client.force_authenticate(make_manager("intruder"))
    path = url.format(scenario=scenario.pk, project=scenario.project_id, link=link.pk)
    response = getattr(api_client, method)(path, {"label": "Stolen"}, format="json")
    assert response.status_code == 404
    assert list(ShareLink.objects.active()) == [link]
    assert api_client.get("/api/v1/share-links/").json() == []
