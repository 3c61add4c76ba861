"""Celery tasks of Semantic memory: embedding written facts, and the catch-up round.

Both are idempotent (what is embedded is in the database; a fact whose wording already has a vector
from the current model is skipped) and acknowledged late, so a worker killed mid-batch loses nothing:
the redelivered task embeds what is still missing, and nothing twice.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from teams.models import Server

from .embeddings import EmbeddingError


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
def build_server_vector_index(server_id: int) -> bool:
    """A large server's own HNSW index (memory.vector_indexes); nothing when it has one or is small."""
    from .vector_indexes import ensure_server_index

    return ensure_server_index(server_id)


@shared_task(acks_late=True, ignore_result=True)
def maintain_vector_indexes() -> int:
    """Beat, every 10 minutes: queue the build of each large server's missing (or half-built) index and
    drop those of servers that are gone or empty. Returns how many builds were queued."""
    from config.queue import enqueue

    from .vector_indexes import drop_unneeded_server_indexes, servers_needing_an_index

    drop_unneeded_server_indexes()
    return sum(enqueue(build_server_vector_index, server_id) for server_id in servers_needing_an_index())
