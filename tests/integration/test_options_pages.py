"""The decision page of a scenario: the options table, the chart and its table, "Use this option"."""

import re

import pytest

from apps.projects.models import Classification, Project, Scenario
from apps.projects.versions import version_estimate
from tests.factories import TRANSLATION_INFERENCE, make_manager, make_translation_assistant

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(owner):
    return make_translation_assistant(owner, classification=Classification.INTERNAL)


def page(client, scenario, **query):
    client.force_login(scenario.project.owner)
    response = client.get(f"/scenarios/{scenario.pk}/options/", query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_compares_the_options_and_marks_the_cheapest(client, scenario):
    html = page(client, scenario)
    assert "Cheapest by net present value: Self-host on rented accelerators, pay per use" in html
    assert "beats renting accelerators per use above" in html
    for label in (
        "External model API",
        "always on",
        "committed for a term",
        "Self-host on owned accelerators",
    ):
        assert label in html
    assert html.count(">Use this option</button>") == 5
    assert "Opex FY2027" in html and "Opex FY2028" in html
    assert '<svg viewBox="0 0 640 380" role="img"' in html
    assert len(re.findall(r"<polyline ", html)) == 5
    assert "Monthly cost (USD) at each monthly volume" in html
    assert "Data leaves the organisation" in html
    assert "leaves the organisation. Such data must not be entered" in html  # internal data


def test_the_options_and_api_model_are_chosen_by_a_plain_form(client, scenario):
    html = page(client, scenario, options=["external_api", "own"], api_model="openai-gpt-4o")
    assert html.count(">Use this option</button>") == 2
    assert 'name="api_model" value="openai-gpt-4o"' in html
    bad = page(client, scenario, options=["external_api"], api_model="no-such-model")
    assert "No API model &#x27;no-such-model&#x27;" in bad or "No API model 'no-such-model'" in bad


def test_using_an_option_creates_a_scenario_with_its_inputs(client, scenario):
    client.force_login(scenario.project.owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/options/use/",
        {"key": "external_api", "api_model": "openai-gpt-4o"},
    )
    created = Scenario.objects.exclude(pk=scenario.pk).get(project=scenario.project)
    assert response.status_code == 302 and response["Location"] == f"/scenarios/{created.pk}/"
    assert created.name == "Wider use: External model API"
    assert created.inputs["inference"]["method"] == "external_api"
    assert created.inputs["inference"]["api_model"] == "openai-gpt-4o"
    assert created.inputs["inference"]["requests_per_month"] == 300_000
    assert version_estimate(created.versions.get()).result.inference.peak_accelerators is None
    scenario.refresh_from_db()
    assert scenario.inputs == {"inference": TRANSLATION_INFERENCE}


def test_a_frozen_project_takes_no_new_scenario_and_others_get_a_404(client, scenario):
    Project.objects.filter(pk=scenario.project_id).update(status=Project.Status.SUBMITTED)
    client.force_login(scenario.project.owner)
    response = client.post(f"/scenarios/{scenario.pk}/options/use/", {"key": "own"})
    assert (
        response.status_code == 302 and response["Location"] == f"/projects/{scenario.project_id}/"
    )
    assert Scenario.objects.filter(project=scenario.project).count() == 1
    assert (
        "Use this option" not in client.get(f"/scenarios/{scenario.pk}/options/").content.decode()
    )
    client.force_login(make_manager("stranger"))
    assert client.get(f"/scenarios/{scenario.pk}/options/").status_code == 404
    assert client.post(f"/scenarios/{scenario.pk}/options/use/", {"key": "own"}).status_code == 404


def test_the_scenario_page_links_to_its_options(client, scenario):
    client.force_login(scenario.project.owner)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert f'href="/scenarios/{scenario.pk}/options/"' in html


def test_the_options_are_compared_on_their_footprint_too(client, scenario):
    html = page(client, scenario)
    assert "The options’ footprint: training and serving over the horizon" in html or (
        "The options' footprint: training and serving over the horizon" in html
    )
    table = html.split('class="options-footprint"')[1].split("</table>")[0]
    assert "External model API" in table and "Self-host on owned accelerators" in table
    assert "kWh" in table and "CO2e" in table
