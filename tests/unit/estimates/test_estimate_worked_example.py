"""The worked example of seed 000: 200 accelerator-hours of fine-tuning, 2 s per request."""

import numpy as np
import pytest

from apps.estimates import (
    EstimateInput,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
    evaluate,
)

RENT = Pricing(mode="rent", price_per_accelerator_hour=2.0)


def translation_assistant(requests_per_month: float) -> EstimateInput:
    # "Fine-tuning uses 200 accelerator-hours. After deployment, each request uses about
    # 2 seconds of accelerator time."
    return EstimateInput(
        training=TrainingInput(method="accelerator_hours", accelerator_hours=200.0, pricing=RENT),
        inference=InferenceInput(
            method="accelerator_seconds",
            accelerator_seconds_per_request=2.0,
            requests_per_month=requests_per_month,
            months=12,
            pricing=RENT,
        ),
    )


def test_pilot_inference_uses_about_8_3_accelerator_hours_a_month():
    # 15,000 requests · 2 s = 30,000 s = 8.333 accelerator-hours.
    result = estimate(translation_assistant(15_000))
    month = result.inference.monthly[0]
    assert month.requests == 15_000
    assert month.accelerator_hours == pytest.approx(8.333, abs=5e-4)
    assert round(month.accelerator_hours, 1) == 8.3


def test_wider_use_inference_uses_about_166_7_accelerator_hours_a_month():
    # 300,000 requests · 2 s = 600,000 s = 166.67 accelerator-hours.
    result = estimate(translation_assistant(300_000))
    assert result.inference.monthly[0].accelerator_hours == pytest.approx(166.67, abs=5e-3)


def test_training_stays_200_accelerator_hours_whatever_the_demand():
    for requests in (15_000, 300_000):
        assert estimate(translation_assistant(requests)).training.accelerator_hours == 200.0


def test_pilot_breaks_even_after_24_months_and_wider_use_after_1_2_months():
    # 200 / 8.333 = 24 months; 200 / 166.67 = 1.2 months.
    pilot = estimate(translation_assistant(15_000)).comparison
    wider = estimate(translation_assistant(300_000)).comparison
    assert pilot.break_even_months == pytest.approx(24.0, rel=1e-12)
    assert not pilot.within_horizon
    assert wider.break_even_months == pytest.approx(1.2, rel=1e-12)
    assert wider.within_horizon


def test_training_dominates_at_pilot_scale_and_inference_at_wider_use():
    # Over 12 months: pilot 200 / (200 + 100) = 0.667; wider 200 / (200 + 2000) = 0.091.
    pilot = estimate(translation_assistant(15_000)).comparison
    wider = estimate(translation_assistant(300_000)).comparison
    assert pilot.training_share == pytest.approx(2 / 3)
    assert pilot.training_share > 0.5
    assert wider.training_share == pytest.approx(200 / 2200)
    assert wider.inference_share > 0.5


def test_sweep_over_both_demand_levels_gives_the_same_figures():
    figures = evaluate(translation_assistant(np.array([15_000.0, 300_000.0])))
    assert figures.break_even_months == pytest.approx([24.0, 1.2], rel=1e-12)
    assert figures.inference_accelerator_hours == pytest.approx([100.0, 2000.0], rel=1e-12)
