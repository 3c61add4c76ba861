"""Celery tasks of memory's worker side: embedding written facts, the catch-up round, the sweeper, the per-server
indexes and the words index's language (memory.indexing). Queued by these names (config.queue), never imported.

Each is idempotent (what is embedded or built is in the database; a fact whose wording already has a vector from
the current model is skipped) and acknowledged late, so a worker killed mid-batch loses nothing: the redelivered
task does what is still missing, and nothing twice.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError
from django.utils import timezone

from config.queue import enqueue
from memory.bot.idempotency import idempotent_requests_purge
from memory.bot.retention import exchange_logs_trim
from memory.clients.embeddings import EmbeddingError
from memory.indexing import catchup, server_indexes, words_language
from memory.indexing.vectors import embed_facts_now
from memory.learning.runs import learning_run, servers_with_unread_messages
from teams.models import Server


@shared_task(name="memory.tasks.embed_facts", acks_late=True, ignore_result=True,
             autoretry_for=(EmbeddingError, DatabaseError), retry_backoff=30, max_retries=5)
def embed_facts(server_id: int, fact_ids: list[int]) -> int:
    server = Server.objects.filter(pk=server_id).first()
    return embed_facts_now(server, fact_ids).embedded if server else 0


@shared_task(name="memory.tasks.run_catchup", acks_late=True, ignore_result=True,
             autoretry_for=(EmbeddingError, DatabaseError), retry_backoff=30, max_retries=10)
def run_catchup(round_id: int) -> str:
    return catchup.catchup_run(round_id).status


@shared_task(name="memory.tasks.sweep_embeddings", acks_late=True, ignore_result=True)
def sweep_embeddings() -> int:
    """Beat, every 10 minutes: re-queue embedding work the broker could not take (memory.indexing.catchup)."""
    return catchup.sweep_embeddings()


@shared_task(name="memory.tasks.build_server_indexes", acks_late=True, ignore_result=True)
def build_server_indexes(server_id: int) -> list[str]:
    """A large server's own word and vector indexes (memory.indexing.server_indexes); nothing for a small one."""
    return server_indexes.ensure_server_indexes(server_id)


@shared_task(name="memory.tasks.maintain_server_indexes", acks_late=True, ignore_result=True)
def maintain_server_indexes() -> int:
    """Beat, every 10 minutes: queue the builds of large servers' missing (or half-built) indexes and
    drop those of servers that are gone or empty. Returns how many servers' builds were queued."""
    server_indexes.drop_unneeded_server_indexes()
    return sum(enqueue("memory.tasks.build_server_indexes", server_id)
               for server_id in server_indexes.servers_needing_an_index())


@shared_task(name="memory.tasks.trim_exchange_logs", acks_late=True, ignore_result=True)
def trim_exchange_logs() -> int:
    """Beat, daily: remove the words of exchanges older than their server's *Keep exchange logs for* days
    (memory.bot.retention), and the answers kept for Idempotency-Keys past their day (memory.bot.idempotency: they
    may hold a reply's words, and are never given again). Idempotent: a trimmed exchange is never trimmed again.
    Returns how many exchanges were trimmed."""
    now = timezone.now()
    idempotent_requests_purge(now=now)
    return exchange_logs_trim(now=now)


@shared_task(name="memory.tasks.reindex_words", acks_late=True, ignore_result=True,
             autoretry_for=(DatabaseError,), retry_backoff=30, max_retries=10)
def reindex_words(server_id: int) -> int:
    """Re-index a server's facts for its new memory language, in batches (memory.indexing.words_language)."""
    return words_language.words_reindex_run(server_id)


@shared_task(name="memory.tasks.detect_memory_languages", acks_late=True, ignore_result=True)
def detect_memory_languages() -> int:
    """Beat, hourly: servers without a chosen Memory language take the one their facts and messages are in."""
    return words_language.memory_languages_detect()


@shared_task(name="memory.tasks.learn_from_messages", acks_late=True, ignore_result=True)
def learn_from_messages(server_id: int) -> str:
    """One learning run of the server (memory.learning.runs); queued again while messages remain. A second worker
    told to run the same server returns at once: the claim lets one run per server work."""
    server = Server.objects.filter(pk=server_id).first()
    if server is None:
        return "gone"
    outcome = learning_run(server)
    if outcome.more:
        enqueue("memory.tasks.learn_from_messages", server_id)
    return outcome.said


@shared_task(name="memory.tasks.schedule_learning_runs", acks_late=True, ignore_result=True)
def schedule_learning_runs() -> int:
    """Beat, every minute: a run for each server with messages not yet read and no live run (a run a killed worker
    left open is resumed; messages whose queueing failed are read)."""
    servers = servers_with_unread_messages()
    for server_id in servers:
        enqueue("memory.tasks.learn_from_messages", server_id)
    return len(servers)
