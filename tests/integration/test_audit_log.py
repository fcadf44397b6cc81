"""The audit log: every security- or money-relevant action writes exactly one event, with who,
what, to which object and what changed; and nothing in the app or the API changes the log."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.test import APIClient

from apps.audit.models import Action, AppendOnly, AuditEvent
from apps.catalogue.models import EnergyProfile, PriceOffer
from apps.projects.models import Project
from apps.projects.roles import FRONT_OFFICE
from tests.factories import make_front_office, make_manager

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def the_one_event(action, before: int) -> AuditEvent:
    """The events written since `before` (the newest id then): exactly one, of `action`."""
    written = list(AuditEvent.objects.filter(pk__gt=before).order_by("pk"))
    assert [event.action_name for event in written] == [action]
    return written[0]


def last_id() -> int:
    return AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


@pytest.fixture
def people():
    return {"maria": make_manager("maria"), "rene": make_front_office("rene")}


def test_every_listed_action_writes_exactly_one_event(people):
    maria, rene = people["maria"], people["rene"]
    as_maria, as_rene = api_as(maria), api_as(rene)
    events = {}

    def done(action, do):
        before = last_id()
        response = do()
        assert getattr(response, "status_code", 200) < 400, getattr(response, "content", "")
        events[action] = the_one_event(action, before)
        return response

    browser = Client()
    done(
        Action.SIGN_IN_FAILED,
        lambda: browser.post("/accounts/login/", {"username": "maria", "password": "wrong!"}),
    )
    done(
        Action.SIGNED_IN,
        lambda: browser.post("/accounts/login/", {"username": "maria", "password": PASSWORD}),
    )
    created = done(
        Action.PROJECT_CREATED,
        lambda: as_maria.post(
            "/api/v1/projects/", {"title": "Chat", "preset": "chat-service-rented"}, format="json"
        ),
    ).json()
    project = f"/api/v1/projects/{created['id']}/"
    done(
        Action.PROJECT_CHANGED,
        lambda: as_maria.patch(project, {"title": "Chat at scale"}, format="json"),
    )
    done(
        Action.COLLABORATORS_CHANGED,
        lambda: as_maria.patch(project, {"collaborators": ["rene"]}, format="json"),
    )
    scenario = as_maria.get(f"{project}scenarios/").json()[0]
    scenario_url = f"{project}scenarios/{scenario['id']}/"
    etag = as_maria.get(scenario_url)["ETag"]
    done(
        Action.SCENARIO_SAVED,
        lambda: as_maria.patch(
            scenario_url, {"name": "Pilot, smaller"}, format="json", headers={"If-Match": etag}
        ),
    )
    done(
        Action.SHARE_LINK_CREATED,
        lambda: as_maria.post(
            f"/api/v1/scenarios/{scenario['id']}/share-links/", {"label": "Board"}, format="json"
        ),
    )
    link = as_maria.get("/api/v1/share-links/").json()[0]
    done(Action.SHARE_LINK_REVOKED, lambda: as_maria.delete(f"/api/v1/share-links/{link['id']}/"))
    exported = done(Action.EXPORT_DOWNLOADED, lambda: as_maria.get(f"{project}export/?format=json"))
    done(Action.WORKPLAN_SUBMITTED, lambda: as_maria.post(f"{project}submit/"))
    done(
        Action.COMMENTED,
        lambda: as_rene.post(f"{project}comments/", {"body": "Which region?"}, format="json"),
    )
    done(
        Action.WORKPLAN_RETURNED,
        lambda: as_rene.post(f"{project}return/", {"comment": "Say the region."}, format="json"),
    )
    as_maria.post(f"{project}submit/")
    done(Action.WORKPLAN_CLEARED, lambda: as_rene.post(f"{project}clear/", {}, format="json"))
    done(
        Action.DATA_IMPORTED,
        lambda: as_maria.post(
            "/api/v1/projects/import/", json.loads(exported.content), format="json"
        ),
    )

    def edit_energy_profile():
        profile = EnergyProfile.objects.first()
        profile.pue = profile.pue + 0.01
        profile.save()

    def edit_price():
        offer = PriceOffer.objects.exclude(price_per_accelerator_hour=None).first()
        offer.price_per_accelerator_hour += 1
        offer.save()

    done(Action.CATALOGUE_EDITED, edit_energy_profile)
    done(Action.RATE_EDITED, edit_price)
    done(
        Action.ROLE_CHANGED,
        lambda: maria.groups.add(Group.objects.get(name=FRONT_OFFICE)),
    )
    listed = {
        Action.SIGNED_IN,
        Action.SIGN_IN_FAILED,
        Action.PROJECT_CREATED,
        Action.PROJECT_CHANGED,
        Action.COLLABORATORS_CHANGED,
        Action.SCENARIO_SAVED,
        Action.WORKPLAN_SUBMITTED,
        Action.WORKPLAN_RETURNED,
        Action.WORKPLAN_CLEARED,
        Action.COMMENTED,
        Action.SHARE_LINK_CREATED,
        Action.SHARE_LINK_REVOKED,
        Action.EXPORT_DOWNLOADED,
        Action.CATALOGUE_EDITED,
        Action.RATE_EDITED,
        Action.DATA_IMPORTED,
        Action.ROLE_CHANGED,
    }
    assert set(events) == listed

    # Who, what object, what changed.
    assert events[Action.SIGN_IN_FAILED].actor is None
    assert events[Action.SIGN_IN_FAILED].object_repr == "maria"
    assert events[Action.SIGNED_IN].actor == maria
    assert events[Action.PROJECT_CHANGED].changes == {"title": ["Chat", "Chat at scale"]}
    assert events[Action.PROJECT_CHANGED].actor_name == "maria"
    assert events[Action.COLLABORATORS_CHANGED].changes == {"collaborators": [[], ["rene"]]}
    assert events[Action.SCENARIO_SAVED].changes["version"] == [1, 2]
    assert events[Action.WORKPLAN_RETURNED].actor == rene
    assert events[Action.WORKPLAN_RETURNED].changes == {
        "status": ["submitted", "returned"],
        "comment": [None, "Say the region."],
    }
    assert events[Action.EXPORT_DOWNLOADED].changes["format"] == [None, "json"]
    assert events[Action.ROLE_CHANGED].changes == {
        "roles": [["manager"], ["front office", "manager"]]
    }
    assert "pue" in events[Action.CATALOGUE_EDITED].changes
    assert "price_per_accelerator_hour" in events[Action.RATE_EDITED].changes
    project_events = {
        action for action, event in events.items() if event.project_id == created["id"]
    }
    assert project_events == listed - {
        Action.SIGNED_IN,
        Action.SIGN_IN_FAILED,
        Action.CATALOGUE_EDITED,
        Action.RATE_EDITED,
        Action.ROLE_CHANGED,
        Action.DATA_IMPORTED,  # the imported project is a new one
    }


def test_a_project_created_with_its_first_scenario_is_one_event(people):
    before = last_id()
    response = api_as(people["maria"]).post(
        "/api/v1/projects/", {"title": "Chat", "preset": "chat-service-rented"}, format="json"
    )
    assert response.status_code == 201
    event = the_one_event(Action.PROJECT_CREATED, before)
    assert Project.objects.get(pk=event.project_id).scenarios.count() == 1
    assert event.changes["title"] == [None, "Chat"]


def test_the_log_cannot_be_changed_or_deleted_through_the_models(people):
    event = AuditEvent.objects.get(action_name=Action.ROLE_CHANGED, object_repr="rene")
    event.object_repr = "someone else"
    with pytest.raises(AppendOnly):
        event.save()
    with pytest.raises(AppendOnly):
        event.delete()
    with pytest.raises(AppendOnly):
        AuditEvent.objects.filter(pk=event.pk).update(object_repr="someone else")
    with pytest.raises(AppendOnly):
        AuditEvent.objects.all().delete()
    assert AuditEvent.objects.get(pk=event.pk).object_repr == "rene"


def test_deleting_an_account_changes_none_of_its_events(people):
    maria = people["maria"]
    Client().post("/accounts/login/", {"username": "maria", "password": PASSWORD})
    events = list(AuditEvent.objects.filter(actor_name="maria").values("pk", "actor_id"))
    assert events == [{"pk": events[0]["pk"], "actor_id": maria.pk}]
    maria.delete()
    assert list(AuditEvent.objects.filter(actor_name="maria").values("pk", "actor_id")) == events


def test_the_admin_shows_the_log_and_changes_none_of_it(people):
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    client = Client()
    client.force_login(admin)
    event = AuditEvent.objects.filter(action_name=Action.ROLE_CHANGED).first()
    assert client.get("/admin/audit/auditevent/").status_code == 200
    page = client.get(f"/admin/audit/auditevent/{event.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(f"/admin/audit/auditevent/{event.pk}/change/", {}).status_code == 403
    assert (
        client.post(f"/admin/audit/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert client.get("/admin/audit/auditevent/add/").status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_an_edit_in_the_admin_names_the_editor_and_what_changed(people):
    """A catalogue editor changes an energy profile's PUE in the admin: one event, with the
    editor as its actor (django-auditlog's registry writes it; the request names the actor)."""
    editor = get_user_model().objects.create_user("cata", password=PASSWORD, is_staff=True)
    editor.groups.add(Group.objects.get(name="catalogue editor"))
    client = Client()
    client.force_login(editor)
    profile = EnergyProfile.objects.order_by("pk").first()
    url = f"/admin/catalogue/energyprofile/{profile.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {
        name: ("" if value is None else value)
        for name, value in form.initial.items()
        if name in form.fields
    }
    data["pue"] = "1.37"
    before = last_id()
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event = the_one_event(Action.CATALOGUE_EDITED, before)
    assert event.actor == editor and event.actor_name == "cata"
    assert str(event.changes["pue"][1]) == "1.37"
    assert event.object_repr == str(profile)
