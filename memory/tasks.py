"""Celery tasks of Semantic memory: embedding written facts, and the catch-up round.

Both are idempotent (what is embedded is in the database; a fact whose wording already has a vector
from the current model is skipped) and acknowledged late, so a worker killed mid-batch loses nothing:
the redelivered task embeds what is still missing, and nothing twice.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from teams.models import Server

from memory.clients.embeddings import EmbeddingError


@shared_task(acks_late=True, ignore_result=True, autoretry_for=(EmbeddingError, DatabaseError), retry_backoff=30,
             max_retries=5)
def embed_facts(server_id: int, fact_ids: list[int]) -> int:
    from .semantic import embed_facts_now

    server = Server.objects.filter(pk=server_id).first()
    return embed_facts_now(server, fact_ids).embedded if server else 0


@shared_task(acks_late=True, ignore_result=True, autoretry_for=(EmbeddingError, DatabaseError), retry_backoff=30,
             max_retries=10)
def run_catchup(round_id: int) -> str:
    from .semantic import catchup_run

    return catchup_run(round_id).status


@shared_task(acks_late=True, ignore_result=True)
def sweep_embeddings() -> int:
    """Beat, every 10 minutes: re-queue embedding work the broker could not take (memory.semantic)."""
    from .semantic import sweep_embeddings as sweep

    return sweep()


@shared_task(acks_late=True, ignore_result=True)
def build_server_indexes(server_id: int) -> list[str]:
    """A large server's own word and vector indexes (memory.server_indexes); nothing for a small one."""
    from .server_indexes import ensure_server_indexes

    return ensure_server_indexes(server_id)


@shared_task(acks_late=True, ignore_result=True)
def maintain_server_indexes() -> int:
    """Beat, every 10 minutes: queue the builds of large servers' missing (or half-built) indexes and
    drop those of servers that are gone or empty. Returns how many servers' builds were queued."""
    from config.queue import enqueue

    from .server_indexes import drop_unneeded_server_indexes, servers_needing_an_index

    drop_unneeded_server_indexes()
    return sum(enqueue(build_server_indexes, server_id) for server_id in servers_needing_an_index())
