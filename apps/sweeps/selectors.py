"""Reads of sweeps for one user (theirs or shared with them, else 404), and of their results."""

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from django.shortcuts import get_object_or_404

from apps.catalogue.models import Accelerator, LanguageModel
from apps.sweeps.charts import heatmap, line_chart, samples_merge
from apps.sweeps.definition import Definition, definition_load
from apps.sweeps.metrics import METRICS
from apps.sweeps.models import Sweep, SweepChunk
from apps.sweeps.storage import columns_decode, summary_merge

METRIC_NAMES = tuple(metric.name for metric in METRICS)


def sweep_for_user(user, sweep_id: int) -> Sweep:
    return get_object_or_404(
        Sweep.objects.for_user(user).select_related("scenario", "scenario__project"), pk=sweep_id
    )


def sweep_definition(sweep: Sweep) -> Definition:
    """The stored definition, to read the sweep's points (it was checked when it was made)."""
    return definition_load(sweep.definition)


def accelerator_names(slugs) -> dict[str, str]:
    names = {a.slug: str(a) for a in Accelerator.objects.filter(slug__in=slugs)}
    return {slug: names.get(slug, slug) for slug in slugs}


def model_names(slugs) -> dict[str, str]:
    """Language models by slug, named as the sweep form lists them ("Meta Llama 3.1 8B"); a model
    gone from the catalogue keeps its slug."""
    names = {m.slug: m.developer_and_name for m in LanguageModel.objects.filter(slug__in=slugs)}
    return {slug: names.get(slug, slug) for slug in slugs}


def _result_chunks(sweep: Sweep):
    return SweepChunk.objects.filter(sweep=sweep, run=sweep.results_run)


@dataclass(frozen=True)
class Row:
    index: int
    inputs: dict  # "accelerator" (when listed) and each varied input's value, by request path
    figures: dict[str, float | None]


