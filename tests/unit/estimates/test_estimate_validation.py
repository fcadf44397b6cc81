"""Validation of engine inputs: every rule answers at its field's key, in plain words."""

import math
from dataclasses import fields, is_dataclass, replace
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    EstimateInputError,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
    evaluate,
    validate,
)
from apps.estimates.limits import RULES

H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)
# With the figures serving needs; on the training side, so that the serving inputs below are
# range-checked without the checks across fields (tests/unit/estimates/test_serving_inputs.py).
H100_NODE = replace(
    H100, memory_bytes=80e9, accelerators_per_node=8, interconnect_bytes_per_second=900e9
)
# Every optional number is filled in, so that every rule is exercised.
VALID = EstimateInput(
    training=TrainingInput(
        method="parameters_tokens",
        hardware=H100_NODE,
        parameters=7e9,
        tokens=2e12,
        total_flop=1e23,
        accelerator_hours=100.0,
        pricing=Pricing(mode="own", purchase_price=30_000.0, price_per_accelerator_hour=2.0),
        price_per_million_training_tokens=3.0,
    ),
    inference=InferenceInput(
        method="tokens",
        hardware=H100,
        accelerator_seconds_per_request=2.0,
        parameters=7e9,
        input_tokens=1000,
        output_tokens=500,
        latency_seconds=1.0,
        requests_per_month=10_000,
        monthly_growth=0.05,
        revenue_per_request=0.01,
        pricing=Pricing(price_per_accelerator_hour=2.0),
        total_parameters=7e9,
        layers=32,
        kv_heads=8,
        head_dim=128,
        query_heads=32,
        hidden_size=4096,
        kv_latent_width=576,
        sliding_window=4096,
        sliding_window_layers=16,
        experts_total=8,
        experts_active=2,
        kv_cache_bytes_per_token=131_072,
        accelerators_per_replica=1,
        ttft_target_seconds=2.0,
        tpot_target_seconds=0.05,
        cached_input_tokens=200,
        price_per_million_input_tokens=2.5,
        price_per_million_cached_input_tokens=1.25,
        price_per_million_output_tokens=10.0,
        commitment_discount=0.4,
        committed_accelerators=2,
    ),
    energy=EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15),
    thresholds=(Threshold("EU AI Act", 1e25),),
)


def numeric_paths(node: object, prefix: str = "") -> list[str]:
    paths = []
    for field in fields(node):
        value = getattr(node, field.name)
        path = f"{prefix}{field.name}"
        if is_dataclass(value):
            paths += numeric_paths(value, f"{path}.")
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                paths += numeric_paths(item, f"{path}.{index}.")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            paths.append(path)
    return paths


NUMERIC_PATHS = numeric_paths(VALID)


def with_value(node: object, path: str, value: object) -> object:
    head, _, rest = path.partition(".")
    if isinstance(node, tuple):
        index = int(head)
        return (*node[:index], with_value(node[index], rest, value), *node[index + 1 :])
    if not rest:
        return replace(node, **{head: value})
    return replace(node, **{head: with_value(getattr(node, head), rest, value)})


def errors_for(inp: EstimateInput) -> dict[str, list[str]]:
    with pytest.raises(EstimateInputError) as raised:
        validate(inp)
    return raised.value.errors


def rule_for(path: str):
    return RULES[path.rsplit(".", 1)[-1]]


def test_the_valid_example_covers_every_rule_and_passes():
    validate(VALID)
    assert {path.rsplit(".", 1)[-1] for path in NUMERIC_PATHS} == set(RULES)


@pytest.mark.parametrize("path", NUMERIC_PATHS)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, float("1e400")])
def test_every_number_rejects_nan_and_infinity(path, bad):
    errors = errors_for(with_value(VALID, path, bad))
    assert list(errors) == [path]
    assert errors[path] == [f"{rule_for(path).label} must be a finite number, not infinity or NaN."]


@pytest.mark.parametrize("path", NUMERIC_PATHS)
def test_every_number_rejects_negatives(path):
    assert errors_for(with_value(VALID, path, -1.5)) == {path: [rule_for(path).message]}


@pytest.mark.parametrize("path", NUMERIC_PATHS)
def test_every_number_rejects_values_just_above_its_upper_bound(path):
    too_big = float(np.nextafter(rule_for(path).high, math.inf))
    assert errors_for(with_value(VALID, path, too_big)) == {path: [rule_for(path).message]}


# Cached input tokens are part of the input tokens, a check across the two: at either end of
# one, the other is set where the pair stays valid.
PARTNER_WITHIN_RANGE = {
    "inference.input_tokens": ("inference.cached_input_tokens", 0.0),
    "inference.cached_input_tokens": ("inference.input_tokens", RULES["input_tokens"].high),
}


@pytest.mark.parametrize("path", NUMERIC_PATHS)
def test_every_number_accepts_both_ends_of_its_range(path):
    rule = rule_for(path)
    low = float(np.nextafter(rule.low, math.inf)) if rule.low_open else rule.low
    base = VALID
    if path in PARTNER_WITHIN_RANGE:
        base = with_value(VALID, *PARTNER_WITHIN_RANGE[path])
    validate(with_value(base, path, low))
    validate(with_value(base, path, rule.high))


