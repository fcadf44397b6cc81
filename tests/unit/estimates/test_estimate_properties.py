"""Properties over random valid inputs: monotone figures, scalar ≡ vectorised, always finite."""

import math
from dataclasses import fields, is_dataclass, replace
from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
    evaluate,
)
from apps.estimates.limits import RULES
from apps.estimates.money import to_money_figure


def value_of(name: str) -> st.SearchStrategy:
    """Any valid value of a field, extremes included."""
    rule = RULES[name]
    if rule.whole:
        return st.integers(int(rule.low), int(rule.high))
    values = st.floats(rule.low, rule.high, exclude_min=rule.low_open)
    return st.one_of(st.just(0.0), values) if rule.zero_allowed else values


@st.composite
def scenarios(draw: st.DrawFn, size: int | None = None, both: bool = False) -> tuple[dict, dict]:
    """A random valid scenario as (choices, numbers): choices are structural and shared, numbers
    map dotted paths to a value, or, with `size`, to a value or a list of `size` values."""
    choices = {
        "training": both or draw(st.booleans()),
        "inference": both or draw(st.booleans()),
    }
    wanted = ["energy.pue"]

    def maybe(path: str) -> None:
        if draw(st.booleans()):
            wanted.append(path)

    maybe("energy.kg_co2e_per_kwh")
    maybe("energy.electricity_price_per_kwh")
    for section in ("training", "inference"):
        if not choices[section]:
            continue
        methods = (
            ("parameters_tokens", "total_flop", "accelerator_hours")
            if section == "training"
            else ("accelerator_seconds", "tokens")
        )
        method = choices[f"{section}.method"] = draw(st.sampled_from(methods))
        needs_hardware = method not in ("accelerator_hours", "accelerator_seconds")
        if needs_hardware or draw(st.booleans()):
            choices[f"{section}.hardware"] = True
            wanted.append(f"{section}.hardware.peak_flops_per_second")
            maybe(f"{section}.hardware.memory_bandwidth_bytes_per_second")
            maybe(f"{section}.hardware.power_watts")
        mode = choices[f"{section}.pricing.mode"] = draw(st.sampled_from(("rent", "own")))
        if mode == "rent":
            wanted.append(f"{section}.pricing.price_per_accelerator_hour")
        else:
            wanted += [
                f"{section}.pricing.{name}"
                for name in ("purchase_price", "lifetime_years", "utilization_of_owned")
            ]
        if section == "training":
            wanted += ["training.mfu", "training.goodput", "training.accelerator_count"]
            wanted += {
                "parameters_tokens": [
                    "training.parameters",
                    "training.tokens",
                    "training.flop_per_parameter_token",
                    "training.runs",
                ],
                "total_flop": ["training.total_flop"],
                "accelerator_hours": ["training.accelerator_hours"],
            }[method]
            for index in range(draw(st.integers(0, 2))):
                wanted.append(f"thresholds.{index}.flop")
        else:
            choices["inference.provisioning"] = draw(st.sampled_from(("pay_per_use", "always_on")))
            wanted += [
                f"inference.{name}"
                for name in (
                    "requests_per_month",
                    "monthly_growth",
                    "months",
                    "peak_to_average",
                    "target_utilization",
                    "utilization",
                    "bytes_per_parameter",
                )
            ]
            tokens = ["inference.parameters", "inference.input_tokens", "inference.output_tokens"]
            if method == "tokens" or draw(st.booleans()):
                wanted += tokens
            if method == "accelerator_seconds":
                wanted.append("inference.accelerator_seconds_per_request")
            maybe("inference.latency_seconds")
            maybe("inference.revenue_per_request")
    numbers = {}
    for path in wanted:
        single = value_of(path.rsplit(".", 1)[-1])
        if size is None or draw(st.booleans()):
            numbers[path] = draw(single)
        else:
            numbers[path] = draw(st.lists(single, min_size=size, max_size=size))
    return choices, numbers


def build(choices: dict, numbers: dict) -> EstimateInput:
    def section(prefix: str) -> dict:
        given_here = {
            path[len(prefix) :]: value for path, value in numbers.items() if path.startswith(prefix)
        }
        return {name: value for name, value in given_here.items() if "." not in name}

    def hardware(name: str) -> Hardware | None:
        return Hardware(**section(f"{name}.hardware.")) if choices.get(f"{name}.hardware") else None

    def pricing(name: str) -> Pricing:
        return Pricing(mode=choices[f"{name}.pricing.mode"], **section(f"{name}.pricing."))

    training = inference = None
    if choices["training"]:
        training = TrainingInput(
            method=choices["training.method"],
            hardware=hardware("training"),
            pricing=pricing("training"),
            **section("training."),
        )
    if choices["inference"]:
        inference = InferenceInput(
            method=choices["inference.method"],
            hardware=hardware("inference"),
            provisioning=choices["inference.provisioning"],
            pricing=pricing("inference"),
            **section("inference."),
        )
    thresholds = tuple(
        Threshold(name=f"threshold {index}", flop=numbers[f"thresholds.{index}.flop"])
        for index in range(3)
        if f"thresholds.{index}.flop" in numbers
    )
    return EstimateInput(training, inference, EnergyProfile(**section("energy.")), thresholds)


def as_arrays(numbers: dict) -> dict:
    return {
        path: np.array(v, dtype=float) if isinstance(v, list) else v for path, v in numbers.items()
    }


def point(numbers: dict, index: int) -> dict:
    return {path: v[index] if isinstance(v, list) else v for path, v in numbers.items()}


