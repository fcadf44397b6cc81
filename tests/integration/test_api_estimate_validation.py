"""The estimate API's fast request checks agree with EstimateRequestSerializer, which they skip."""

import functools
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from apps.api.estimate import ESTIMATE_REQUEST
from apps.api.serializers import EstimateRequestSerializer, StrictSerializer
from apps.api.validation import FastValidator
from tests.factories import SEED_000_TRAINING, seed_000_inference

GOOD_BODIES = {
    "seed 000": {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)},
    "training only": {"training": SEED_000_TRAINING},
    "inference only": {"inference": seed_000_inference(15_000)},
    "every field": {
        "training": {
            "method": "parameters_tokens",
            "parameters": 7e9,
            "tokens": 2e12,
            "flop_per_parameter_token": 8,
            "runs": 2,
            "total_flop": 1e21,
            "accelerator_hours": 10,
            "accelerator": "nvidia-h100-sxm",
            "accelerator_count": 64,
            "precision": "fp8",
            "mfu": 0.35,
            "goodput": 0.9,
            "price_per_accelerator_hour": 2.5,
            "pricing_mode": "own",
            "purchase_price": 30000,
            "lifetime_years": 4,
            "utilization_of_owned": 0.6,
        },
        "inference": {
            "method": "tokens",
            "accelerator_seconds_per_request": 0.2,
            "parameters": 7e9,
            "input_tokens": 500,
            "output_tokens": 300,
            "accelerator": "amd-mi300x",
            "precision": "fp16",
            "utilization": 0.25,
            "latency_seconds": 1.5,
            "requests_per_month": 1e6,
            "monthly_growth": -0.02,
            "months": 36.0,
            "peak_to_average": 3,
            "target_utilization": 0.6,
            "provisioning": "always_on",
            "revenue_per_request": 0.01,
            "pricing_mode": "rent",
        },
        "energy_profile": "us-grid-hyperscale-pue",
        "pue": 1.2,
        "kg_co2e_per_kwh": 0,
        "electricity_price_per_kwh": 0.1,
    },
    "serving fields": {
        "inference": {
            "method": "tokens",
            "model": "llama-3.1-8b",
            "parameters": 8e9,
            "total_parameters": 8e9,
            "layers": 32,
            "kv_heads": 8,
            "head_dim": 128,
            "kv_cache_bytes_per_token": 131072,
            "kv_cache_bytes_per_element": 1,
            "memory_utilization": 0.92,
            "memory_efficiency": 0.65,
            "accelerators_per_replica": 2,
            "ttft_target_seconds": 0.5,
            "tpot_target_seconds": 0.03,
            "bytes_per_parameter": 0.5,
            "input_tokens": 500,
            "output_tokens": 300,
            "accelerator": "nvidia-h100-sxm",
        }
    },
    # The serializer checks types and shapes; ranges are the engine's (a 400 from there).
    "out of the engine's range": {"training": {**SEED_000_TRAINING, "mfu": 7, "runs": -1e300}},
    "unknown slugs are the catalogue's business": {
        "training": {**SEED_000_TRAINING, "accelerator": "nvidia-h9000"},
        "energy_profile": "the-moon",
    },
    "months at the field's bounds": {"inference": seed_000_inference(1, months=-(10**6))},
    "ranges and their settings": {
        "training": SEED_000_TRAINING,
        "inference": seed_000_inference(15_000),
        "ranges": {
            "training.accelerator_hours": {"low": 100, "high": 400},
            "inference.monthly_growth": {"low": -0.5, "high": 0.25},
            "pue": {"high": 1.4, "low": 1.1},
            "training.mfu": {"low": 0.3, "high": 0.3},
        },
        "uncertainty": {"samples": 2000.0, "seed": 7},
    },
}

