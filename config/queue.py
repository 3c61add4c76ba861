"""Handing work to the Celery worker by the task's registered name, once the database commit that produced it has
happened.

Work is queued by name (`enqueue("memory.tasks.embed_facts", server_id, fact_ids)`), so no module imports a
tasks module: Celery's autodiscovery does, and a task may then import whatever it calls without an import circle.

If the broker (Redis) is down, the write that queued the work has already committed and must not turn
into an error for the user: the failure is logged and the periodic sweeper tasks
(memory.tasks.sweep_embeddings, consolidation.tasks.sweep_consolidation_rounds) find the work from the database and
queue it again. Nothing is lost because the database, not the queue, says what is still to do.
"""

from __future__ import annotations

import logging

from celery import Task
from django.db import transaction

from config.celery import app

logger = logging.getLogger(__name__)


def registered_task(task_name: str) -> Task:
    """The task registered under this name; a name no task has is a KeyError, not a silent loss."""
    if task_name not in app.tasks:
        app.loader.import_default_modules()  # Celery's autodiscovery: every installed app's tasks module
    return app.tasks[task_name]


def enqueue(task_name: str, *args) -> bool:
    """The task's delay(*args); False (logged) when the broker cannot take it."""
    task = registered_task(task_name)
    try:
        task.delay(*args)
    except Exception:  # noqa: BLE001 - kombu/redis raise many kinds; all mean "not queued now"
        logger.warning("could not queue %s%r; the sweeper will queue it again", task_name, args, exc_info=True)
        return False
    return True


def enqueue_on_commit(task_name: str, *args) -> None:
    transaction.on_commit(lambda: enqueue(task_name, *args))
