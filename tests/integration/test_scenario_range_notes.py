"""The scenario page says when samples were clipped to valid values, and which prices are shared."""

import re

import pytest

from tests.factories import SEED_000_TRAINING, make_project, make_scenario, seed_000_inference
from tests.integration.test_scenario_page_ranges import manager, text  # noqa: F401

pytestmark = pytest.mark.django_db


def test_clipped_samples_and_a_shared_price_are_said_on_the_page(client, manager):  # noqa: F811
    inputs = {
        "training": SEED_000_TRAINING,
        "inference": seed_000_inference(15_000),
        "ranges": {
            # ln-normal with its 95th percentile at 0.99: about 1 in 25 samples lie above 1.
            "inference.target_utilization": {"low": 0.5, "high": 0.99},
            "training.price_per_accelerator_hour": {"low": 1, "high": 4},
        },
        "uncertainty": {"seed": 3, "samples": 20_000},
    }
    scenario = make_scenario(make_project(manager), inputs=inputs)
    words = text(client.get(f"/scenarios/{scenario.pk}/").content.decode())
    # P(ln X > 0) for ln X ~ N(−0.352, 0.208): 4.5 %.
    match = re.search(
        r"Planned busy share of each accelerator \(%\): ([\d.]+)% of its samples fell outside "
        r"the values it can take and were set to the nearest valid value\.",
        words,
    )
    assert match, words
    assert 3.8 <= float(match.group(1)) <= 5.2
    assert (
        "Price per accelerator-hour (USD): one sample serves training and inference, "
        "the same price for both."
    ) in words


def test_without_clipping_nothing_is_said_about_it(client, manager):  # noqa: F811
    inputs = {
        "training": SEED_000_TRAINING,
        "inference": seed_000_inference(15_000),
        "ranges": {"inference.requests_per_month": {"low": 5_000, "high": 50_000}},
        "uncertainty": {"seed": 3, "samples": 2_000},
    }
    scenario = make_scenario(make_project(manager), inputs=inputs)
    words = text(client.get(f"/scenarios/{scenario.pk}/").content.decode())
    assert "9 in 10 chance between" in words
    assert "fell outside the values" not in words and "one sample serves" not in words