BAD_BODIES = {
    "not an object": [1, 2, 3],
    "null": None,
    "a string": "training",
    "empty object": {},
    "empty sections": {"training": {}, "inference": {}},
    "section null": {"training": None},
    "section a string": {"training": "lots"},
    "unknown top-level field": {"training": SEED_000_TRAINING, "trainig": {}},
    "unknown section field": {"training": {**SEED_000_TRAINING, "mfu ": 0.4}},
    "method missing": {"training": {"accelerator_hours": 200}},
    "method unknown": {"training": {"method": "fine_tune"}},
    "method not a string": {"training": {**SEED_000_TRAINING, "method": 1}},
    "number as a string": {"training": {**SEED_000_TRAINING, "accelerator_hours": "200"}},
    "number as a boolean": {"training": {**SEED_000_TRAINING, "accelerator_hours": True}},
    "number null": {"training": {**SEED_000_TRAINING, "accelerator_hours": None}},
    "number a list": {"training": {**SEED_000_TRAINING, "accelerator_hours": [200]}},
    "NaN": {"training": {**SEED_000_TRAINING, "accelerator_hours": math.nan}},
    "infinity": {"training": {**SEED_000_TRAINING, "mfu": -math.inf}},
    "integer beyond a float": {"training": {**SEED_000_TRAINING, "accelerator_hours": 10**400}},
    "months fractional": {"inference": seed_000_inference(1, months=2.5)},
    "months beyond its bounds": {"inference": seed_000_inference(1, months=10**6 + 1)},
    "months a string": {"inference": seed_000_inference(1, months="12")},
    "months infinite": {"inference": seed_000_inference(1, months=math.inf)},
    "precision unknown": {"training": {**SEED_000_TRAINING, "precision": "fp2"}},
    "choice blank": {"training": {**SEED_000_TRAINING, "pricing_mode": ""}},
    "slug null": {"inference": {**seed_000_inference(1), "accelerator": None}},
    "slug with a space inside": {"training": {**SEED_000_TRAINING, "accelerator": "nvidia h100"}},
    "slug blank": {"training": {**SEED_000_TRAINING, "accelerator": "  "}},
    "slug with a null character": {"training": {**SEED_000_TRAINING, "accelerator": "a\x00b"}},
    "slug not a string": {"energy_profile": ["x"], "training": SEED_000_TRAINING},
    "slug given as a number": {"training": {**SEED_000_TRAINING, "accelerator": 4}},
    "ranges not an object": {"training": SEED_000_TRAINING, "ranges": [1, 2]},
    "range at an unknown path": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu_": {"low": 0.2, "high": 0.4}},
    },
    "range on a whole number": {
        "inference": seed_000_inference(1),
        "ranges": {"inference.months": {"low": 12, "high": 24}},
    },
    "range low above high": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu": {"low": 0.5, "high": 0.4}},
    },
    "range outside the field's bounds": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu": {"low": 0.5, "high": 1.5}},
    },
    "range end a string": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu": {"low": "0.2", "high": 0.4}},
    },
    "range end a boolean": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu": {"low": 0.2, "high": True}},
    },
    "range end missing": {"training": SEED_000_TRAINING, "ranges": {"training.mfu": {"low": 0.2}}},
    "range with an extra key": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.mfu": {"low": 0.2, "high": 0.4, "mode": 0.3}},
    },
    "range end beyond a float": {
        "training": SEED_000_TRAINING,
        "ranges": {"training.tokens": {"low": 1, "high": 10**400}},
    },
}

# Bodies the serializer accepts after tidying a value: the fast checks tidy it alike (a slug's
# surrounding spaces). A value of another JSON type is never converted (StrictTypes).
CONVERTED_BODIES = {
    "slug with spaces around it": {
        "training": {**SEED_000_TRAINING, "accelerator": " nvidia-h100-sxm "}
    },
}


def post(client, body):
    return client.post("/api/v1/estimate/", json.dumps(body), content_type="application/json")


def by_serializer(body) -> tuple[bool, object]:
    serializer = EstimateRequestSerializer(data=body)
    valid = serializer.is_valid()
    return valid, serializer.validated_data if valid else serializer.errors


def rendered(data) -> str:
    # Key order and number types (12 against 12.0) count, not only equality.
    return json.dumps(data)