@pytest.mark.parametrize("path", NUMERIC_PATHS)
def test_every_number_rejects_text_and_booleans(path):
    for value in ("12", True):
        errors = errors_for(with_value(VALID, path, value))
        assert errors == {path: [f"{rule_for(path).label} must be a number."]}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            "training.mfu",
            0.0,
            "MFU must be more than 0 (at least 0.001) and at most 1 (typical 0.14–0.5).",
        ),
        ("training.mfu", 1.01, None),
        ("training.goodput", 0.0, None),
        (
            "training.runs",
            0.5,
            "Runs must be at least 1 and at most 10,000; count failed and experimental runs too.",
        ),
        ("training.accelerator_count", 0.0, None),
        (
            "energy.pue",
            0.99,
            "PUE must be at least 1 (no facility overhead) and at most 10; "
            "typical data centres are 1.1–1.6.",
        ),
        (
            "inference.months",
            12.5,
            "The horizon must be a whole number of months from 1 to 240 (20 years).",
        ),
        ("inference.months", 0, None),
        ("inference.months", 241, None),
        ("inference.monthly_growth", -1.0, None),
        ("inference.monthly_growth", 10.5, None),
        ("inference.peak_to_average", 0.9, None),
        ("inference.target_utilization", 0.0, None),
        ("inference.utilization", 0.0, None),
        ("inference.revenue_per_request", 1e-9, None),
        ("training.pricing.lifetime_years", 0.0, None),
        ("training.pricing.utilization_of_owned", 0.0, None),
        ("training.hardware.peak_flops_per_second", 0.0, None),
    ],
)
def test_each_range_rule_answers_at_its_key(path, value, message):
    expected = message if message is not None else rule_for(path).message
    assert errors_for(with_value(VALID, path, value)) == {path: [expected]}


def test_revenue_of_zero_means_no_revenue_and_is_accepted():
    validate(with_value(VALID, "inference.revenue_per_request", 0.0))


def test_growth_just_above_minus_one_is_accepted():
    validate(with_value(VALID, "inference.monthly_growth", -0.999999))


def test_defaults_that_are_required_cannot_be_blanked():
    assert errors_for(with_value(VALID, "training.mfu", None)) == {
        "training.mfu": ["MFU is needed."]
    }
    errors = errors_for(with_value(VALID, "inference.months", None))
    assert errors == {"inference.months": ["Horizon is needed."]}


@pytest.mark.parametrize(
    ("path", "method_path", "method"),
    [
        ("training.parameters", "training.method", "parameters_tokens"),
        ("training.tokens", "training.method", "parameters_tokens"),
        ("training.total_flop", "training.method", "total_flop"),
        ("training.accelerator_hours", "training.method", "accelerator_hours"),
        ("inference.accelerator_seconds_per_request", "inference.method", "accelerator_seconds"),
        ("inference.parameters", "inference.method", "tokens"),
        ("inference.input_tokens", "inference.method", "tokens"),
        ("inference.output_tokens", "inference.method", "tokens"),
    ],
)
def test_each_method_requires_its_numbers(path, method_path, method):
    inp = with_value(with_value(VALID, method_path, method), path, None)
    assert errors_for(inp) == {path: [f"{rule_for(path).label} is needed for this method."]}


def test_training_from_flop_needs_an_accelerator_but_accelerator_hours_do_not():
    no_hardware = with_value(VALID, "training.hardware", None)
    assert list(errors_for(no_hardware)) == ["training.hardware"]
    validate(with_value(no_hardware, "training.method", "accelerator_hours"))


def test_inference_from_tokens_needs_an_accelerator():
    assert list(errors_for(with_value(VALID, "inference.hardware", None))) == ["inference.hardware"]


def test_serving_needs_a_price_to_rent_and_a_purchase_price_to_own():
    errors = errors_for(with_value(VALID, "inference.pricing.price_per_accelerator_hour", None))
    assert errors == {
        "inference.pricing.price_per_accelerator_hour": [
            "Price per accelerator-hour is needed to rent."
        ]
    }
    owned = with_value(VALID, "inference.pricing", Pricing(mode="own"))
    errors = errors_for(owned)
    assert errors == {"inference.pricing.purchase_price": ["Purchase price is needed to own."]}


def test_training_without_a_price_is_valid_it_goes_unpriced():
    validate(with_value(VALID, "training.pricing.price_per_accelerator_hour", None))
    validate(with_value(VALID, "training.pricing", Pricing(mode="own")))


def test_unknown_choices_are_rejected_at_their_key():
    inp = with_value(VALID, "training.method", "guess")
    inp = with_value(inp, "inference.provisioning", "sometimes")
    inp = with_value(inp, "inference.pricing.mode", "lease")
    errors = errors_for(inp)
    assert set(errors) == {"training.method", "inference.provisioning", "inference.pricing.mode"}
    assert errors["inference.pricing.mode"] == ["Choose rent or own: one of rent, own."]


