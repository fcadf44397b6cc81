"""The decision page and the saved endpoint let the user pick the accelerator self-hosting
uses; "Use this option" keeps it."""

import datetime

import pytest

from apps.projects.models import Scenario
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

INFERENCE = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "input_tokens": 1000,
    "output_tokens": 500,
    "requests_per_month": 300_000,
    "months": 12,
}


@pytest.fixture
def scenario():
    owner = make_manager("owner")
    project = make_project(
        owner, period_start=datetime.date(2027, 1, 1), period_end=datetime.date(2027, 12, 31)
    )
    return make_scenario(project, name="Wider use", inputs={"inference": INFERENCE})


def test_the_accelerator_picked_changes_the_self_hosted_options_only(client, api_client, scenario):
    api_client.force_authenticate(scenario.project.owner)
    url = f"/api/v1/scenarios/{scenario.pk}/options/"
    default = {o["key"]: o for o in api_client.get(url).json()["options"]}
    response = api_client.get(url, {"accelerator": "nvidia-a100-sxm-80gb"})
    assert response.status_code == 200, response.json()
    l4 = {o["key"]: o for o in response.json()["options"]}
    assert l4["external_api"]["npv"] == default["external_api"]["npv"]
    assert l4["rent_pay_per_use"]["npv"] != default["rent_pay_per_use"]["npv"]
    assert api_client.get(url, {"accelerator": ""}).status_code == 400
    client.force_login(scenario.project.owner)
    html = client.get(f"/scenarios/{scenario.pk}/options/", {"accelerator": "nvidia-a100-sxm-80gb"})
    html = html.content.decode()
    assert '<option value="nvidia-a100-sxm-80gb" selected>' in html
    assert 'name="accelerator" value="nvidia-a100-sxm-80gb"' in html  # carried by "Use this option"


def test_using_a_self_hosted_option_keeps_the_accelerator_picked(client, scenario):
    client.force_login(scenario.project.owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/options/use/",
        {"key": "rent_always_on", "accelerator": "nvidia-a100-sxm-80gb"},
    )
    assert response.status_code == 302
    created = Scenario.objects.exclude(pk=scenario.pk).get(project=scenario.project)
    assert created.inputs["inference"]["accelerator"] == "nvidia-a100-sxm-80gb"
    assert created.inputs["inference"]["provisioning"] == "always_on"
