"""One rule for every date a user types: from 1 January 1990 to 31 December 2100, refused at its
field with a message for people, in the API and the pages alike; a far date saved before the rule
makes the budget say so in words, never in Python's."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apps.budget.models import CostLine
from apps.budget.services import cost_line_create
from apps.core.planning_dates import PlanningDateValidator
from apps.projects.conditional import scenario_etag
from apps.projects.models import Project, Scenario
from tests.factories import SEED_000_TRAINING, make_project, make_scenario, seed_000_inference
from tests.integration.test_api_projects import client_for
from tests.integration.test_budget_models import STAFF
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

RANGE_WORDS = "Enter a date from 1 Jan 1990 to 31 Dec 2100."
FAR = ["9999-12-31", "9999-12-01", "2101-01-01", "1989-12-31", "0001-01-01"]


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Dated", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    return make_scenario(project, "Pilot", is_baseline=True)


@pytest.fixture
def api(owner):
    return client_for(owner)


def scenario_url(scenario) -> str:
    return f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/"


def lines_url(scenario) -> str:
    return f"/api/v1/scenarios/{scenario.pk}/cost-lines/"


LINE = {
    "name": "Licence",
    "kind": "licence",
    "quantity": 1,
    "unit": "seat",
    "unit_price": "10.00",
    "recurrence": "monthly",
    "start": "2026-01-01",
    "category": 7,
}


@pytest.mark.parametrize("day", FAR)
@pytest.mark.parametrize("field", ["training_start", "service_start"])
def test_a_scenario_timing_outside_the_range_is_refused_at_its_field(api, scenario, field, day):
    response = api.patch(
        scenario_url(scenario), {field: day}, format="json", HTTP_IF_MATCH=scenario_etag(scenario)
    )
    assert response.status_code == 400
    assert response.json() == {field: [RANGE_WORDS]}
    assert Scenario.objects.get(pk=scenario.pk).version == 1


@pytest.mark.parametrize("day", FAR)
@pytest.mark.parametrize("field", ["period_start", "period_end"])
def test_a_planning_period_outside_the_range_is_refused_at_its_field(api, scenario, field, day):
    project = scenario.project
    response = api.patch(f"/api/v1/projects/{project.pk}/", {field: day}, format="json")
    assert response.status_code == 400
    assert RANGE_WORDS in response.json()[field]
    assert Project.objects.get(pk=project.pk).period_end == date(2027, 12, 31)


@pytest.mark.parametrize("field", ["start", "end"])
def test_a_cost_line_date_outside_the_range_is_refused_at_its_field(api, scenario, field):
    response = api.post(lines_url(scenario), {**LINE, field: "9999-12-01"}, format="json")
    assert response.status_code == 400
    assert response.json() == {field: [RANGE_WORDS]}
    assert not CostLine.objects.exists()


def test_the_first_and_last_days_of_the_range_are_accepted(api, scenario):
    project_url = f"/api/v1/projects/{scenario.project_id}/"
    response = api.patch(
        project_url, {"period_start": "1990-01-01", "period_end": "2100-12-31"}, format="json"
    )
    assert response.status_code == 200, response.json()
    line = {**LINE, "start": "1990-01-01", "end": "2100-12-31"}
    assert api.post(lines_url(scenario), line, format="json").status_code == 201


def test_an_import_with_a_far_planning_period_is_refused_at_its_field(api):
    document = {
        "format": "compute-planner-project",
        "format_version": 1,
        "project": {
            "title": "Far",
            "period_end": "9999-12-31",
            "scenarios": [{"name": "Only", "inputs": {"training": SEED_000_TRAINING}}],
        },
    }
    response = api.post("/api/v1/projects/import/", document, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["project"]["period_end"] == [RANGE_WORDS]
    assert not Project.objects.filter(title="Far").exists()


@pytest.mark.parametrize("field", ["period_end", "service_start"])
def test_the_stateless_options_refuse_a_far_date_at_its_field(api, field):
    body = {
        "training": SEED_000_TRAINING,
        "inference": seed_000_inference(15_000),
        "budget": {field: "9999-12-01"},
    }
    response = api.post("/api/v1/options/", body, format="json")
    assert response.status_code == 400
    assert response.json()["budget"][field] == [RANGE_WORDS]


# The pages: the same rule, at the field, and the date pickers offer only the range.


def test_the_scenario_form_refuses_a_far_service_start_at_its_field(client, owner, scenario):
    client.force_login(owner)
    post = {**scenario_post(), "version": 1, "service_start": "9999-12-01"}
    response = client.post(f"/scenarios/{scenario.pk}/", post)
    assert response.status_code == 200
    assert response.context["form"].errors["service_start"] == [RANGE_WORDS]
    assert Scenario.objects.get(pk=scenario.pk).version == 1
    html = response.content.decode()
    assert 'min="1990-01-01"' in html and 'max="2100-12-31"' in html


def test_the_project_form_refuses_a_far_period_end_at_its_field(client, owner, scenario):
    client.force_login(owner)
    project = scenario.project
    form = client.get(f"/projects/{project.pk}/edit/").context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name != "collaborators"
    }
    response = client.post(f"/projects/{project.pk}/edit/", {**data, "period_end": "9999-12-31"})
    assert response.status_code == 200
    assert response.context["form"].errors["period_end"] == [RANGE_WORDS]
    assert Project.objects.get(pk=project.pk).period_end == date(2027, 12, 31)


def test_the_cost_line_form_refuses_a_far_start_at_its_field(client, owner, scenario):
    client.force_login(owner)
    post = {
        **LINE,
        "quantity": "1",
        "start": "9999-12-01",
        "end": "",
        "annual_escalation": "0",
        "budget_class": "",
        "basis": "",
    }
    response = client.post(f"/scenarios/{scenario.pk}/cost-lines/new/", post)
    assert response.status_code == 200
    assert response.context["line_form"].errors["start"] == [RANGE_WORDS]
    assert not CostLine.objects.exists()


def test_the_rule_speaks_french_to_a_french_reader():
    with translation.override("fr"), pytest.raises(ValidationError) as refused:
        PlanningDateValidator()(date(9999, 12, 31))
    assert refused.value.messages == ["Saisissez une date du 1 janvier 1990 au 31 décembre 2100."]


# Far dates saved before the rule existed (straight into the database): words, not Python's.


def test_a_budget_over_a_far_planning_period_answers_409_in_words(api, scenario):
    Project.objects.filter(pk=scenario.project_id).update(period_end=date(9999, 12, 31))
    response = api.get(f"/api/v1/projects/{scenario.project_id}/budget/")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "dates run from 1 Jan 1990 to 31 Dec 2100" in detail
    assert "out of range" not in detail and "year" not in detail.split("dates")[0]


def test_a_far_service_start_saved_before_the_rule_answers_409_not_500(api, scenario):
    Scenario.objects.filter(pk=scenario.pk).update(service_start=date(9999, 12, 1))
    Project.objects.filter(pk=scenario.project_id).update(period_end=None)
    response = api.get(f"/api/v1/scenarios/{scenario.pk}/budget/")
    assert response.status_code == 409
    assert "out of range" not in response.json()["detail"]


def test_a_line_saved_with_a_far_date_before_the_rule_leaves_the_budget_in_words(api, scenario):
    line = cost_line_create(scenario=scenario, fields=STAFF)
    CostLine.objects.filter(pk=line.pk).update(end=date(9999, 12, 31))
    response = api.get(f"/api/v1/scenarios/{scenario.pk}/budget/")
    assert response.status_code in {200, 409}
    assert "out of range" not in response.content.decode()
