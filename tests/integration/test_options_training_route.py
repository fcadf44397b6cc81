"""The decision page's training route: the options that train run on rented or owned accelerators."""

import re

import pytest

from apps.projects.models import Classification
from tests.factories import TRANSLATION_INFERENCE, make_manager, make_translation_assistant

pytestmark = pytest.mark.django_db

TRAINING = {
    "method": "accelerator_hours",
    "accelerator_hours": 1000,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 2.0,
    "purchase_price": 30_000,
    "lifetime_years": 5,
    "utilization_of_owned": 0.5,
}


def _scenario(training):
    inputs = {"inference": TRANSLATION_INFERENCE, **({"training": training} if training else {})}
    return make_translation_assistant(
        make_manager("owner"), inputs=inputs, classification=Classification.PUBLIC
    )


def _page(client, scenario, **query):
    client.force_login(scenario.project.owner)
    response = client.get(f"/scenarios/{scenario.pk}/options/", query)
    assert response.status_code == 200
    return response.content.decode()


def _money(html, key):
    """The one-off and capex cells of an option's row, as numbers."""
    row = re.search(rf'id="option-{key}">.*?</tr>', html, re.S).group(0)
    return [float(v) for v in re.findall(r'<td><data value="([0-9.]+)">', row)[:2]]


def test_the_training_route_changes_the_one_off_cost_of_fine_tuning(client):
    scenario = _scenario(TRAINING)
    html = _page(client, scenario)
    assert 'name="training_route"' in html and "As in the scenario" in html
    # Rented, the scenario's default: 1,000 accelerator-hours × 2 USD = 2,000 USD one-off.
    assert _money(html, "fine_tune") == [2000.0, 0.0]
    assert _money(_page(client, scenario, training_route="rent"), "fine_tune") == [2000.0, 0.0]
    # Owned: no one-off rental; the one training accelerator is bought, 30,000 USD of capex.
    owned = _page(client, scenario, training_route="own")
    assert _money(owned, "fine_tune") == [0.0, 30000.0]
    assert 'name="training_route" value="own"' in owned  # carried to "Use this option"
    # The options that do not train are unchanged.
    assert _money(owned, "own") == _money(html, "own")


def test_a_training_route_without_training_is_refused_beside_the_field(client):
    scenario = _scenario(None)
    html = _page(client, scenario, training_route="own", api_model="openai-gpt-4o")
    assert "This scenario trains nothing" in html
    assert 'aria-invalid="true"' in html
    assert 'value="openai-gpt-4o"' in html  # nothing lost
    assert "Cheapest by net present value" not in html


def test_using_an_option_with_a_training_route_keeps_the_route(client):
    scenario = _scenario(TRAINING)
    client.force_login(scenario.project.owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/options/use/", {"key": "fine_tune", "training_route": "own"}
    )
    assert response.status_code == 302
    copy = scenario.project.scenarios.exclude(pk=scenario.pk).get()
    assert copy.inputs["training"]["pricing_mode"] == "own"
