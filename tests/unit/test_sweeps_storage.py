"""How sweep results are stored and summarised, without a database."""

import json
import struct
import zlib
from dataclasses import fields

import numpy as np
import pytest

from apps.estimates import Figures
from apps.projects.presets import PRESETS_BY_SLUG
from apps.sweeps.charts import HEATMAP_CELLS, SHADES, chunk_samples, heatmap, samples_merge
from apps.sweeps.compute import total_cost
from apps.sweeps.definition import definition_parse
from apps.sweeps.export import text_cell
from apps.sweeps.metrics import CHART_METRICS, METRICS
from apps.sweeps.storage import chunk_summary, columns_decode, columns_encode, summary_merge

TRANSLATION = PRESETS_BY_SLUG["translation-assistant"].inputs


def columns(count: int, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    data = {metric.name: rng.lognormal(3, 2, count) for metric in METRICS}
    data["training_flop"][:] = np.nan  # a figure that cannot be computed anywhere
    data["peak_accelerators"][:] = 4.0  # the same everywhere
    data["training_share"][::7] = np.nan  # here and there
    data["inference_cost"][3] = -0.0
    return data


def test_every_figure_of_the_engine_is_stored_and_the_total_cost_too():
    assert [metric.name for metric in METRICS[1:]] == [f.name for f in fields(Figures)]
    assert METRICS[0].name == "total_cost"


def test_a_chunk_reads_back_bit_for_bit():
    stored = columns(25_000)
    blob = columns_encode(stored)
    read = columns_decode(blob)
    assert list(read) == list(stored)
    for name, values in stored.items():
        assert read[name].tobytes() == values.tobytes(), name
    # The all-NaN and the all-4 columns take 8 bytes each; the others compress a little.
    assert len(blob) < (len(stored) - 2) * 25_000 * 8
    assert list(columns_decode(blob, ("total_cost",))) == ["total_cost"]


def _header(blob: bytes) -> dict:
    (length,) = struct.unpack_from("<I", blob, 4)
    return json.loads(blob[8 : 8 + length])


def test_random_looking_low_bytes_are_kept_as_they_are_and_repeating_ones_compressed():
    rng = np.random.default_rng(3)
    blob = columns_encode(
        {
            # Varies at every point: its low mantissa bytes look random.
            "total_cost": rng.lognormal(3, 2, 25_000),
            # Repeats every 200 points, as a figure of the fastest varied input alone does.
            "training_cost": np.tile(rng.lognormal(3, 2, 200), 125),
        }
    )
    varying, repeating = _header(blob)["columns"]
    assert varying[1] == repeating[1] == "shuffle-planes"
    varying, repeating = varying[3], repeating[3]  # each plane's size and kind
    kinds = [kind for _, kind in varying]
    # The first plane holds the lowest byte of every float, the last the sign and exponent.
    assert kinds[0] == "raw" and kinds[-1] == "zlib"
    assert [size for size, kind in varying if kind == "raw"] == [25_000] * kinds.count("raw")
    assert {kind for _, kind in repeating} == {"zlib"}
    assert sum(size for size, _ in repeating) < 25_000 * 8 / 20


def test_a_chunk_stored_before_its_byte_planes_were_kept_apart_still_reads():
    stored = columns(2_000)
    header, payloads = [], []
    for name, values in stored.items():  # as columns_encode wrote them until December 2026
        shuffled = values.view(np.uint8).reshape(2_000, 8).T.tobytes()
        payloads.append(zlib.compress(shuffled, 1))
        header.append([name, "shuffle-zlib", len(payloads[-1])])
    head = json.dumps({"count": 2_000, "columns": header}).encode()
    blob = b"".join([b"SWP1", struct.pack("<I", len(head)), head, *payloads])
    read = columns_decode(blob)
    for name, values in stored.items():
        assert read[name].tobytes() == values.tobytes(), name


def test_total_cost_adds_the_sections_a_scenario_has():
    nan = np.nan
    total = total_cost(np.array([1.0, nan, 2.0, nan]), np.array([3.0, 4.0, nan, nan]))
    assert np.array_equal(total, [4.0, 4.0, 2.0, nan], equal_nan=True)


def test_summaries_of_chunks_merge_into_the_summary_of_all_points():
    everything = columns(10_000, seed=7)
    everything["total_cost"][[17, 9_001]] = 0.0  # a tie for the cheapest, across chunks
    everything["inference_latency_seconds"][[17, 9_001]] = 1.0  # and for its tie-break
    parts = [
        chunk_summary({k: v[start : start + 2_500] for k, v in everything.items()}, start)
        for start in (7_500, 0, 5_000, 2_500)
    ]
    merged = summary_merge(parts, 10_000)
    whole = chunk_summary(everything, 0)
    for name, figure in whole["figures"].items():
        got = merged["figures"][name]
        assert got["count"] == figure["count"]
        assert got["missing"] == 10_000 - figure["count"]
        if figure["count"]:
            assert (got["min"], got["min_index"]) == (figure["min"], figure["min_index"])
            assert (got["max"], got["max_index"]) == (figure["max"], figure["max_index"])
            finite = everything[name][np.isfinite(everything[name])]
            assert got["mean"] == pytest.approx(finite.mean(), rel=1e-12)
    assert merged["rankings"] == whole["rankings"]
    assert [row[0] for row in merged["rankings"]["cheapest"][:2]] == [17, 9_001]


def test_the_chart_samples_a_grid_of_the_two_inputs_for_each_accelerator():
    definition = definition_parse(
        {
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1,
                    "stop": 1e6,
                    "steps": 100,
                },
                {
                    "field": "inference.peak_to_average",
                    "kind": "linear",
                    "start": 1,
                    "stop": 10,
                    "steps": 30,
                },
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
        },
        TRANSLATION,
    )
    total = definition.total_points
    figures = {name: np.arange(total, dtype=float) for name in CHART_METRICS}
    samples = [
        chunk_samples(definition, {k: v[s : s + 1_000] for k, v in figures.items()}, s)
        for s in range(0, total, 1_000)
    ]
    values = samples_merge(samples, "total_cost")
    assert len(values) == 2 * HEATMAP_CELLS * HEATMAP_CELLS
    grid = heatmap(definition, values, accelerator_position=1)
    assert len(grid["rows"]) == HEATMAP_CELLS and len(grid["column_values"]) == HEATMAP_CELLS
    first_row_value, first_cells = grid["rows"][0]
    assert first_row_value == 1.0 and grid["column_values"][0] == 1.0
    assert first_cells[0]["value"] == 3_000  # the first point of the second accelerator
    assert grid["rows"][-1][1][-1]["value"] == total - 1
    assert first_cells[0]["shade"] == 0 and grid["rows"][-1][1][-1]["shade"] == SHADES - 1


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("nvidia-h100-sxm", "nvidia-h100-sxm"),
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ('a,"b"', '"a,""b"""'),
    ],
)
def test_text_cells_never_start_a_formula(text, cell):
    assert text_cell(text) == cell


def test_summaries_merge_after_a_json_column_turned_whole_floats_into_integers():
    # PostgreSQL's jsonb gives 4.0 back as 4.
    def as_jsonb(value):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            return {key: as_jsonb(item) for key, item in value.items()}
        if isinstance(value, list):
            return [as_jsonb(item) for item in value]
        return value

    data = {name: np.arange(10.0) + 1 for name in (metric.name for metric in METRICS)}
    parts = [as_jsonb(chunk_summary({k: v[s : s + 5] for k, v in data.items()}, s)) for s in (5, 0)]
    merged = summary_merge(parts, 10)
    assert merged["figures"]["total_cost"] | {} == {
        "count": 10,
        "min": 1,
        "min_index": 0,
        "max": 10,
        "max_index": 9,
        "mean": 5.5,
        "missing": 0,
    }
