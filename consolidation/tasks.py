"""Celery tasks: beat checks every 15 minutes which servers are due; a worker runs each round. Queued by these
names (config.queue), never imported.

Both are idempotent and acknowledged late: a worker that dies mid-round leaves the round queued (its
transaction rolls back) and the redelivered task runs it again from the start.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from .rounds import RoundBusy, round_run, schedule_rounds, sweep_rounds


@shared_task(name="consolidation.tasks.schedule_consolidation_rounds", acks_late=True, ignore_result=True)
def schedule_consolidation_rounds() -> int:
    return len(schedule_rounds())


@shared_task(name="consolidation.tasks.run_round", acks_late=True, ignore_result=True,
             autoretry_for=(DatabaseError, RoundBusy), retry_backoff=30, max_retries=5)
def run_round(round_id: int) -> str | None:
    finished = round_run(round_id)
    return finished.status if finished else None


@shared_task(name="consolidation.tasks.sweep_consolidation_rounds", acks_late=True, ignore_result=True)
def sweep_consolidation_rounds() -> int:
    """Beat, every 10 minutes: re-queue rounds left queued (broker down, worker died)."""
    return sweep_rounds()
