"""Scenario versions: every save keeps one, the history and the differences between two, and
a save based on an out-of-date version that is refused, keeps the input and says who changed what."""

import re
from dataclasses import replace
from decimal import Decimal

import pytest

from apps.estimates import ENGINE_VERSION
from apps.estimates.record import dump
from apps.projects.models import Scenario, ScenarioVersion
from apps.projects.services import scenario_update
from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.pseudo_world import EXTERNAL_API
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Translation assistant"), "Pilot")


def save(client, scenario, version: int, name: str = "Pilot", **overrides):
    """POST the scenario form as a browser does, based on `version`."""
    return client.post(
        f"/scenarios/{scenario.pk}/", {**scenario_post(name, **overrides), "version": version}
    )


def test_every_save_keeps_a_version_with_its_inputs_results_author_and_engine(
    client, owner, scenario
):
    response = save(client, scenario, 1, inference_requests_per_month="300000")
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.version == 2
    latest = scenario.versions.get(number=2)
    assert latest.created_by == owner
    assert latest.engine_version == ENGINE_VERSION
    assert latest.inputs == scenario.inputs
    assert version_estimate(latest).result.inference.monthly[0].requests == 300_000
    assert "nvidia-h100-sxm" in latest.catalogue["accelerators"]
    assert scenario.versions.get(number=1).inputs["inference"]["requests_per_month"] == 15_000


