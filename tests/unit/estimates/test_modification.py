"""The EU guidelines' one-third rule for a fine-tune of another's model, on hand-computed cases."""

import json
from pathlib import Path

import numpy as np
import pytest

from apps.estimates import EstimateInput, Hardware, TrainingInput, TrainingResult, estimate
from apps.estimates.modification import (
    GPAI_INDICATOR_FLOP,
    GUIDELINES_FALLBACK_QUOTE,
    GUIDELINES_RULE_QUOTE,
    SYSTEMIC_RISK_FLOP,
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


def test_an_original_with_systemic_risk_and_unpublished_compute_falls_back_on_1e25_over_3():
    # Paragraph 64: "a third of the threshold for a model being presumed to have high-impact
    # capabilities (i.e. currently 10^25 FLOP)": 3.3333e24.
    original = BaseModel("A frontier model", None, systemic_risk=True)
    assert modification_threshold_flop(None, systemic_risk=True) == pytest.approx(3.333333e24)
    above = modification_result(3.4e24, original)
    below = modification_result(3.3e24, original)
    assert (above.fallback, above.systemic_risk, above.exceeded) == (True, True, True)
    assert (below.exceeded, below.threshold_flop) == (False, pytest.approx(1e25 / 3))
    assert "a third of 10^25 FLOP" in below.summary and "stays below" in below.summary
    # 3.4e22 is above the other fallback (10^23 / 3) but far below this one.
    assert modification_result(3.4e22, original).exceeded is False
    # Where the original's compute is published, a third of it, systemic risk or not.
    published = BaseModel("Meta Llama 3.1 405B", 3.8e25, systemic_risk=True)
    assert modification_result(1.3e25, published).threshold_flop == pytest.approx(3.8e25 / 3)


def test_the_fallback_follows_the_guidelines_words_quoted():
    assert "greater than a third of the training compute of the original model" in (
        GUIDELINES_RULE_QUOTE
    )
    assert "currently 10^25 FLOP, see Article 51(2) AI Act" in GUIDELINES_FALLBACK_QUOTE
    otherwise = (
        "Otherwise, it should be replaced with a third of the threshold for a model being "
        "presumed to be a general-purpose AI model (i.e. currently 10^23 FLOP"
    )
    assert otherwise in GUIDELINES_FALLBACK_QUOTE
    assert (SYSTEMIC_RISK_FLOP, GPAI_INDICATOR_FLOP) == (1e25, 1e23)


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
    # The fallback's wording was read in the final text of 18 July 2025, and quoted.
    assert indicator["evidence"] == "P"
    assert "[U" not in indicator["notes"]
    assert GUIDELINES_FALLBACK_QUOTE in indicator["notes"]
    assert "C(2025) 5045 final, Brussels, 18 July 2025" in indicator["source"]


def test_a_kept_training_result_keeps_its_modification_and_older_records_still_read():
    training = TrainingInput(
        method="total_flop", total_flop=1.3e25, hardware=H100, base_model=LLAMA_405B
    )
    result = estimate(EstimateInput(training=training)).training
    assert load(dump(result), TrainingResult) == result
    older = dump(result)
    del older["data"]["modification"]
    assert load(older, TrainingResult).modification is None