TRAINING_TOKENS = TrainingInput(
    method="parameters_tokens",
    hardware=Hardware(peak_flops_per_second=989.4e12, power_watts=700.0),
    parameters=7e9,
    tokens=1e12,
    pricing=Pricing(price_per_accelerator_hour=2.5),
)


@given(
    tokens=st.floats(0, 1e17),
    more=st.floats(0, 1e17),
    parameters=value_of("parameters"),
    mfu=value_of("mfu"),
    price=value_of("price_per_accelerator_hour"),
)
def test_more_tokens_never_means_fewer_flop_or_less_cost(tokens, more, parameters, mfu, price):
    fewer, larger = sorted((tokens, more))

    def figures(count: float):
        training = replace(
            TRAINING_TOKENS,
            tokens=count,
            parameters=parameters,
            mfu=mfu,
            pricing=Pricing(price_per_accelerator_hour=price),
        )
        return evaluate(EstimateInput(training=training))

    low, high = figures(fewer), figures(larger)
    assert high.training_flop >= low.training_flop
    assert high.training_accelerator_hours >= low.training_accelerator_hours
    assert high.training_cost >= low.training_cost
    assert high.training_energy_kwh >= low.training_energy_kwh


@given(output=st.floats(0, 1e7), more=st.floats(0, 1e7), growth=value_of("monthly_growth"))
def test_more_output_tokens_never_make_serving_cheaper(output, more, growth):
    fewer, larger = sorted((output, more))

    def figures(count: float):
        inference = InferenceInput(
            method="tokens",
            hardware=TRAINING_TOKENS.hardware,
            parameters=7e9,
            input_tokens=500,
            output_tokens=count,
            requests_per_month=1e5,
            monthly_growth=growth,
            pricing=Pricing(price_per_accelerator_hour=2.5),
        )
        return evaluate(EstimateInput(inference=inference))

    low, high = figures(fewer), figures(larger)
    assert high.cost_per_request >= low.cost_per_request
    assert high.inference_cost >= low.inference_cost
    assert high.peak_accelerators >= low.peak_accelerators


def same(vector_value: float, scalar_value: object) -> bool:
    """Exact equality: both paths run the same float64 operations in the same order (NumPy's
    ufuncs give each element of an array the same bits as the lone scalar)."""
    if scalar_value is None:
        return math.isnan(vector_value)
    if isinstance(scalar_value, Decimal):
        return to_money_figure(vector_value) == scalar_value
    return float(vector_value) == scalar_value


@settings(max_examples=150, deadline=None)
@given(size=st.integers(1, 4), data=st.data())
def test_scalar_estimate_equals_each_element_of_the_vectorised_evaluate(size, data):
    choices, numbers = data.draw(scenarios(size=size))
    figures = evaluate(build(choices, as_arrays(numbers)))
    for index in range(size):
        result = estimate(build(choices, point(numbers, index)))
        training, inference, comparison = result.training, result.inference, result.comparison
        expected = {
            "training_flop": training and training.flop,
            "training_accelerator_hours": training and training.accelerator_hours,
            "training_wall_clock_hours": training and training.wall_clock_hours,
            "training_cost": training and training.cost,
            "training_energy_kwh": training and training.energy_kwh,
            "training_emissions_kg_co2e": training and training.emissions_kg_co2e,
            "inference_accelerator_seconds_per_request": inference
            and inference.per_request.accelerator_seconds,
            "inference_latency_seconds": inference and inference.per_request.latency_seconds,
            "inference_total_requests": inference and inference.total.requests,
            "inference_accelerator_hours": inference and inference.total.accelerator_hours,
            "inference_cost": inference and inference.total.cost,
            "inference_energy_kwh": inference and inference.total.energy_kwh,
            "peak_accelerators": inference and float(inference.peak_accelerators),
            "cost_per_request": inference and inference.per_request.cost,
            "break_even_months": comparison and comparison.break_even_months,
            "training_share": comparison and comparison.training_share,
        }
        for name, scalar_value in expected.items():
            vector_value = np.broadcast_to(getattr(figures, name), (size,))[index]
            assert same(vector_value, scalar_value), (name, index, vector_value, scalar_value)


def numbers_in(node: object) -> list:
    if is_dataclass(node):
        return [n for field in fields(node) for n in numbers_in(getattr(node, field.name))]
    if isinstance(node, tuple):
        return [n for item in node for n in numbers_in(item)]
    return [node] if isinstance(node, float | Decimal) else []


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_valid_input_never_yields_nan_or_infinity(scenario):
    result = estimate(build(*scenario))
    for number in numbers_in(result):
        assert number.is_finite() if isinstance(number, Decimal) else math.isfinite(number)


@settings(max_examples=300, deadline=None)
@given(scenarios(both=True))
def test_break_even_agrees_with_the_cumulative_series(scenario):
    comparison = estimate(build(*scenario)).comparison
    training = comparison.cumulative[0].training_accelerator_hours
    inference = [month.inference_accelerator_hours for month in comparison.cumulative]
    months = comparison.break_even_months
    # Amounts below 1e-290 are float noise: subnormal rounding (a break-even of 2.5e-324 months
    # reads 0) and underflow (5e-324 s per request makes a first month of 0 hours).
    slack = 1e-290
    if months is None:
        # A first month that underflows to 0 hours is no inference (h = 0) for break_even_months,
        # however far compound growth carries the noise by the last month (5e-324 requests
        # growing 800% a month reach 2.5e-290 hours in 40 months).
        if inference[1] > 0:
            assert inference[-1] <= training * (1 + 1e-9) + slack
    elif months <= len(inference) - 1:
        assert inference[math.ceil(months)] >= training * (1 - 1e-9) - slack
        assert inference[math.floor(months)] <= training * (1 + 1e-9) + slack