def test_all_errors_are_reported_at_once():
    inp = with_value(VALID, "training.mfu", 2.0)
    inp = with_value(inp, "energy.pue", 0.5)
    inp = with_value(inp, "thresholds.0.flop", -1.0)
    errors = errors_for(inp)
    assert set(errors) == {"training.mfu", "energy.pue", "thresholds.0.flop"}
    assert isinstance(EstimateInputError(errors), ValueError)


def test_one_bad_element_of_an_array_rejects_the_array():
    mfu = np.array([0.3, 0.4, 1.5])
    errors = errors_for(with_value(VALID, "training.mfu", mfu))
    assert errors == {"training.mfu": [RULES["mfu"].message]}
    nan_inside = np.array([0.3, np.nan])
    assert "finite" in errors_for(with_value(VALID, "training.mfu", nan_inside))["training.mfu"][0]
    validate(with_value(VALID, "training.mfu", np.array([0.3, 0.4, 1.0])))


@pytest.mark.parametrize("path", NUMERIC_PATHS)
def test_every_rule_judges_an_array_as_it_judges_each_of_its_numbers(path):
    rule = rule_for(path)
    low, high = rule.low, rule.high
    below, above = float(np.nextafter(low, -math.inf)), float(np.nextafter(high, math.inf))
    for values in (
        [low, high, (low + high) / 2],
        [high, low, above],
        [below, high],
        [0.0, high],
        [low, math.nan, high],
        [-math.inf, high],
        [low, math.inf],
        [low, 2.5, high],
    ):
        expected = all(rule.accepts_number(value) for value in values)
        assert rule.accepts(np.array(values)) == expected, values
    assert rule.accepts(np.array([]))


def test_evaluate_validates_arrays_too():
    with pytest.raises(EstimateInputError):
        evaluate(with_value(VALID, "inference.months", np.array([12.0, 300.0])))


def test_a_decimal_is_a_number():
    validate(with_value(VALID, "inference.pricing.price_per_accelerator_hour", Decimal("2.5")))


def all_numbers(node: object) -> list:
    """Every float and Decimal in a result, walking dataclasses and tuples."""
    if is_dataclass(node):
        return [n for field in fields(node) for n in all_numbers(getattr(node, field.name))]
    if isinstance(node, tuple):
        return [n for item in node for n in all_numbers(item)]
    return [node] if isinstance(node, float | Decimal) else []


def extreme(path_values: dict[str, object]) -> EstimateInput:
    inp = VALID
    for path, value in path_values.items():
        inp = with_value(inp, path, value)
    return inp


@pytest.mark.parametrize("provisioning", ["pay_per_use", "always_on"])
@pytest.mark.parametrize("mode", ["rent", "own"])
def test_the_most_extreme_valid_input_stays_finite(provisioning, mode):
    # Everything that multiplies at its maximum and everything that divides at its minimum.
    largest = {path: rule_for(path).high for path in NUMERIC_PATHS}
    smallest_divisors = {
        path: rule_for(path).low
        for path in NUMERIC_PATHS
        if path.rsplit(".", 1)[-1]
        in {
            "peak_flops_per_second",
            "memory_bandwidth_bytes_per_second",
            "lifetime_years",
            "utilization_of_owned",
            "mfu",
            "goodput",
            "utilization",
            "target_utilization",
            "revenue_per_request",
        }
    }
    inp = extreme(
        {
            **largest,
            **smallest_divisors,
            "inference.provisioning": provisioning,
            "inference.pricing.mode": mode,
            "inference.pricing.purchase_price": rule_for("x.purchase_price").high,
            "inference.latency_seconds": None,
        }
    )
    result = estimate(inp)
    assert all(
        n.is_finite() if isinstance(n, Decimal) else math.isfinite(n) for n in all_numbers(result)
    )
    figures = evaluate(inp)
    for field in fields(figures):
        value = getattr(figures, field.name)
        assert not math.isinf(value), field.name
        # Serving figures are NaN here by design: this input has no serving plan (see VALID);
        # nor does it give a life-cycle or water figure, so the footprint's are "not published".
        unknown = ("break_even_months", "serving_")
        not_published = ("_embodied_kg_co2e", "_water_litres")
        assert (
            not math.isnan(value)
            or field.name.startswith(unknown)
            or field.name.endswith(not_published)
        ), field.name


def test_the_smallest_valid_input_stays_finite():
    inp = extreme(
        {
            **{path: rule_for(path).low for path in NUMERIC_PATHS if not rule_for(path).low_open},
            "inference.monthly_growth": float(np.nextafter(-1.0, 0.0)),
            "inference.requests_per_month": 5e-324,
            "inference.revenue_per_request": 1e-6,
        }
    )
    result = estimate(inp)
    assert all(
        n.is_finite() if isinstance(n, Decimal) else math.isfinite(n) for n in all_numbers(result)
    )