def test_the_scenario_form_carries_the_version_it_is_based_on(client, owner, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert re.search(r'<input type="hidden" name="version" value="1"[^>]*>', html)
    assert f'href="/scenarios/{scenario.pk}/versions/"' in html


def test_history_lists_every_version_newest_first_with_who_when_and_engine(client, owner, scenario):
    colleague = make_manager("colleague")
    scenario.project.collaborators.add(colleague)
    save(client, scenario, 1, inference_requests_per_month="300000")
    client.force_login(colleague)
    save(client, scenario, 2, "Wider use", inference_requests_per_month="400000")
    html = client.get(f"/scenarios/{scenario.pk}/versions/").content.decode()
    rows = re.findall(r"<tr>\s*<th scope=\"row\">Version (\d)", html)
    assert rows == ["3", "2", "1"]
    assert "<td>colleague</td>" in html and "<td>maria</td>" in html
    assert f"<td>{ENGINE_VERSION}</td>" in html
    assert "?old=2&amp;new=3" in html and "Wider use" in html


def test_diff_shows_the_inputs_that_changed_old_to_new_and_the_figures_they_changed(
    client, owner, scenario
):
    save(client, scenario, 1, inference_requests_per_month="300000", training_mfu="35")
    response = client.get(f"/scenarios/{scenario.pk}/versions/compare/?old=1&new=2")
    assert response.status_code == 200
    html = response.content.decode()
    inputs, figures = html.split("<h2>Figures</h2>")
    assert re.search(
        r"Inference \(every request\): Requests in the first month</th><td>15,000</td><td>300,000</td>",
        inputs,
    )
    assert "Model FLOP utilisation (%)</th><td>not set (default)</td><td>35</td>" in inputs
    # Unchanged inputs are not listed.
    assert "Accelerator-seconds per request" not in inputs
    # Inference over the horizon: 100 → 2,000 accelerator-hours; $299.50 → $5,990.
    assert "Run cost over the horizon" in figures
    assert re.search(
        r"Inference accelerator-hours over the horizon</th><td><data value=\"100\.0\">100 accelerator-hours",
        figures,
    )
    assert "2,000 accelerator-hours" in figures
    assert "$299.50" in figures and "$5,990" in figures
    assert "Total cost (training and inference)" in figures
    # Training did not change, so its figures are not listed.
    assert "Build cost (training)" not in figures


def test_diff_defaults_to_the_latest_version_against_the_one_before(client, owner, scenario):
    save(client, scenario, 1, inference_requests_per_month="300000")
    save(client, scenario, 2, inference_requests_per_month="400000")
    html = client.get(f"/scenarios/{scenario.pk}/versions/compare/").content.decode()
    assert "What changed from version 2 to version 3" in html
    assert "<td>300,000</td><td>400,000</td>" in html


def test_diff_shows_the_figures_stored_with_each_version_not_estimated_again(
    client, owner, scenario
):
    save(client, scenario, 1, inference_requests_per_month="300000")
    first = scenario.versions.get(number=1)
    kept = version_estimate(first)
    inference = kept.result.inference
    total = replace(inference.total, cost=Decimal("1234.56"))  # as if prices had changed since
    changed = replace(kept.result, inference=replace(inference, total=total))
    first.results = dump(replace(kept, result=changed))
    first.save()
    html = client.get(f"/scenarios/{scenario.pk}/versions/compare/?old=1&new=2").content.decode()
    assert "$1,235" in html


def test_two_identical_versions_show_that_nothing_changed(client, owner, scenario):
    save(client, scenario, 1)
    save(client, scenario, 2)
    html = client.get(f"/scenarios/{scenario.pk}/versions/compare/?old=2&new=3").content.decode()
    assert "No input changed." in html and "No headline figure changed." in html


@pytest.mark.parametrize("query", ["?old=1&new=7", "?old=0&new=1", "?old=x&new=9"])
def test_diff_of_a_version_that_does_not_exist_is_404(client, owner, scenario, query):
    assert client.get(f"/scenarios/{scenario.pk}/versions/compare/{query}").status_code == 404


@pytest.mark.parametrize("url", ["/scenarios/{}/versions/", "/scenarios/{}/versions/compare/"])
def test_another_manager_gets_404_on_the_versions_of_someone_elses_scenario(client, url):
    scenario = make_scenario(make_project(make_manager("owner")))
    client.force_login(make_manager("intruder"))
    assert client.get(url.format(scenario.pk)).status_code == 404


# Edits never silently overwrite each other.


def test_a_save_based_on_an_old_version_is_refused_keeps_the_input_and_says_who_changed_what(
    client, owner, scenario
):
    colleague = make_manager("colleague")
    scenario.project.collaborators.add(colleague)
    client.force_login(colleague)
    save(client, scenario, 1, inference_requests_per_month="300000")
    client.force_login(owner)

    # Maria's form was opened at version 1; she typed 50,000 requests and a new name.
    response = save(client, scenario, 1, "Maria's pilot", inference_requests_per_month="50,000")

    assert response.status_code == 409
    html = response.content.decode()
    assert "Not saved: this scenario was saved by someone else after you opened it" in html
    assert "You started from version 1." in html
    assert re.search(r"colleague saved version 2 on <time datetime=\"[^\"]+\">", html)
    assert "Requests in the first month</th><td>15,000</td><td>300,000</td>" in html
    # What she typed is kept, and the form now stands on version 2.
    assert 'value="50,000"' in html and 'value="Maria&#x27;s pilot"' in html
    assert re.search(r'<input type="hidden" name="version" value="2"[^>]*>', html)
    scenario.refresh_from_db()
    assert scenario.version == 2
    assert scenario.inputs["inference"]["requests_per_month"] == 300_000

    # Saving again, knowingly, replaces version 2.
    again = save(client, scenario, 2, "Maria's pilot", inference_requests_per_month="50,000")
    assert again.status_code == 302
    scenario.refresh_from_db()
    assert (scenario.version, scenario.name) == (3, "Maria's pilot")
    assert scenario.inputs["inference"]["requests_per_month"] == 50_000


def test_the_conflict_lists_every_save_since_the_form_was_opened(client, owner, scenario):
    for requests in ("300000", "400000"):
        save(
            client,
            scenario,
            Scenario.objects.get(pk=scenario.pk).version,
            inference_requests_per_month=requests,
        )
    html = save(client, scenario, 1, inference_requests_per_month="7").content.decode()
    assert "maria saved version 2" in html and "maria saved version 3" in html
    assert "What changed from version 1 to version 3" in html
    assert "<td>15,000</td><td>400,000</td>" in html
    assert ScenarioVersion.objects.filter(scenario=scenario).count() == 3


def test_diff_names_an_external_apis_method_and_prices_in_words(client, owner, scenario):
    """A move to an external model API reads as the form's words, not its machine names."""
    scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs={**scenario.inputs, "inference": EXTERNAL_API},
        user=owner,
        expected_version=scenario.version,
    )
    html = client.get(f"/scenarios/{scenario.pk}/versions/compare/?old=1&new=2").content.decode()
    assert "Through an external model API, priced per token" in html
    assert "Input price (USD per million tokens)" in html
    assert "external_api" not in html and "price_per_million_input_tokens" not in html
