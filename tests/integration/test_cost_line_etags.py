"""Cost lines are guarded as scenarios are: a line's ETag names its scenario's version, a write
without If-Match gets 428, with a stale one 412 (nothing changes), with the current one it
applies; the page form carries the version and shows who saved in the meantime."""

import re
from datetime import date

import pytest

from apps.budget.models import CostLine
from apps.budget.services import cost_line_create
from apps.projects.models import Scenario
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_api_projects import client_for
from tests.integration.test_budget_models import STAFF

pytestmark = pytest.mark.django_db

LINE = {
    "name": "Licence",
    "kind": "licence",
    "quantity": 10,
    "unit": "seat",
    "unit_price": "1200.00",
    "recurrence": "yearly",
    "start": "2026-01-01",
    "category": 7,
}
WRITES = [("put", {**LINE, "name": "Replaced"}), ("patch", {"name": "Renamed"}), ("delete", None)]
WRITE_IDS = [method for method, _ in WRITES]


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Guarded", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    return make_scenario(project, "Pilot", is_baseline=True)


@pytest.fixture
def line(scenario):
    return cost_line_create(scenario=scenario, fields=STAFF)  # the scenario's version 2


@pytest.fixture
def api(owner):
    return client_for(owner)


def url(line) -> str:
    return f"/api/v1/scenarios/{line.scenario_id}/cost-lines/{line.pk}/"


def write(api, method, line, body, **headers):
    return getattr(api, method)(url(line), body, format="json", **headers)


def unchanged(line) -> bool:
    current = CostLine.objects.filter(pk=line.pk).first()
    version = Scenario.objects.get(pk=line.scenario_id).version
    return current is not None and (current.name, version) == ("Data scientist", 2)


def test_reading_a_line_gives_an_etag_naming_its_scenarios_version(api, line):
    response = api.get(url(line))
    assert response.status_code == 200
    assert response["ETag"] == f'"cost-line-{line.pk}-v2"'


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_line_write_without_if_match_gets_428_and_changes_nothing(api, line, method, body):
    response = write(api, method, line, body)
    assert response.status_code == 428
    assert response.json() == {
        "detail": "Send If-Match with the ETag of what you change as you last read it, so that "
        "a change saved by someone else in the meantime is not overwritten."
    }
    assert unchanged(line)


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_line_write_with_if_match_star_gets_428(api, line, method, body):
    assert write(api, method, line, body, HTTP_IF_MATCH="*").status_code == 428
    assert unchanged(line)


@pytest.mark.parametrize(("method", "body"), WRITES, ids=WRITE_IDS)
def test_a_line_write_with_a_stale_if_match_gets_412_and_changes_nothing(api, line, method, body):
    stale = api.get(url(line))["ETag"]
    # Someone adds another line after this client read it: the scenario's version 3.
    api.post(f"/api/v1/scenarios/{line.scenario_id}/cost-lines/", LINE, format="json")
    response = write(api, method, line, body, HTTP_IF_MATCH=stale)
    assert response.status_code == 412
    assert response.json() == {
        "detail": f'It has changed since you read it (its ETag is now "cost-line-{line.pk}-v3"): '
        "read it again, then repeat your change."
    }
    assert CostLine.objects.get(pk=line.pk).name == "Data scientist"
    assert Scenario.objects.get(pk=line.scenario_id).version == 3


@pytest.mark.parametrize(
    ("method", "body", "status"),
    [(*WRITES[0], 200), (*WRITES[1], 200), (*WRITES[2], 204)],
    ids=WRITE_IDS,
)
def test_a_line_write_with_the_current_etag_applies(api, line, method, body, status):
    etag = api.get(url(line))["ETag"]
    response = write(api, method, line, body, HTTP_IF_MATCH=etag)
    assert response.status_code == status, response.content
    assert Scenario.objects.get(pk=line.scenario_id).version == 3
    if method == "delete":
        assert not CostLine.objects.filter(pk=line.pk).exists()
    else:
        assert response["ETag"] == f'"cost-line-{line.pk}-v3"' == api.get(url(line))["ETag"]


def test_a_created_line_comes_with_its_etag(api, scenario):
    response = api.post(f"/api/v1/scenarios/{scenario.pk}/cost-lines/", LINE, format="json")
    assert response.status_code == 201, response.content
    assert response["ETag"] == f'"cost-line-{response.json()["id"]}-v2"'


def test_a_stranger_gets_404_not_428_whatever_they_send(line):
    response = client_for(make_manager("stranger")).patch(
        url(line), {"name": "Mine"}, format="json"
    )
    assert response.status_code == 404
    assert unchanged(line)


