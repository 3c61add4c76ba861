"""Handing work to the Celery worker once the database commit that produced it has happened.

If the broker (Redis) is down, the write that queued the work has already committed and must not turn
into an error for the user: the failure is logged and the periodic sweeper tasks
(memory.tasks.sweep_embeddings, consolidation.tasks.sweep_rounds) find the work from the database and
queue it again. Nothing is lost because the database, not the queue, says what is still to do.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue(task, *args) -> bool:
    """task.delay(*args); False (logged) when the broker cannot take it."""
    try:
        task.delay(*args)
    except Exception:  # noqa: BLE001 - kombu/redis raise many kinds; all mean "not queued now"
        logger.warning("could not queue %s%r; the sweeper will queue it again", task.name, args, exc_info=True)
        return False
    return True


def enqueue_on_commit(task, *args) -> None:
    transaction.on_commit(lambda: enqueue(task, *args))
