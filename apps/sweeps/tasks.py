"""Celery tasks of sweeps: each takes ids and calls apps.sweeps.runs; enqueue them on commit."""

import inspect
import logging

import kombu.exceptions
from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from apps.sweeps import runs

logger = logging.getLogger(__name__)

# Faults that pass: the database or the broker briefly unreachable. Anything else is permanent.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, kombu.exceptions.OperationalError)
RETRY = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,  # seconds before the first retry, doubling each time
    "retry_backoff_max": 60,  # below the broker's visibility timeout (settings)
    "retry_jitter": True,
    "max_retries": 5,
}


class SweepChunkTask(Task):
    """A chunk whose task fails for good (a permanent error, or retries exhausted) fails its
    sweep's run with the reason, so that the page says why instead of waiting forever."""

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        call = inspect.signature(self.run).bind(*args, **kwargs).arguments
        if isinstance(exc, runs.SweepCannotRun):
            reason = f"The sweep cannot run: {exc}"
        elif isinstance(exc, TRANSIENT_ERRORS):
            reason = f"Gave up after {self.request.retries} retries: {type(exc).__name__}: {exc}"
        else:
            reason = f"Chunk {call['chunk_index']} failed: {type(exc).__name__}: {exc}"
        try:
            runs.sweep_fail(sweep_id=call["sweep_id"], run=call["run"], reason=reason)
        except TRANSIENT_ERRORS:
            logger.exception("Could not mark sweep %s as failed", call["sweep_id"])


@shared_task(
    base=SweepChunkTask,
    bind=True,
    acks_late=True,  # a worker lost mid-chunk leaves the message for another worker
    reject_on_worker_lost=True,
    **RETRY,
)
def sweep_run_chunk(self, sweep_id: int, run: int, chunk_index: int) -> bool:
    """Compute and store one chunk of a sweep's run (a no-op when stored or no longer wanted)."""
    return runs.sweep_chunk_store(sweep_id=sweep_id, run=run, chunk_index=chunk_index)


def enqueue_chunks(sweep_id: int, run: int, total_chunks: int) -> bool:
    """Queue every chunk of a run; call it on commit, so that workers find the sweep's row.

    A broker that cannot be reached fails the run with the reason, instead of leaving it queued
    (chunks queued before it stopped answering then find the run failed, and do nothing): False.
    """
    try:
        for chunk_index in range(total_chunks):
            sweep_run_chunk.delay(sweep_id, run, chunk_index)
    except kombu.exceptions.OperationalError as error:
        logger.exception("Could not queue sweep %s", sweep_id)
        reason = f"The sweep could not be queued (the task broker did not answer: {error})."
        runs.sweep_fail(sweep_id=sweep_id, run=run, reason=reason)
        return False
    return True


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def sweep_requeue_run(sweep_id: int, run: int, total_chunks: int) -> None:
    """Queue a recomputation's chunks from a worker, not from the catalogue editor's request."""
    if runs.sweep_runs(sweep_id=sweep_id, run=run):
        enqueue_chunks(sweep_id, run, total_chunks)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def scenario_recheck(scenario_id: int, version: int) -> bool:
    """Recompute a scenario's estimate after a catalogue change and record any problem."""
    return runs.scenario_freshness_check(scenario_id=scenario_id, version=version)
