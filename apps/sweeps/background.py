"""Sweeps computed in a thread of the server process, on the embedded default (no Celery broker).

Without a broker the chunk tasks run where they are queued; a large sweep queued in its request
would then hold that request for seconds. Above settings.SWEEP_BACKGROUND_POINTS its chunks are
queued from a thread of the server instead, one sweep after another, so the request answers at
once and the sweep's page and API show its progress as a worker's chunks would.

A server process can stop with sweeps in its thread (a restart, a crash). While the thread holds
a sweep it stamps `heartbeat_at` before each chunk (a chunk takes well under a second), and the
stamps of the sweeps waiting their turn with it; a sweep still queued or running whose stamp is
older than settings.SWEEP_ABANDONED_AFTER_SECONDS has lost its server. The next time someone
looks at it (its page, the API) it is queued again, in that server's thread or on the workers if
a broker has been set up since, and goes on from the chunks already stored, as a worker's lost
chunks are delivered again on Celery.
"""

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import connections, transaction
from django.db.models import QuerySet
from django.utils import timezone, translation

from apps.sweeps import tasks
from apps.sweeps.models import Sweep

logger = logging.getLogger(__name__)

# One thread: sweeps wait their turn, as on one worker, rather than share the server's cores.
threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sweep")
# The sweeps this process's thread is computing or has waiting, whose stamps it keeps fresh.
_held: set[int] = set()
_held_lock = threading.Lock()


def runs_in_background(total_points: int) -> bool:
    """Whether a sweep of this many points is computed in a thread of the server."""
    return settings.CELERY_TASK_ALWAYS_EAGER and total_points > settings.SWEEP_BACKGROUND_POINTS


def enqueue_chunks_in_background(sweep_id: int, run: int, total_chunks: int) -> None:
    """Queue a run's chunks from the server's sweep thread, in the active language. The sweep's
    `heartbeat_at` must be set already (in the transaction that stored or claimed it), so that
    it is resumed should this process stop before the thread starts it."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    with _held_lock:
        _held.add(sweep_id)
    threads.submit(_run, sweep_id, run, total_chunks, language)


def _beat() -> None:
    """Stamp every sweep this process holds: its server is alive."""
    with _held_lock:
        held = list(_held)
    Sweep.objects.filter(pk__in=held, status__in=Sweep.ACTIVE).update(heartbeat_at=timezone.now())


def _run(sweep_id: int, run: int, total_chunks: int, language: str) -> None:
    try:
        for chunk_index in range(total_chunks):
            _beat()
            tasks.sweep_run_chunk.delay(sweep_id, run, chunk_index, language)
    except Exception:
        # A chunk that fails has already failed its sweep with the reason (the task's
        # on_failure); the thread only logs it and goes on to the next sweep.
        logger.exception("Sweep %s failed in the background", sweep_id)
    finally:
        with _held_lock:
            _held.discard(sweep_id)
        connections.close_all()


def sweeps_resume_abandoned(sweeps: QuerySet[Sweep]) -> list[int]:
    """Queue again those of `sweeps` that a stopped server left queued or running: each is
    claimed (its stamp renewed where it is still the old one, so that two processes looking at
    it at once queue it once) and its run queued again, its stored chunks kept. Their ids."""
    cutoff = timezone.now() - timedelta(seconds=settings.SWEEP_ABANDONED_AFTER_SECONDS)
    with _held_lock:
        held = list(_held)
    abandoned = sweeps.filter(status__in=Sweep.ACTIVE, heartbeat_at__lt=cutoff).exclude(pk__in=held)
    resumed = []
    for pk, run, total_chunks, heartbeat_at in abandoned.values_list(
        "pk", "run", "total_chunks", "heartbeat_at"
    ):
        on_workers = not settings.CELERY_TASK_ALWAYS_EAGER
        claimed = Sweep.objects.filter(
            pk=pk, run=run, status__in=Sweep.ACTIVE, heartbeat_at=heartbeat_at
        ).update(heartbeat_at=None if on_workers else timezone.now())
        if not claimed:
            continue
        logger.warning("Sweep %s lost its server; queued again", pk)
        enqueue = tasks.enqueue_chunks if on_workers else enqueue_chunks_in_background
        transaction.on_commit(partial(enqueue, pk, run, total_chunks))
        resumed.append(pk)
    return resumed
