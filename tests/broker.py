"""Throwaway Celery queues, for the tests and the benchmark that run real workers."""

from kombu import Exchange, Queue

from config.celery import app as celery_app


def delete_queue(name: str) -> None:
    """Delete a queue, its messages and its binding on the broker (declared here first, so that
    this connection knows the binding it removes)."""
    with celery_app.connection_for_write() as conn:
        queue = Queue(name, Exchange(name), routing_key=name)(conn.default_channel)
        queue.declare()
        queue.delete()