def _known(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _with_every_metric(columns: dict[str, np.ndarray], count: int) -> dict[str, np.ndarray]:
    """`columns` with NaN for each figure a chunk stored before that figure was added (a sweep's
    pages say which are not computed: `Summary.not_computed`)."""
    missing = [name for name in METRIC_NAMES if name not in columns]
    if not missing:
        return columns
    nothing = np.broadcast_to(np.float64(np.nan), (count,))
    return {**columns, **dict.fromkeys(missing, nothing)}


def _rows(definition: Definition, columns: dict, indices: np.ndarray) -> list[Row]:
    inputs = definition.input_columns(indices)
    accelerator, model, _ = definition.positions(indices)
    columns = _with_every_metric(columns, len(indices))
    lists = {name: values.tolist() for name, values in columns.items()}
    rows = []
    for position, index in enumerate(indices.tolist()):
        point = {}
        if accelerator is not None:
            point["accelerator"] = definition.accelerators[int(accelerator[position])]
        if model is not None:
            point["model"] = definition.models[int(model[position])]
        point.update({path: float(values[position]) for path, values in inputs.items()})
        rows.append(
            Row(index, point, {name: _known(lists[name][position]) for name in METRIC_NAMES})
        )
    return rows


def sweep_rows(sweep: Sweep, start: int, stop: int, names=METRIC_NAMES) -> list[Row]:
    """Points start … stop − 1 of the sweep's last completed run, with their figures."""
    stop = min(stop, sweep.total_points)
    if not sweep.has_results or start >= stop:
        return []
    definition = sweep_definition(sweep)
    first, last = start // sweep.chunk_size, (stop - 1) // sweep.chunk_size
    parts = {name: [] for name in names}
    for chunk in _result_chunks(sweep).filter(index__range=(first, last)).order_by("index"):
        low = max(start - chunk.index * sweep.chunk_size, 0)
        high = min(stop - chunk.index * sweep.chunk_size, chunk.point_count)
        stored = _with_every_metric(columns_decode(chunk.results, names), chunk.point_count)
        for name in names:
            parts[name].append(stored[name][low:high])
    columns = {name: np.concatenate(values) for name, values in parts.items()}
    return _rows(definition, columns, np.arange(start, stop, dtype=np.int64))


def sweep_columns(sweep: Sweep) -> Iterator[tuple[np.ndarray, dict[str, np.ndarray]]]:
    """(point indices, figures) chunk by chunk, in order: one chunk in memory at a time."""
    index_ids = _result_chunks(sweep).order_by("index").values_list("pk", "index")
    for pk, index in list(index_ids):
        chunk = SweepChunk.objects.only("results", "point_count").get(pk=pk)
        start = index * sweep.chunk_size
        yield (
            np.arange(start, start + chunk.point_count, dtype=np.int64),
            _with_every_metric(columns_decode(chunk.results), chunk.point_count),
        )


@dataclass(frozen=True)
class Summary:
    figures: dict  # per metric name: count, missing, min, mean, max, min_at, max_at, computed
    rankings: dict  # per ranking: [Row, …], best first
    # Figures added since the sweep was computed, which its stored chunks do not hold (defining
    # the sweep again computes them), in the order of METRICS.
    not_computed: tuple[str, ...] = ()


def sweep_summary(sweep: Sweep) -> Summary | None:
    """Statistics and the best configurations of the last completed run; None before one."""
    if not sweep.has_results:
        return None
    summaries = list(_result_chunks(sweep).values_list("summary", flat=True))
    merged = summary_merge(summaries, sweep.total_points)
    # Every chunk summary names every column its chunk stored, NaN throughout or not.
    not_computed = tuple(name for name in METRIC_NAMES if name not in merged["figures"])
    for name in METRIC_NAMES:
        figure = merged["figures"].setdefault(
            name, {"count": 0, "mean": None, "missing": sweep.total_points}
        )
        figure["computed"] = name not in not_computed
    merged["figures"] = {name: merged["figures"][name] for name in METRIC_NAMES}
    definition = sweep_definition(sweep)
    for figure in merged["figures"].values():
        for side in ("min", "max"):
            index = figure.pop(f"{side}_index", None)
            figure[f"{side}_at"] = (
                None if index is None else {"index": index, "inputs": definition.point(index)}
            )
    indices = sorted({row[0] for rows in merged["rankings"].values() for row in rows})
    rows = {row.index: row for row in _rows_at(sweep, definition, indices)}
    return Summary(
        figures=merged["figures"],
        rankings={
            name: [rows[row[0]] for row in ranked] for name, ranked in merged["rankings"].items()
        },
        not_computed=not_computed,
    )


def _rows_at(sweep: Sweep, definition: Definition, indices: list[int]) -> list[Row]:
    """Rows of scattered points, reading each chunk they fall in once."""
    by_chunk: dict[int, list[int]] = {}
    for index in indices:
        by_chunk.setdefault(index // sweep.chunk_size, []).append(index)
    rows = []
    for chunk in _result_chunks(sweep).filter(index__in=by_chunk):
        wanted = np.asarray(by_chunk[chunk.index], dtype=np.int64)
        columns = columns_decode(chunk.results)
        offsets = wanted - chunk.index * sweep.chunk_size
        picked = {name: values[offsets] for name, values in columns.items()}
        rows.extend(_rows(definition, picked, wanted))
    return rows


def sweep_chart(sweep: Sweep, metric: str, accelerator_position: int = 0) -> dict | None:
    """A line chart (one varied input) or a heatmap (two) of a figure; None for other sweeps."""
    if not sweep.has_results:
        return None
    definition = sweep_definition(sweep)
    if len(definition.inputs) not in (1, 2):
        return None
    samples = list(_result_chunks(sweep).values_list("samples", flat=True))
    values = samples_merge(samples, metric)
    if len(definition.inputs) == 1:
        names = list(accelerator_names(definition.accelerators).values())
        return {"kind": "line", **line_chart(definition, values, names)}
    position = min(max(accelerator_position, 0), max(len(definition.accelerators) - 1, 0))
    return {"kind": "heatmap", **heatmap(definition, values, position)}
