"""Sweep definitions without a database: ranges, limits, messages and points by index."""

import itertools

import numpy as np
import pytest

from apps.projects.presets import PRESETS_BY_SLUG
from apps.sweeps.definition import MAX_POINTS, DefinitionError, definition_load, definition_parse
from apps.sweeps.inputs import SWEEPABLE
from apps.sweeps.services import chunk_size_for

FINE_TUNE = PRESETS_BY_SLUG["fine-tune-7b"].inputs  # parameters × tokens, inference by tokens
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"].inputs  # accelerator-hours and -seconds


def errors_of(data: dict, request: dict = TRANSLATION) -> dict:
    with pytest.raises(DefinitionError) as raised:
        definition_parse(data, request)
    return raised.value.errors


def test_linear_log_and_list_axes_give_their_values_in_order():
    definition = definition_parse(
        {
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e7,
                    "steps": 5,
                },
                {
                    "field": "inference.peak_to_average",
                    "kind": "linear",
                    "start": 1,
                    "stop": 3,
                    "steps": 3,
                },
                {"field": "inference.months", "kind": "list", "values": [24, 12]},
            ]
        },
        TRANSLATION,
    )
    requests, peaks, months = (item.values for item in definition.inputs)
    np.testing.assert_allclose(requests, [1e3, 1e4, 1e5, 1e6, 1e7])
    assert requests[0] == 1e3 and requests[-1] == 1e7  # the ends exactly as given
    assert peaks.tolist() == [1.0, 2.0, 3.0]
    assert months.tolist() == [24.0, 12.0]
    assert definition.shape == (5, 3, 2)
    assert definition.total_points == 30


def test_points_are_numbered_in_mixed_radix_accelerators_first_last_input_fastest():
    definition = definition_parse(
        {
            "inputs": [
                {"field": "inference.requests_per_month", "kind": "list", "values": [1, 2, 3]},
                {"field": "inference.months", "kind": "list", "values": [12, 24]},
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
        },
        TRANSLATION,
    )
    expected = [
        {"accelerator": a, "inference.requests_per_month": r, "inference.months": m}
        for a, r, m in itertools.product(["nvidia-h100-sxm", "nvidia-l4"], [1, 2, 3], [12, 24])
    ]
    assert [definition.point(i) for i in range(definition.total_points)] == expected
    columns = definition.input_columns(np.arange(3, 9))
    assert columns["inference.requests_per_month"].tolist() == [2, 3, 3, 1, 1, 2]
    assert definition.digits(np.arange(5, 8))[0].tolist() == [0, 1, 1]


def test_the_listed_accelerators_replace_every_section_unless_told_which():
    data = {"accelerators": ["nvidia-l4"]}
    assert definition_parse(data, TRANSLATION).accelerator_sections == ("training", "inference")
    only = definition_parse({**data, "accelerator_sections": ["inference"]}, TRANSLATION)
    assert only.accelerator_sections == ("inference",)
    assert definition_parse(data, TRANSLATION).as_dict()["accelerators"] == ["nvidia-l4"]


def test_a_stored_definition_reads_back_to_the_same_points():
    data = {
        "inputs": [
            {"field": "training.mfu", "kind": "linear", "start": 0.2, "stop": 0.6, "steps": 7},
            {
                "field": "inference.requests_per_month",
                "kind": "log",
                "start": 10,
                "stop": 1e9,
                "steps": 13,
            },
        ],
        "accelerators": ["nvidia-a100-sxm-80gb"],
    }
    first = definition_parse(data, FINE_TUNE)
    for again in (definition_parse(first.as_dict(), FINE_TUNE), definition_load(first.as_dict())):
        for a, b in zip(first.inputs, again.inputs, strict=True):
            assert np.array_equal(a.values, b.values)
        assert again.as_dict() == first.as_dict()


def test_a_stored_definition_reads_back_even_when_todays_rules_refuse_it():
    stored = {
        "inputs": [{"field": "retired.input", "kind": "list", "values": [0.5, 2.0]}],
        "accelerators": [],
        "accelerator_sections": [],
    }
    definition = definition_load(stored)
    assert definition.total_points == 2
    assert definition.point(1) == {"retired.input": 2.0}


def test_over_a_million_points_is_refused_with_the_arithmetic():
    errors = errors_of(
        {
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e7,
                    "steps": 1000,
                },
                {
                    "field": "inference.peak_to_average",
                    "kind": "linear",
                    "start": 1,
                    "stop": 4,
                    "steps": 500,
                },
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-l4", "nvidia-a10g"],
        }
    )
    assert errors == {
        "non_field_errors": [
            "This sweep has 3 × 1,000 × 500 = 1,500,000 points; a sweep can have at most "
            "1,000,000. Use fewer steps or values, or fewer accelerators."
        ]
    }


