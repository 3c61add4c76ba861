"""Fact vectors: which embedding provider a server uses, and writing each fact's vector once per wording.

Costs (SPEC §4, Semantic): a fact is embedded once per wording — after it is written or rewritten, in
batches, by the worker, queued when the write commits — and never again while its text is unchanged
(`text_hash`). What embeds a message or a query is the reading side's (memory.retrieval.fusion).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from config.queue import enqueue_on_commit
from memory.clients.embeddings import EmbeddingError, EmbeddingProvider, LocalProvider, endpoint_provider, fact_text
from memory.configuration.selectors import ai_settings_for_server, model_endpoints_for_server
from memory.models import AISettings, EmbeddingProviderChoice, Fact, FactEmbedding, UsagePurpose
from memory.types import profile_for
from memory.usage.recording import CallUsage, model_calls_record
from teams.models import Server

logger = logging.getLogger(__name__)

EMBED_BATCH = 32


def provider_for(server: Server, ai_settings: AISettings | None = None) -> tuple[EmbeddingProvider | None, str]:
    """The server's embedding provider, or None and why there is none (one sentence). An endpoint's calls record
    their usage; the built-in local model's record nothing (no endpoint, no cost)."""
    ai_settings = ai_settings or ai_settings_for_server(server)
    if ai_settings.embedding_provider == EmbeddingProviderChoice.LOCAL:
        return LocalProvider(), ""
    if ai_settings.embedding_provider == EmbeddingProviderChoice.ENDPOINT:
        provider = endpoint_provider(model_endpoints_for_server(server))
        if provider is None:
            return None, "no embedding endpoint is configured (AI settings)"
        model = provider.model

        def record(tokens: int | None) -> None:  # every call to the endpoint, the bot's searches' included
            model_calls_record(server_id=server.pk, purpose=UsagePurpose.EMBEDDING,
                               calls=[CallUsage(model, prompt_tokens=tokens)])

        provider.on_usage = record
        return provider, ""
    return None, "embeddings are switched off for this server (AI settings)"


def text_hash(key: str, content: str, model_name: str) -> str:
    return hashlib.sha256(f"{model_name}\n{fact_text(key, content)}".encode()).hexdigest()


def queue_fact_embeddings(server: Server, fact_ids: list[int]) -> None:
    """After a write commits: embed the facts (Semantic servers only; a no-op otherwise)."""
    ai_settings = ai_settings_for_server(server)
    if not profile_for(ai_settings.memory_type).embeds or not fact_ids:
        return
    enqueue_on_commit("memory.tasks.embed_facts", server.pk, list(fact_ids))


@dataclass
class EmbedOutcome:
    embedded: int  # vectors stored (facts sent to the provider that were still there, as worded, when they came back)
    unchanged: int  # facts whose text was already embedded by this model


def embed_facts_now(server: Server, fact_ids: list[int], provider: EmbeddingProvider | None = None) -> EmbedOutcome:
    """Embed the facts in force among `fact_ids` whose current wording has no vector from this model;
    one provider call per EMBED_BATCH facts. Idempotent: run twice, the second run calls nothing."""
    if provider is None:
        provider, _ = provider_for(server)
        if provider is None:
            return EmbedOutcome(0, 0)
    facts = list(Fact.objects.filter(server=server, pk__in=fact_ids, retracted_at__isnull=True)
                 .values_list("pk", "key", "content"))
    existing = dict(FactEmbedding.objects.filter(fact_id__in=[pk for pk, _, _ in facts], model_name=provider.model_name)
                    .values_list("fact_id", "text_hash"))
    todo = [(pk, key, content) for pk, key, content in facts
            if existing.get(pk) != text_hash(key, content, provider.model_name)]
    stored = 0
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        vectors = provider.passages([fact_text(key, content) for _, key, content in batch])
        now = timezone.now()
        with transaction.atomic():
            # The provider may take seconds, and nothing is locked meanwhile: a wipe or a delete may have removed
            # some of these facts, an edit may have reworded one (and its own batch may have stored the new
            # wording's vector already). Only facts still here with the wording that was embedded are stored,
            # locked until the vectors are in: a wiped fact never gets a vector back, a new wording's vector is
            # never overwritten by the old one's, and the batch never fails on a fact that is gone.
            unchanged = set(Fact.objects.filter(pk__in=[pk for pk, _, _ in batch])
                            .select_for_update(no_key=True).values_list("pk", "key", "content"))
            kept = [(row, vector) for row, vector in zip(batch, vectors, strict=True) if row in unchanged]
            FactEmbedding.objects.bulk_create(
                [FactEmbedding(fact_id=pk, server=server, model_name=provider.model_name,
                               text_hash=text_hash(key, content, provider.model_name), vector=vector,
                               embedded_at=now)
                 for (pk, key, content), vector in kept],
                update_conflicts=True, unique_fields=["fact"],
                update_fields=["model_name", "text_hash", "vector", "embedded_at"],
            )
        stored += len(kept)
    return EmbedOutcome(embedded=stored, unchanged=len(facts) - len(todo))


def facts_needing_embedding(server: Server, model_name: str) -> QuerySet[Fact]:
    """Facts in force without a vector from `model_name` for their current wording. (A stale hash is
    checked when the batch is embedded; here a vector of another model, or none, is what counts.)"""
    # NOT EXISTS, not NOT IN: PostgreSQL runs it as an anti-join at any size, while a NOT IN list that
    # outgrows work_mem is re-scanned for every fact (it did not finish in 10 minutes at a million).
    embedded = FactEmbedding.objects.filter(fact_id=OuterRef("pk"), model_name=model_name)
    return Fact.objects.filter(server=server, retracted_at__isnull=True).filter(~Exists(embedded))


def statement_vector(server: Server, key: str, content: str) -> tuple[EmbeddingProvider, list[float]] | None:
    """The vector a fact of this wording would get (the server's provider, its passage of the fact's text), for the
    check whether it is already known before it is written; None when the server has no provider or it fails (the
    check then goes by words alone: a remember never fails for want of a vector)."""
    provider, _ = provider_for(server)
    if provider is None:
        return None
    try:
        return provider, provider.passages([fact_text(key, content)])[0]
    except EmbeddingError as error:
        logger.warning("embedding a remembered fact failed: %s", error)
    except Exception:  # noqa: BLE001 - a broken local model must not break a remember
        logger.exception("embedding a remembered fact failed")
    return None


def fact_vector_store(server: Server, fact: Fact, provider: EmbeddingProvider, vector: list[float]) -> None:
    """Keep the vector computed for a fact as it was written: the embedding queued on commit then finds its wording
    embedded by this model and calls nothing."""
    FactEmbedding.objects.update_or_create(
        fact=fact, defaults={"server": server, "model_name": provider.model_name, "vector": vector,
                             "text_hash": text_hash(fact.key, fact.content, provider.model_name),
                             "embedded_at": timezone.now()})
