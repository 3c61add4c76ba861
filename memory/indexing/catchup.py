"""The catch-up round, which gives every fact in force a vector from the server's current embedding model (switching
to a type that embeds, a model change, an import), its progress, the sweeper that re-queues what the broker could not
take, and whether a server's vectors are complete, which the reading side asks before it uses meaning."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Least
from django.utils import timezone

from config.queue import enqueue, enqueue_on_commit
from memory.clients.embeddings import EmbeddingError, EmbeddingProvider
from memory.configuration.selectors import ai_settings_for_server
from memory.models import EMBEDDING_ROUND_OPEN, AISettings, EmbeddingRound, EmbeddingRoundStatus
from memory.types import EMBEDDING_TYPES, profile_for
from teams.models import Server

from . import vectors
from .vectors import EMBED_BATCH, embed_facts_now, facts_needing_embedding

logger = logging.getLogger(__name__)

# Every provider choice below goes through vectors.provider_for, looked up at each call: bench/semantic.py swaps in
# a synthetic provider there for its whole run.


def catchup_start(server: Server) -> EmbeddingRound | None:
    """Queue a catch-up round for the server's current model (switching to Semantic, or a new model).
    An open round of the same model is kept; one of another model is replaced."""
    provider, _ = vectors.provider_for(server)
    if provider is None:
        return None
    with transaction.atomic():
        Server.objects.select_for_update().filter(pk=server.pk).first()
        open_round = EmbeddingRound.objects.filter(server=server, status__in=EMBEDDING_ROUND_OPEN).first()
        if open_round is not None and open_round.model_name == provider.model_name:
            return open_round
        if open_round is not None:
            open_round.status = EmbeddingRoundStatus.REPLACED
            open_round.finished_at = timezone.now()
            open_round.save(update_fields=["status", "finished_at"])
        total = facts_needing_embedding(server, provider.model_name).count()
        catchup = EmbeddingRound.objects.create(server=server, model_name=provider.model_name, total=total)
    enqueue_on_commit("memory.tasks.run_catchup", catchup.pk)
    return catchup


def catchup_run(round_id: int, provider: EmbeddingProvider | None = None, batches: int | None = None) -> EmbeddingRound:
    """Embed batch after batch, committing each, until nothing is left (or `batches` ran). Resumable:
    what is done is in the database, so a restarted worker simply continues."""
    catchup = EmbeddingRound.objects.select_related("server").get(pk=round_id)
    if catchup.status not in EMBEDDING_ROUND_OPEN:
        return catchup
    server = catchup.server
    if provider is None:
        provider, reason = vectors.provider_for(server)
        if provider is None or provider.model_name != catchup.model_name:
            catchup.status, catchup.finished_at = EmbeddingRoundStatus.REPLACED, timezone.now()
            catchup.error = reason or "The embedding model changed; a new round took over."
            catchup.save(update_fields=["status", "finished_at", "error"])
            return catchup
    EmbeddingRound.objects.filter(pk=round_id, status=EmbeddingRoundStatus.QUEUED).update(
        status=EmbeddingRoundStatus.RUNNING, started_at=timezone.now())
    ran = 0
    while batches is None or ran < batches:
        ids = list(facts_needing_embedding(server, catchup.model_name).order_by("pk")
                   .values_list("pk", flat=True)[:EMBED_BATCH])
        if not ids:
            break
        try:
            embed_facts_now(server, ids, provider)
        except EmbeddingError as error:
            EmbeddingRound.objects.filter(pk=round_id).update(error=str(error)[:500])
            raise
        ran += 1
        # Counted up per batch: recounting what is left would read every fact of the server each time.
        EmbeddingRound.objects.filter(pk=round_id).update(done=Least(F("done") + len(ids), F("total")),
                                                          updated_at=timezone.now())
        if not EmbeddingRound.objects.filter(pk=round_id, status__in=EMBEDDING_ROUND_OPEN).exists():
            break  # replaced by a round of another model meanwhile
    catchup.refresh_from_db()
    if catchup.status in EMBEDDING_ROUND_OPEN and not facts_needing_embedding(server, catchup.model_name).exists():
        catchup.status, catchup.done, catchup.finished_at = EmbeddingRoundStatus.FINISHED, catchup.total, timezone.now()
        catchup.save(update_fields=["status", "done", "finished_at"])
        # A server that is large now gets its own graph (memory.indexing.server_indexes); a small one is left as is.
        enqueue_on_commit("memory.tasks.build_server_indexes", server.pk)
    return catchup


@dataclass(frozen=True)
class CatchupProgress:
    round: EmbeddingRound
    done: int
    total: int
    rate_per_s: float | None
    seconds_left: float | None

    @property
    def percent(self) -> int:
        return 100 if not self.total else min(100, int(100 * self.done / self.total))


def sweep_embeddings(stale_after_s: float = 600) -> int:
    """What the periodic sweeper does for Semantic servers: catch-up rounds nobody has advanced for a
    while are queued again, and facts written while the broker was down get their vectors. Returns
    how many pieces of work were queued."""
    queued = 0
    stale = timezone.now() - timedelta(seconds=stale_after_s)
    for catchup in EmbeddingRound.objects.filter(status__in=EMBEDDING_ROUND_OPEN).filter(
            Q(updated_at__lt=stale) | Q(updated_at__isnull=True, created_at__lt=stale)):
        queued += enqueue("memory.tasks.run_catchup", catchup.pk)
    for ai_settings in AISettings.objects.filter(memory_type__in=EMBEDDING_TYPES).select_related("server"):
        server = ai_settings.server
        meaning = meaning_for(server, ai_settings)
        if meaning.provider is None:
            continue
        missing = list(facts_needing_embedding(server, meaning.provider.model_name)
                       .filter(changed_at__lt=stale).values_list("pk", flat=True)[:1000])
        if missing:
            queued += enqueue("memory.tasks.embed_facts", server.pk, missing)
    return queued


def catchup_progress(server: Server) -> CatchupProgress | None:
    """The latest open catch-up round's progress (None when none is open)."""
    catchup = (EmbeddingRound.objects.filter(server=server, status__in=EMBEDDING_ROUND_OPEN)
               .order_by("-created_at").first())
    if catchup is None:
        return None
    rate = None
    left = None
    if catchup.started_at and catchup.done:
        elapsed = (timezone.now() - catchup.started_at).total_seconds()
        rate = catchup.done / elapsed if elapsed > 0 else None
        left = (catchup.total - catchup.done) / rate if rate else None
    return CatchupProgress(catchup, catchup.done, catchup.total, rate, left)