def test_exactly_a_million_points_is_allowed():
    definition = definition_parse(
        {
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e7,
                    "steps": 1000,
                },
                {
                    "field": "inference.peak_to_average",
                    "kind": "linear",
                    "start": 1,
                    "stop": 4,
                    "steps": 1000,
                },
            ]
        },
        TRANSLATION,
    )
    assert definition.total_points == MAX_POINTS


@pytest.mark.parametrize(
    ("item", "key", "message"),
    [
        (
            {
                "field": "inference.requests_per_month",
                "kind": "log",
                "start": 0,
                "stop": 10,
                "steps": 3,
            },
            "start",
            "A logarithmic range needs a start and stop above 0.",
        ),
        (
            {
                "field": "inference.requests_per_month",
                "kind": "linear",
                "start": 5,
                "stop": 5,
                "steps": 3,
            },
            "stop",
            "Start and stop are the same: give a different stop, or 1 step.",
        ),
        (
            {"field": "inference.requests_per_month", "kind": "linear", "start": 5, "steps": 3},
            "stop",
            "Give the stop of the range as a number.",
        ),
        (
            {
                "field": "inference.requests_per_month",
                "kind": "linear",
                "start": 5,
                "stop": 9,
                "steps": 0,
            },
            "steps",
            "Give the number of values, a whole number from 1 to 1,000,000.",
        ),
        (
            {"field": "inference.requests_per_month", "kind": "list", "values": []},
            "values",
            "Give at least one value.",
        ),
        (
            {"field": "inference.requests_per_month", "kind": "list", "values": [1, 2, 1]},
            "values",
            "Give each value once.",
        ),
        (
            {"field": "inference.requests_per_month", "kind": "list", "values": [1, "2"]},
            "values",
            "Every value must be a finite number.",
        ),
        (
            {"field": "inference.requests_per_month", "kind": "cubic"},
            "kind",
            "Choose linear, log or list.",
        ),
        (
            {
                "field": "inference.peak_to_average",
                "kind": "linear",
                "start": 0.5,
                "stop": 4,
                "steps": 3,
            },
            "start",
            "Peak-to-average ratio must be at least 1 (steady demand) and at most 1,000.",
        ),
        (
            {"field": "inference.peak_to_average", "kind": "list", "values": [2, 2000]},
            "values",
            "Peak-to-average ratio must be at least 1 (steady demand) and at most 1,000.",
        ),
        (
            {"field": "inference.months", "kind": "linear", "start": 1, "stop": 240, "steps": 7},
            "steps",
            "The horizon must be a whole number of months from 1 to 240 (20 years). These steps give 40.8333.",
        ),
        (
            {"field": "training.parameters", "kind": "list", "values": [1e9]},
            "field",
            "The scenario's training method does not use this input.",
        ),
        (
            {"field": "inference.purchase_price", "kind": "list", "values": [1e4]},
            "field",
            "Only used when the scenario owns its inference accelerators.",
        ),
        (
            {"field": "inference.no_such_thing", "kind": "list", "values": [1]},
            "field",
            "Choose one of the inputs a sweep can vary.",
        ),
    ],
)
def test_a_bad_varied_input_gets_a_plain_message_at_its_field(item, key, message):
    assert errors_of({"inputs": [item]}) == {f"inputs.0.{key}": [message]}


def test_an_input_varied_twice_is_refused_at_the_second():
    item = {"field": "pue", "kind": "list", "values": [1.1, 1.5]}
    assert errors_of({"inputs": [item, item]}) == {
        "inputs.1.field": ["This input is varied twice; vary each input once."]
    }


def test_a_sweep_needs_an_input_or_accelerators_and_a_section_the_scenario_has():
    assert errors_of({}) == {
        "non_field_errors": ["Choose at least one input to vary, or accelerators."]
    }
    chat = PRESETS_BY_SLUG["chat-service-rented"].inputs  # inference only
    assert errors_of(
        {"accelerators": ["nvidia-l4"], "accelerator_sections": ["training"]}, chat
    ) == {"accelerator_sections": ["Choose where the accelerators are used, among: inference."]}
    assert errors_of({"accelerators": ["nvidia-l4", "nvidia-l4"]}) == {
        "accelerators": ["Choose each accelerator once."]
    }


def test_every_sweepable_input_names_an_engine_field_with_a_rule():
    for path, spec in SWEEPABLE.items():
        assert spec.path == path
        assert spec.rule.label
        assert spec.engine_path[-1] == spec.name


def test_a_sweep_is_cut_into_about_forty_chunks_of_a_thousand_to_25_000_points():
    assert [chunk_size_for(n) for n in (1, 1_000, 100_000, 1_000_000)] == [
        1_000,
        1_000,
        2_500,
        25_000,
    ]
