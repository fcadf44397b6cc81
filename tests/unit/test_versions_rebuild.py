"""A version stored before the record codec (the estimate API's JSON) rebuilds the engine's
result, Messages and all, as migration 0009 reads it: estimate → response → rebuilt."""

import json
import math
from dataclasses import replace
from decimal import Decimal

import pytest
from django.utils import translation

from apps.api.serializers import EstimateResponseSerializer
from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    EstimateResult,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
)
from apps.estimates.messages import Message
from apps.projects.comparison import chart_rows
from apps.projects.describe import bottom_strip, describe
from apps.projects.migrations._legacy_records import legacy_estimate
from apps.words.messages import message_text
from tests.unit.estimates.serving_cases import LLAMA_33_70B, serving_input

H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15)
RENT = Pricing(mode="rent", price_per_accelerator_hour=2.99)
TRAINING = TrainingInput(
    method="parameters_tokens",
    hardware=H100,
    parameters=7e9,
    tokens=2e11,
    accelerator_count=64,
    pricing=RENT,
)
SERVING = InferenceInput(
    method="accelerator_seconds",
    hardware=H100,
    accelerator_seconds_per_request=2.0,
    requests_per_month=15_000,
    monthly_growth=0.07,
    months=24,
    peak_to_average=3.0,
    pricing=RENT,
    revenue_per_request=0.01,
)
THRESHOLDS = (Threshold(name="EU AI Act Art. 51(2)", flop=1e25),)


def stored_response(result: EstimateResult) -> dict:
    """The estimate response as a ScenarioVersion keeps it: the API contract, through JSON."""
    data = EstimateResponseSerializer(
        {
            "currency": "USD",
            "training": result.training,
            "inference": result.inference,
            "comparison": result.comparison,
            "engine_version": result.engine_version,
        }
    ).data
    return json.loads(json.dumps(data))


def round_trip(inp: EstimateInput) -> tuple[EstimateResult, EstimateResult]:
    result = estimate(inp)
    return result, legacy_estimate(stored_response(result)).result


def test_training_and_inference_rebuild_to_the_very_same_result():
    result, rebuilt = round_trip(
        EstimateInput(training=TRAINING, inference=SERVING, energy=ENERGY, thresholds=THRESHOLDS)
    )
    assert rebuilt == result


def test_training_only_rebuilds_to_the_very_same_result():
    result, rebuilt = round_trip(EstimateInput(training=TRAINING, thresholds=THRESHOLDS))
    assert rebuilt == result
    assert rebuilt.inference is None and rebuilt.comparison is None


def test_money_comes_back_as_decimal_to_the_cent():
    _, rebuilt = round_trip(EstimateInput(training=TRAINING, inference=SERVING))
    assert isinstance(rebuilt.training.cost, Decimal)
    assert isinstance(rebuilt.inference.monthly[0].cumulative_cost, Decimal)
    assert rebuilt.inference.total.cost.as_tuple().exponent == -2


def test_a_missing_figure_stays_missing():
    accelerator_hours_only = TrainingInput(
        method="accelerator_hours", accelerator_hours=200, pricing=RENT
    )
    result, rebuilt = round_trip(EstimateInput(training=accelerator_hours_only))
    assert rebuilt.training.flop is None and rebuilt.training.energy_kwh is None
    assert rebuilt == result


@pytest.mark.parametrize(
    "serving",
    [
        SERVING,
        replace(SERVING, monthly_growth=0.0),
        replace(SERVING, provisioning="always_on"),
        replace(SERVING, requests_per_month=3_333, months=36, revenue_per_request=None),
        replace(SERVING, pricing=Pricing(mode="own", purchase_price=30_000)),
    ],
    ids=["growing", "steady", "always-on", "36-months", "owned"],
)
def test_inference_only_rebuilds_its_months_to_date_from_the_monthly_list(serving):
    result, rebuilt = round_trip(EstimateInput(inference=serving, energy=ENERGY))
    months, rebuilt_months = result.inference.monthly, rebuilt.inference.monthly
    for month, again in zip(months, rebuilt_months, strict=True):
        assert math.isclose(
            again.cumulative_accelerator_hours, month.cumulative_accelerator_hours, rel_tol=1e-12
        )
        assert abs(again.cumulative_cost - month.cumulative_cost) <= Decimal("0.01")
    assert rebuilt_months[-1].cumulative_cost == result.inference.total.cost
    bare = [replace(m, cumulative_accelerator_hours=0.0, cumulative_cost=0) for m in months]
    rebuilt_bare = [
        replace(m, cumulative_accelerator_hours=0.0, cumulative_cost=0) for m in rebuilt_months
    ]
    assert rebuilt_bare == bare
    assert replace(rebuilt.inference, monthly=()) == replace(result.inference, monthly=())


@pytest.mark.parametrize("view", ["single", "many"])
def test_the_page_shows_the_same_words_and_figures_from_a_stored_response(view):
    for inp in (
        EstimateInput(training=TRAINING, inference=SERVING, energy=ENERGY, thresholds=THRESHOLDS),
        EstimateInput(inference=replace(SERVING, monthly_growth=0.0), energy=ENERGY),
    ):
        result, rebuilt = round_trip(inp)
        assert describe(rebuilt, view=view) == describe(result, view=view)
        assert bottom_strip(rebuilt, view=view) == bottom_strip(result, view=view)
        assert [row.month for row in chart_rows(rebuilt)] == [
            row.month for row in chart_rows(result)
        ]


def words(result: EstimateResult) -> list[str]:
    """Every sentence the pages word from a result."""
    texts = [*result.training.assumptions, result.training.cost_note] if result.training else []
    if result.inference:
        texts += result.inference.assumptions
        if result.inference.serving:
            texts.append(result.inference.serving.replica_chosen_because)
    return [message_text(text) for text in texts]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_english_of_a_stored_response_becomes_messages_worded_as_the_originals(language):
    unpriced = replace(TRAINING, pricing=Pricing(mode="own"))
    for inp in (
        EstimateInput(training=TRAINING, inference=SERVING, energy=ENERGY, thresholds=THRESHOLDS),
        EstimateInput(training=unpriced, inference=replace(SERVING, provisioning="always_on")),
        serving_input(LLAMA_33_70B, ttft_target_seconds=2.0, tpot_target_seconds=0.05),
    ):
        result, rebuilt = round_trip(inp)
        with translation.override(language):
            assert words(rebuilt) == words(result)
        kinds = [type(text) for text in rebuilt.inference.assumptions]
        assert kinds == [type(text) for text in result.inference.assumptions]
        assert Message in kinds
