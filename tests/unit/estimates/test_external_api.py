"""External model APIs priced per token and fine-tuning through an API, against hand computations."""

from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    EstimateInput,
    EstimateInputError,
    InferenceInput,
    TrainingInput,
    estimate,
    evaluate,
)

# 1,000 input tokens of which 400 cached, 500 output; 2.50 / 1.25 / 10 USD per million tokens.
API = {
    "method": "external_api",
    "input_tokens": 1000,
    "cached_input_tokens": 400,
    "output_tokens": 500,
    "price_per_million_input_tokens": 2.5,
    "price_per_million_cached_input_tokens": 1.25,
    "price_per_million_output_tokens": 10.0,
    "requests_per_month": 10_000,
}
FINE_TUNE = TrainingInput(
    method="api_fine_tune", tokens=2e6, epochs=3, price_per_million_training_tokens=25
)


def api(**changes) -> InferenceInput:
    return InferenceInput(**{**API, **changes})


def test_cost_per_request_bills_cached_input_at_the_cached_price():
    result = estimate(EstimateInput(inference=api()))
    # (600 × 2.50 + 400 × 1.25 + 500 × 10) / 1e6 = (1,500 + 500 + 5,000) / 1e6 = 0.007 USD
    assert result.inference.per_request.cost_per_1000 == Decimal("7.00")
    assert result.inference.monthly[0].cost == Decimal("70.00")
    assert evaluate(EstimateInput(inference=api())).cost_per_request == pytest.approx(0.007)


def test_a_batch_discount_takes_its_share_off_every_token():
    result = estimate(EstimateInput(inference=api(batch_discount=0.5)))
    assert result.inference.per_request.cost_per_1000 == Decimal("3.50")
    assert result.inference.total.cost == Decimal("420.00")  # 12 months × 35.00


def test_without_a_cached_price_cached_input_is_billed_as_input():
    result = estimate(EstimateInput(inference=api(price_per_million_cached_input_tokens=None)))
    # 1,000 × 2.50 + 500 × 10 = 7,500 per million requests' worth of tokens → 7.50 per 1,000
    assert result.inference.per_request.cost_per_1000 == Decimal("7.50")
    assert any("billed at the input price" in note for note in result.inference.assumptions)


def test_monthly_cost_follows_compound_growth():
    result = estimate(EstimateInput(inference=api(monthly_growth=0.1, months=3)))
    assert [month.cost for month in result.inference.monthly] == [
        Decimal("70.00"),
        Decimal("77.00"),
        Decimal("84.70"),
    ]
    assert result.inference.total.requests == pytest.approx(33_100)
    assert result.inference.total.cost == Decimal("231.70")
    assert [m.cumulative_cost for m in result.inference.monthly][-1] == Decimal("231.70")


def test_no_accelerators_and_no_energy_for_an_external_api():
    inference = estimate(EstimateInput(inference=api(revenue_per_request=0.01))).inference
    assert inference.peak_accelerators is None
    assert inference.per_request.accelerator_seconds is None
    assert inference.total.accelerator_hours is None and inference.total.energy_kwh is None
    assert inference.total.always_on_cost is None
    assert inference.monthly[0].accelerator_hours is None
    assert inference.gross_margin == pytest.approx(0.3)  # (0.01 − 0.007) / 0.01
    assert inference.peak_requests_per_second == pytest.approx(10_000 / (730.5 * 3600))


def test_fine_tuning_through_an_api_costs_tokens_times_epochs_times_price():
    result = estimate(EstimateInput(training=FINE_TUNE, inference=api(monthly_growth=0.1)))
    assert result.training.cost == Decimal("150.00")  # 2e6 × 3 × 25 / 1e6
    assert result.training.accelerator_hours is None and result.training.flop is None
    # Break-even on cost: 70 · (1.1^m − 1) / 0.1 = 150 → m = log(1 + 150·0.1/70) / log 1.1
    assert result.comparison.break_even_months_cost == pytest.approx(
        np.log1p(150 * 0.1 / 70) / np.log(1.1)
    )
    assert result.comparison.break_even_months is None  # accelerator-hours: neither has any
    assert result.comparison.cumulative[0].training_cost == Decimal("150.00")


def test_scalar_and_array_inputs_give_the_same_figures():
    demands = np.array([1e3, 1e5, 3e6])
    growths = np.array([0.0, 0.05, 0.2])
    swept = evaluate(
        EstimateInput(
            training=FINE_TUNE,
            inference=api(requests_per_month=demands, monthly_growth=growths, batch_discount=0.5),
        )
    )
    for index, (demand, growth) in enumerate(zip(demands, growths, strict=True)):
        one = evaluate(
            EstimateInput(
                training=FINE_TUNE,
                inference=api(
                    requests_per_month=float(demand),
                    monthly_growth=float(growth),
                    batch_discount=0.5,
                ),
            )
        )
        assert swept.inference_cost[index] == one.inference_cost
        assert swept.cost_per_request[index] == one.cost_per_request
        assert swept.training_cost[index] == one.training_cost
        assert np.isnan(swept.peak_accelerators[index]) and np.isnan(one.peak_accelerators)


def test_cached_input_above_the_input_is_refused_for_scalars_and_arrays():
    with pytest.raises(EstimateInputError) as error:
        estimate(EstimateInput(inference=api(cached_input_tokens=1001)))
    assert list(error.value.errors) == ["inference.cached_input_tokens"]
    with pytest.raises(EstimateInputError):
        evaluate(EstimateInput(inference=api(cached_input_tokens=np.array([10, 2000]))))


def test_an_external_api_needs_its_prices_and_a_fine_tune_its_price():
    with pytest.raises(EstimateInputError) as error:
        estimate(
            EstimateInput(
                training=TrainingInput(method="api_fine_tune", tokens=1e6),
                inference=api(price_per_million_output_tokens=None, batch_discount=1.5),
            )
        )
    assert set(error.value.errors) == {
        "training.price_per_million_training_tokens",
        "inference.price_per_million_output_tokens",
        "inference.batch_discount",
    }