@pytest.mark.parametrize("body", GOOD_BODIES.values(), ids=GOOD_BODIES.keys())
def test_fast_checks_accept_what_the_serializer_accepts_with_the_same_data(body):
    valid, validated = by_serializer(body)
    assert valid, validated
    assert rendered(ESTIMATE_REQUEST.validated_data(body)) == rendered(validated)


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_fast_checks_refuse_what_the_serializer_refuses(body):
    assert not by_serializer(body)[0]
    assert ESTIMATE_REQUEST.validated_data(body) is None


@pytest.mark.parametrize("body", CONVERTED_BODIES.values(), ids=CONVERTED_BODIES.keys())
def test_bodies_the_serializer_converts_are_converted_alike_or_left_to_it(body):
    valid, validated = by_serializer(body)
    assert valid, validated
    fast = ESTIMATE_REQUEST.validated_data(body)
    assert fast is None or rendered(fast) == rendered(validated)


def json_can_carry(body) -> bool:
    try:
        json.dumps(body, allow_nan=False)
    except ValueError:
        return False
    return True


@pytest.mark.django_db
@pytest.mark.parametrize("body", [body for body in BAD_BODIES.values() if json_can_carry(body)])
def test_the_api_answers_a_bad_body_with_the_serializers_errors(api_client, body):
    response = post(api_client, body)
    assert response.status_code == 400
    assert response.json() == json.loads(json.dumps(by_serializer(body)[1]))


@pytest.mark.django_db
def test_a_body_the_serializer_converts_is_estimated_as_converted(api_client):
    converted = post(api_client, CONVERTED_BODIES["slug with spaces around it"])
    assert converted.status_code == 200, converted.content
    assert converted.json() == post(api_client, {"training": SEED_000_TRAINING}).json()


# Random bodies: valid ones built from the serializer's own fields, then one value spoiled.
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**7), 10**7),
    st.integers(min_value=10**300, max_value=10**320),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["rent", "own", "tokens", "bf16", "nvidia-h100-sxm", " t4", "a\nb", "-_9"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(["method", "mfu"]), st.integers(), max_size=1),
)


def valid_values(field: serializers.Field) -> st.SearchStrategy:
    if isinstance(field, serializers.Serializer):
        return valid_sections(field)
    if isinstance(field, serializers.ChoiceField):
        return st.sampled_from(list(field.choices))
    if isinstance(field, serializers.SlugField):
        return st.from_regex(r"[-a-zA-Z0-9_]{1,12}", fullmatch=True)
    if isinstance(field, serializers.IntegerField):
        whole = st.integers(field.min_value, field.max_value)
        return st.one_of(whole, whole.map(float))
    return st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers())


def valid_sections(serializer: serializers.Serializer) -> st.SearchStrategy:
    fields = serializer.fields.items()
    return st.fixed_dictionaries(
        {name: valid_values(field) for name, field in fields if field.required},
        optional={name: valid_values(field) for name, field in fields if not field.required},
    )


@functools.cache
def valid_bodies() -> st.SearchStrategy:
    """The valid bodies' strategy, built once: built again for every example, from the
    serializer's fields (deep copies each time), it took nine tenths of the test's time."""
    return valid_sections(EstimateRequestSerializer())


@st.composite
def request_bodies(draw: st.DrawFn) -> object:
    body = draw(valid_bodies())
    if draw(st.booleans()):
        parents = [body, *(value for value in body.values() if isinstance(value, dict))]
        parent = draw(st.sampled_from(parents))
        key = draw(st.sampled_from([*parent, "unknown"]))
        parent[key] = draw(ODD_VALUES)
    return body


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(body=request_bodies())
def test_on_random_bodies_the_fast_checks_never_accept_more_or_differently(body):
    fast = ESTIMATE_REQUEST.validated_data(body)
    valid, validated = by_serializer(body)
    if fast is not None:
        assert valid, validated
        assert rendered(fast) == rendered(validated)


def test_a_kind_of_field_the_fast_checks_do_not_know_fails_at_import():
    class WithADate(StrictSerializer):
        day = serializers.DateField()

    with pytest.raises(TypeError, match="no fast check for DateField"):
        FastValidator(WithADate)
