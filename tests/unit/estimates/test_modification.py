"""The EU guidelines' one-third rule for a fine-tune of another's model, on hand-computed cases."""

import json
from pathlib import Path

import numpy as np
import pytest

from apps.estimates import EstimateInput, Hardware, TrainingInput, TrainingResult, estimate
from apps.estimates.modification import (
    GPAI_INDICATOR_FLOP,
    BaseModel,
    modification_exceeds,
    modification_result,
    modification_share,
    modification_threshold_flop,
)
from apps.estimates.record import dump, load

LLAMA_405B = BaseModel("Meta Llama 3.1 405B", 3.8e25)  # 3.8e25 FLOP, Llama 3 paper
UNPUBLISHED = BaseModel("Meta Llama 3.1 8B", None)
H100 = Hardware(peak_flops_per_second=989.4e12, power_watts=700)


def test_a_small_fine_tune_of_llama_405b_is_far_below_one_third():
    # 1.52e23 / 3.8e25 = 0.004, i.e. 0.4 %; the line is 3.8e25 / 3 = 1.2667e25.
    result = modification_result(1.52e23, LLAMA_405B)
    assert result.share == pytest.approx(0.004)
    assert result.threshold_flop == pytest.approx(1.266667e25, rel=1e-6)
    assert result.exceeded is False
    assert result.fallback is False
    assert result.summary == (
        "This fine-tune uses 0.4 % of Meta Llama 3.1 405B's published training compute; the "
        "one-third rule is far away."
    )


def test_a_fine_tune_just_above_one_third_makes_the_modifier_a_provider():
    # 1.3e25 / 3.8e25 = 0.342 > 1/3.
    result = modification_result(1.3e25, LLAMA_405B)
    assert result.share == pytest.approx(0.3421, rel=1e-3)
    assert result.exceeded is True
    assert "34 %" in result.summary and "more than one third" in result.summary


def test_a_fine_tune_just_below_one_third_is_below_but_near():
    # 1.26e25 / 3.8e25 = 0.3316 < 1/3.
    result = modification_result(1.26e25, LLAMA_405B)
    assert result.share == pytest.approx(0.33158, rel=1e-4)
    assert result.exceeded is False
    assert "below one third, but near it" in result.summary


def test_exactly_one_third_is_not_more_than_one_third():
    assert not modification_exceeds(3.0e24, 9.0e24)


def test_unpublished_compute_falls_back_on_a_third_of_1e23_flop():
    assert modification_threshold_flop(None) == pytest.approx(3.333333e22, rel=1e-6)
    above = modification_result(3.4e22, UNPUBLISHED)
    below = modification_result(3.3e22, UNPUBLISHED)
    assert (above.fallback, above.exceeded, above.share) == (True, True, None)
    assert (below.fallback, below.exceeded) == (True, False)
    assert "not published" in below.summary and "stays below" in below.summary


def test_the_formulas_take_arrays_as_they_take_floats():
    flop = np.array([1.52e23, 1.26e25, 1.3e25])
    np.testing.assert_allclose(modification_share(flop, 3.8e25), [0.004, 0.33158, 0.34211], 1e-4)
    assert modification_exceeds(flop, 3.8e25).tolist() == [False, False, True]
    assert modification_exceeds(flop, None).tolist() == [True, True, True]


def test_the_estimate_reports_the_rule_for_a_named_base_model():
    training = TrainingInput(
        method="total_flop", total_flop=1.52e23, hardware=H100, base_model=LLAMA_405B
    )
    result = estimate(EstimateInput(training=training)).training
    assert result.modification.share == pytest.approx(0.004)
    without = estimate(EstimateInput(training=TrainingInput("total_flop", H100, total_flop=1e23)))
    assert without.training.modification is None


def test_the_engine_fallback_is_the_catalogue_indicator():
    data = json.loads(Path("apps/catalogue/data/catalogue.json").read_text(encoding="utf-8"))
    indicator = next(t for t in data["thresholds"] if t["slug"] == "eu-gpai-guidelines-indicator")
    assert indicator["flop"] == GPAI_INDICATOR_FLOP
    assert indicator["as_of"] == "2025-07-18" and indicator["source"]


def test_a_kept_training_result_keeps_its_modification_and_older_records_still_read():
    training = TrainingInput(
        method="total_flop", total_flop=1.3e25, hardware=H100, base_model=LLAMA_405B
    )
    result = estimate(EstimateInput(training=training)).training
    assert load(dump(result), TrainingResult) == result
    older = dump(result)
    del older["data"]["modification"]
    assert load(older, TrainingResult).modification is None