def test_the_schema_documents_the_cost_lines_if_match_and_the_answers_to_it(api_client):
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    path = schema["paths"]["/api/v1/scenarios/{scenario_id}/cost-lines/{line_id}/"]
    for method in ("put", "patch", "delete"):
        operation = path[method]
        [if_match] = [p for p in operation["parameters"] if p["name"] == "If-Match"]
        assert if_match["in"] == "header" and if_match["required"] is True
        assert {"409", "412", "428"} <= operation["responses"].keys()
    assert "ETag" in path["get"]["responses"]["200"]["headers"]


# The page form: the version it was opened on, and the same conflict page as a scenario's.


def line_post(**overrides) -> dict:
    return {
        "kind": "staff",
        "name": "Data scientist",
        "quantity": "2",
        "unit": "FTE",
        "unit_price": "90,000",
        "recurrence": "yearly",
        "start": "2026-01-01",
        "end": "2027-12-31",
        "annual_escalation": "0",
        "budget_class": "",
        "category": "1",
        "basis": "",
        **overrides,
    }


def edit_url(line) -> str:
    return f"/scenarios/{line.scenario_id}/cost-lines/{line.pk}/edit/"


def test_the_line_form_carries_the_version_it_was_opened_on(client, owner, line):
    client.force_login(owner)
    html = client.get(edit_url(line)).content.decode()
    assert '<input type="hidden" name="version" value="2"' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_line_saved_from_a_stale_form_is_refused_with_who_saved_since(client, owner, line, htmx):
    client.force_login(owner)
    colleague = make_manager("colleague")
    line.scenario.project.collaborators.add(colleague)
    cost_line_create(scenario=line.scenario, fields={**STAFF, "name": "Analyst"}, user=colleague)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(edit_url(line), line_post(quantity="3", version="2"), **headers)
    assert response.status_code == (200 if htmx else 409)
    html = response.content.decode()
    assert "Not saved: this scenario was saved by someone else after you opened it" in html
    assert "colleague saved version 3" in html
    # The form keeps what was typed, now based on the latest version: saving again applies it.
    assert 'name="version" value="3"' in html and 'value="3"' in html
    assert CostLine.objects.get(pk=line.pk).quantity == 1.5
    again = client.post(edit_url(line), line_post(quantity="3", version="3"), **headers)
    assert again.status_code in {200, 302}
    assert CostLine.objects.get(pk=line.pk).quantity == 3


def test_a_line_saved_from_the_current_form_applies(client, owner, line):
    client.force_login(owner)
    response = client.post(edit_url(line), line_post(quantity="4", version="2"))
    assert response.status_code == 302
    assert CostLine.objects.get(pk=line.pk).quantity == 4
    assert Scenario.objects.get(pk=line.scenario_id).version == 3


def delete_url(line) -> str:
    return f"/scenarios/{line.scenario_id}/cost-lines/{line.pk}/delete/"


@pytest.mark.parametrize("page_url", ["/scenarios/{}/", "/scenarios/{}/budget/"])
def test_a_lines_delete_button_carries_the_version_it_was_shown_with(client, owner, line, page_url):
    client.force_login(owner)
    html = client.get(page_url.format(line.scenario_id)).content.decode()
    [button] = re.findall(rf'<button[^>]*formaction="{delete_url(line)}[^>]*>', html)
    assert 'name="version" value="2"' in button


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_line_deleted_from_a_stale_page_is_refused_with_who_saved_since(
    client, owner, line, htmx
):
    client.force_login(owner)
    colleague = make_manager("colleague")
    line.scenario.project.collaborators.add(colleague)
    cost_line_create(scenario=line.scenario, fields={**STAFF, "name": "Analyst"}, user=colleague)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(delete_url(line), {"version": "2"}, **headers)
    assert response.status_code == (200 if htmx else 409)
    html = response.content.decode()
    assert "Not deleted: this scenario was saved by someone else after you opened it" in html
    assert "colleague saved version 3" in html
    assert "“Data scientist” is still in the budget of version 3." in html
    assert CostLine.objects.filter(pk=line.pk).exists()
    assert Scenario.objects.get(pk=line.scenario_id).version == 3
    # The lines' buttons are now based on the latest version: deleting again applies.
    [button] = re.findall(rf'<button[^>]*formaction="{delete_url(line)}[^>]*>', html)
    assert 'name="version" value="3"' in button
    again = client.post(delete_url(line), {"version": "3"}, **headers)
    assert again.status_code == (200 if htmx else 302)
    assert not CostLine.objects.filter(pk=line.pk).exists()
