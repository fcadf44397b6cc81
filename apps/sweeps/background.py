"""Sweeps computed in a thread of the server process, on the embedded default (no Celery broker).

Without a broker the chunk tasks run where they are queued; a large sweep queued in its request
would then hold that request for seconds. Above settings.SWEEP_BACKGROUND_POINTS its chunks are
queued from a thread of the server instead, one sweep after another, so the request answers at
once and the sweep's page and API show its progress as a worker's chunks would. A sweep left
queued or running when the server process stops is not resumed.
"""

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections
from django.utils import translation

from apps.sweeps import tasks

logger = logging.getLogger(__name__)

# One thread: sweeps wait their turn, as on one worker, rather than share the server's cores.
_threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sweep")


def runs_in_background(total_points: int) -> bool:
    """Whether a sweep of this many points is computed in a thread of the server."""
    return settings.CELERY_TASK_ALWAYS_EAGER and total_points > settings.SWEEP_BACKGROUND_POINTS


def enqueue_chunks_in_background(sweep_id: int, run: int, total_chunks: int) -> None:
    """Queue a run's chunks from the server's sweep thread, in the active language."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    _threads.submit(_run, sweep_id, run, total_chunks, language)


def _run(sweep_id: int, run: int, total_chunks: int, language: str) -> None:
    try:
        tasks.enqueue_chunks(sweep_id, run, total_chunks, language)
    except Exception:
        # A chunk that fails has already failed its sweep with the reason (the task's
        # on_failure); the thread only logs it and goes on to the next sweep.
        logger.exception("Sweep %s failed in the background", sweep_id)
    finally:
        connections.close_all()
