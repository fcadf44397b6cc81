"""The scenario page's ranges: Low–High beside numbers, typical ranges, errors and result lines."""

import re

import pytest

from apps.projects.models import Scenario
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db
RANGED_INPUTS = {
    "training": SEED_000_TRAINING,
    "inference": seed_000_inference(15_000),
    "ranges": {
        "training.accelerator_hours": {"low": 100, "high": 400},
        "inference.requests_per_month": {"low": 5_000, "high": 50_000},
    },
    "uncertainty": {"seed": 7, "samples": 2_000},
}


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def text(html: str) -> str:
    """The page's words, without tags, one space between."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_scenario_with_ranges_shows_central_estimates_with_9_in_10_ranges(client, manager):
    scenario = make_scenario(make_project(manager), inputs=RANGED_INPUTS)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    words = text(html)
    # Training hours are the range itself: median 200, 5th and 95th percentiles near 100 and 400,
    # to two significant figures.
    assert re.search(
        r"Training accelerator-hours : central estimate 200 accelerator-hours "
        r"\(9 in 10 chance between (98|99|100|110) accelerator-hours and "
        r"(390|400|410) accelerator-hours\s*\)",
        words,
    ), words
    assert "never break even within the horizon" in words
    # The form shows the stored range beside its number, and the seed to keep.
    assert (
        'name="training_accelerator_hours_low" id="id_training_accelerator_hours_low" value="100"'
        in html
    )
    assert 'name="uncertainty_seed" value="7"' in html


def test_a_scenario_without_ranges_shows_no_range_lines(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "9 in 10 chance" not in html
    assert "I am 90 % sure it is between" in html


def test_saving_ranges_from_the_form_stores_them_in_the_inputs(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(
            training_mfu_low="30", training_mfu_high="50", training_accelerator_hours_low="150",
            training_accelerator_hours_high="300",
        ),
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    scenario.refresh_from_db()
    assert scenario.inputs["ranges"] == {
        "training.accelerator_hours": {"low": 150, "high": 300},
        "training.mfu": {"low": pytest.approx(0.3), "high": pytest.approx(0.5)},
    }
    assert isinstance(scenario.inputs["uncertainty"]["seed"], int)
    assert "9 in 10 chance between" in client.get(f"/scenarios/{scenario.pk}/").content.decode()


def test_a_range_with_low_above_high_is_an_error_beside_it_and_nothing_is_saved(client, manager):
    scenario = make_scenario(make_project(manager))
    before = dict(scenario.inputs)
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(training_mfu_low="50", training_mfu_high="30"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html
    assert 'href="#id_training_mfu_low"' in html
    assert 'id="id_training_mfu_low_error"' in html
    assert "is above the high end" in html
    assert 'value="50"' in html and 'value="30"' in html
    scenario.refresh_from_db()
    assert scenario.inputs == before


def test_half_a_range_asks_for_both_ends(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/", scenario_post(training_mfu_low="30"))
    assert "Give both ends, or neither." in response.content.decode()


def test_use_a_typical_range_fills_the_published_prior_and_saves_nothing(client, manager):
    scenario = make_scenario(make_project(manager))
    before = dict(scenario.inputs)
    url = f"/scenarios/{scenario.pk}/"
    html = client.post(url, scenario_post(typical_range="training_mfu")).content.decode()
    # Utilisation 0.10 to 0.65 (Epoch AI's prior), shown in percent.
    assert 'name="training_mfu_low" id="id_training_mfu_low" value="10"' in html
    assert 'name="training_mfu_high" id="id_training_mfu_high" value="65"' in html
    assert "Epoch AI&#x27;s prior for utilisation" in html
    # Given accelerator-hours, MFU moves only the FLOP: the hours are the same in every sample.
    assert "central estimate 200 accelerator-hours , the same in 9 in 10 samples" in text(html)
    html = client.post(
        url, scenario_post(typical_range="training_accelerator_hours")
    ).content.decode()
    # Training compute ×1/3 to ×3 of the 200 accelerator-hours typed.
    assert 'id="id_training_accelerator_hours_low" value="66.66666667"' in html
    assert 'id="id_training_accelerator_hours_high" value="600"' in html
    assert "9 in 10 chance between" in html
    assert Scenario.objects.get(pk=scenario.pk).inputs == before


def test_a_typical_price_range_needs_a_price_typed_first(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(typical_range="training_price_per_accelerator_hour"),
    ).content.decode()
    assert "Type a value first" in html


def test_the_live_preview_shows_the_ranges_while_typing(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        scenario_post(inference_requests_per_month_low="5000", inference_requests_per_month_high="50000"),
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    assert "Inference cost over the horizon" in text(html)
    assert "9 in 10 chance between" in html