@dataclass(frozen=True)
class Meaning:
    """Whether meaning can be used now on this server: a provider, or the reason it cannot."""

    provider: EmbeddingProvider | None
    fallback_reason: str | None


def meaning_for(server: Server, ai_settings: AISettings) -> Meaning:
    provider, reason = vectors.provider_for(server, ai_settings)
    if provider is None:
        return Meaning(None, reason)
    latest = EmbeddingRound.objects.filter(server=server).exclude(status=EmbeddingRoundStatus.REPLACED) \
        .order_by("-created_at").first()
    if latest is None or latest.model_name != provider.model_name:
        return Meaning(None, "the embedding model was just changed and its catch-up round has not run yet")
    if latest.status != EmbeddingRoundStatus.FINISHED:
        return Meaning(None, f"the catch-up round has not finished ({latest.done} of {latest.total} facts embedded)")
    return Meaning(provider, None)


def semantic_pairs_ready(server: Server) -> EmbeddingProvider | None:
    """The provider whose vectors cover the server, for consolidation's vector neighbours (or None)."""
    ai_settings = ai_settings_for_server(server)
    if not profile_for(ai_settings.memory_type).embeds:
        return None
    return meaning_for(server, ai_settings).provider


def catchup_if_embedding(server: Server) -> None:
    """Under a type that embeds, every fact without a vector from the current model gets one (a catch-up round;
    words meanwhile): after the embedding model may have changed, or facts arrived without vectors (an import)."""
    if profile_for(ai_settings_for_server(server).memory_type).embeds:
        catchup_start(server)
