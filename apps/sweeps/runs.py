"""What the workers do: compute a chunk and store it once, fail a sweep, recheck a scenario."""

import logging
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.catalogue.resolve import Catalogue, estimate_from_request
from apps.estimates import EstimateInput, EstimateInputError
from apps.sweeps.charts import chunk_samples
from apps.sweeps.compute import (
    base_inputs,
    evaluate_range,
    names_used,
    requests_by_accelerator,
)
from apps.sweeps.definition import Definition, definition_parse
from apps.sweeps.models import ScenarioFreshness, Sweep, SweepChunk
from apps.sweeps.storage import chunk_summary, columns_encode

logger = logging.getLogger(__name__)


class SweepCannotRun(Exception):
    """A permanent problem: the definition or the catalogue no longer allows the sweep."""


@dataclass(frozen=True)
class _Prepared:
    """What every chunk of one run computes from: its definition and engine inputs."""

    run: tuple  # (sweep id, run, created at): created at tells apart a reused id
    definition: Definition
    bases: list[EstimateInput]


# The run this process prepared last: a worker takes chunk after chunk, mostly of one run.
_prepared: _Prepared | None = None


def _prepare(sweep: Sweep) -> _Prepared:
    """The run's definition and engine inputs, read once per run in each process.

    Nothing they come from changes within a run: the definition and the scenario's inputs are
    stored with the sweep, and a change to a catalogue row the sweep uses starts a new run at
    once (apps.sweeps.freshness), whose first chunk here reads the catalogue again.
    """
    global _prepared
    run = (sweep.pk, sweep.run, sweep.created_at)
    prepared = _prepared
    if prepared is not None and prepared.run == run:
        return prepared
    try:
        definition = definition_parse(sweep.definition, sweep.base_inputs)
        # The catalogue as of now, not a snapshot: a completed run clears "stale since", and a
        # snapshot may lag a change by up to a minute where processes share no cache.
        accelerators, models = names_used(requests_by_accelerator(definition, sweep.base_inputs))
        catalogue = Catalogue.from_database(accelerators=accelerators, models=models)
        bases = base_inputs(definition, sweep.base_inputs, catalogue, sweep.exchange_rate)
    except (ValueError, KeyError, TypeError) as error:
        message = "; ".join(m for ms in getattr(error, "errors", {}).values() for m in ms)
        raise SweepCannotRun(message or str(error)) from error
    _prepared = _Prepared(run=run, definition=definition, bases=bases)
    return _prepared


def _compute(sweep: Sweep, chunk_index: int) -> tuple[int, dict, dict, bytes]:
    prepared = _prepare(sweep)
    definition, bases = prepared.definition, prepared.bases
    start = chunk_index * sweep.chunk_size
    stop = min(start + sweep.chunk_size, sweep.total_points)
    columns = evaluate_range(definition, bases, start, stop, sweep.exchange_rate)
    summary = chunk_summary(columns, start)
    samples = chunk_samples(definition, columns, start)
    return stop - start, summary, samples, columns_encode(columns)


def sweep_runs(*, sweep_id: int, run: int) -> bool:
    """Whether this run of the sweep is still the one to compute."""
    return Sweep.objects.filter(pk=sweep_id, run=run, status__in=Sweep.ACTIVE).exists()


def sweep_chunk_store(*, sweep_id: int, run: int, chunk_index: int) -> bool:
    """Compute one chunk and store it, counted once; False when there was nothing to do.

    Nothing to do: the sweep is gone, cancelled, failed or on a newer run, or the chunk is stored
    already (a message delivered twice). The insert and the counts share one transaction, and
    the counts move only when this call's row is the one stored, so a chunk written twice is
    stored and counted once.
    """
    sweep = Sweep.objects.filter(pk=sweep_id, run=run, status__in=Sweep.ACTIVE).first()
    if sweep is None or chunk_index >= sweep.total_chunks:
        return False
    if SweepChunk.objects.filter(sweep=sweep, run=run, index=chunk_index).exists():
        return False
    if sweep.status == Sweep.Status.QUEUED:  # the run's first chunks; once running, it stays
        Sweep.objects.filter(pk=sweep_id, run=run, status=Sweep.Status.QUEUED).update(
            status=Sweep.Status.RUNNING, started_at=timezone.now()
        )
    point_count, summary, samples, blob = _compute(sweep, chunk_index)
    attempt = uuid.uuid4()
    with transaction.atomic():
        SweepChunk.objects.bulk_create(
            [
                SweepChunk(
                    sweep=sweep,
                    run=run,
                    index=chunk_index,
                    point_count=point_count,
                    results=blob,
                    summary=summary,
                    samples=samples,
                    attempt=attempt,
                    computed_at=timezone.now(),
                )
            ],
            ignore_conflicts=True,
        )
        mine = SweepChunk.objects.filter(sweep=sweep, run=run, index=chunk_index, attempt=attempt)
        if not mine.exists():
            return False
        counted = Sweep.objects.filter(pk=sweep_id, run=run, status__in=Sweep.ACTIVE).update(
            chunks_done=F("chunks_done") + 1, points_done=F("points_done") + point_count
        )
        if not counted:  # cancelled, failed or restarted while this chunk was computed
            transaction.set_rollback(True)
            return False
        chunks_done, total_chunks = (
            Sweep.objects.filter(pk=sweep_id).values_list("chunks_done", "total_chunks").get()
        )
        if chunks_done == total_chunks:
            _complete(sweep_id, run)
    return True


def _complete(sweep_id: int, run: int) -> None:
    Sweep.objects.filter(pk=sweep_id, run=run).update(
        status=Sweep.Status.COMPLETED,
        finished_at=timezone.now(),
        results_run=run,
        stale_since=None,
        error="",
    )
    SweepChunk.objects.filter(sweep_id=sweep_id).exclude(run=run).delete()


def sweep_fail(*, sweep_id: int, run: int, reason: str) -> bool:
    """End an active sweep's run as failed, with the reason people see."""
    with transaction.atomic():
        return bool(
            Sweep.objects.filter(pk=sweep_id, run=run, status__in=Sweep.ACTIVE).update(
                status=Sweep.Status.FAILED, error=reason[:2000], finished_at=timezone.now()
            )
        )


def scenario_freshness_check(*, scenario_id: int, version: int) -> bool:
    """Estimate the scenario with today's catalogue; fresh again unless marked stale meanwhile."""
    freshness = ScenarioFreshness.objects.select_related("scenario").filter(
        scenario_id=scenario_id, version=version
    )
    row = freshness.first()
    if row is None:
        return False
    try:
        estimate_from_request(row.scenario.inputs, Catalogue.from_database())
        problem = ""
    except EstimateInputError as error:
        problem = "; ".join(m for messages in error.errors.values() for m in messages)
    return bool(
        freshness.update(stale_since=None, checked_at=timezone.now(), problem=problem[:2000])
    )
