"""Semantic memory: fact vectors in PostgreSQL (pgvector, HNSW), hybrid search, and the catch-up round.

Costs (SPEC §4, Semantic): a fact is embedded once per wording — after it is written or rewritten, in
batches, by the worker, queued when the write commits — and never again while its text is unchanged
(`text_hash`); a message of MIN_MESSAGE_CHARACTERS or more costs one call, a shorter one none. The
bot's one search embeds its query (one call per search).

Search and relevance fuse the words ranking and the vector ranking (reciprocal rank fusion). Whenever
meaning cannot be used — no embedding model, the provider fails or times out, the catch-up round is
still running, or the model was just changed — they fall back to words and say why; never an error.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.functions import Least
from django.utils import timezone

from config.queue import enqueue, enqueue_on_commit
from teams.models import Server

from memory.clients.embeddings import (
    MIN_MESSAGE_CHARACTERS,
    EmbeddingError,
    EmbeddingProvider,
    LocalProvider,
    endpoint_provider,
    fact_text,
)
from .models import (
    EMBEDDING_ROUND_OPEN,
    AISettings,
    EmbeddingProviderChoice,
    EmbeddingRound,
    EmbeddingRoundStatus,
    Fact,
    FactEmbedding,
)
from .types import EMBEDDING_TYPES, profile_for
from . import server_indexes
from memory.configuration.selectors import ai_settings_for_server, model_endpoints_for_server

logger = logging.getLogger(__name__)

EMBED_BATCH = 32
# Each ranking contributes its first RESULT_DEPTH facts to the fusion.
RESULT_DEPTH = 30
# Reciprocal rank fusion: score = Σ weight / (RRF_K + rank). Measured on 230 paraphrased questions
# (bench/retrieval.py): meaning alone recall@5 0.826 / MRR 0.708, words alone 0.043 / 0.041. Equal
# weights (the textbook k=60) pull MRR down to 0.70 and recall to 0.74 with any-word matching, because
# a fact sharing a word with the question is usually not its answer. So words count for a tenth of
# meaning with a steep k=5: a fact holding every word breaks near-ties in meaning's order and is kept
# as a candidate, but never outranks a clearly closer meaning; fused MRR equals meaning's (0.708).
RRF_K = 5
WORDS_WEIGHT = 0.1
MEANING_WEIGHT = 1.0
# Candidates the HNSW search keeps while it walks the graph. Measured at a million vectors on the server's
# own index (bench/semantic.py, 200 queries): recall@10 0.959 at 100, 0.979 at 200, 0.989 at 400;
# nearest-fact p95 7.7, 10.7 and 18.7 ms. 200 keeps a margin above 0.95 for a few milliseconds.
HNSW_EF_SEARCH = 200


def provider_for(server: Server, ai_settings: AISettings | None = None) -> tuple[EmbeddingProvider | None, str]:
    """The server's embedding provider, or None and why there is none (one sentence)."""
    ai_settings = ai_settings or ai_settings_for_server(server)
    if ai_settings.embedding_provider == EmbeddingProviderChoice.LOCAL:
        return LocalProvider(), ""
    if ai_settings.embedding_provider == EmbeddingProviderChoice.ENDPOINT:
        provider = endpoint_provider(model_endpoints_for_server(server))
        if provider is None:
            return None, "no embedding endpoint is configured (AI settings)"
        return provider, ""
    return None, "embeddings are switched off for this server (AI settings)"


def text_hash(key: str, content: str, model_name: str) -> str:
    return hashlib.sha256(f"{model_name}\n{fact_text(key, content)}".encode()).hexdigest()


# Writing vectors ---------------------------------------------------------------------


def queue_fact_embeddings(server: Server, fact_ids: list[int]) -> None:
    """After a write commits: embed the facts (Semantic servers only; a no-op otherwise)."""
    ai_settings = ai_settings_for_server(server)
    if not profile_for(ai_settings.memory_type).embeds or not fact_ids:
        return
    from .tasks import embed_facts

    enqueue_on_commit(embed_facts, server.pk, list(fact_ids))


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


# The catch-up round --------------------------------------------------------------------


def facts_needing_embedding(server: Server, model_name: str):
    """Facts in force without a vector from `model_name` for their current wording. (A stale hash is
    checked when the batch is embedded; here a vector of another model, or none, is what counts.)"""
    # NOT EXISTS, not NOT IN: PostgreSQL runs it as an anti-join at any size, while a NOT IN list that
    # outgrows work_mem is re-scanned for every fact (it did not finish in 10 minutes at a million).
    embedded = FactEmbedding.objects.filter(fact_id=OuterRef("pk"), model_name=model_name)
    return Fact.objects.filter(server=server, retracted_at__isnull=True).filter(~Exists(embedded))


def catchup_start(server: Server) -> EmbeddingRound | None:
    """Queue a catch-up round for the server's current model (switching to Semantic, or a new model).
    An open round of the same model is kept; one of another model is replaced."""
    provider, _ = provider_for(server)
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
    from .tasks import run_catchup

    enqueue_on_commit(run_catchup, catchup.pk)
    return catchup


def catchup_run(round_id: int, provider: EmbeddingProvider | None = None, batches: int | None = None) -> EmbeddingRound:
    """Embed batch after batch, committing each, until nothing is left (or `batches` ran). Resumable:
    what is done is in the database, so a restarted worker simply continues."""
    catchup = EmbeddingRound.objects.select_related("server").get(pk=round_id)
    if catchup.status not in EMBEDDING_ROUND_OPEN:
        return catchup
    server = catchup.server
    if provider is None:
        provider, reason = provider_for(server)
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
        from .tasks import build_server_indexes

        # A server that is large now gets its own graph (memory.server_indexes); a small one is left as is.
        enqueue_on_commit(build_server_indexes, server.pk)
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
    from .tasks import embed_facts, run_catchup

    queued = 0
    stale = timezone.now() - timedelta(seconds=stale_after_s)
    for catchup in EmbeddingRound.objects.filter(status__in=EMBEDDING_ROUND_OPEN).filter(
            Q(updated_at__lt=stale) | Q(updated_at__isnull=True, created_at__lt=stale)):
        queued += enqueue(run_catchup, catchup.pk)
    for ai_settings in AISettings.objects.filter(memory_type__in=EMBEDDING_TYPES).select_related("server"):
        server = ai_settings.server
        meaning = meaning_for(server, ai_settings)
        if meaning.provider is None:
            continue
        missing = list(facts_needing_embedding(server, meaning.provider.model_name)
                       .filter(changed_at__lt=stale).values_list("pk", flat=True)[:1000])
        if missing:
            queued += enqueue(embed_facts, server.pk, missing)
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


# Reading: can meaning be used, and hybrid search ---------------------------------------


@dataclass(frozen=True)
class Meaning:
    """Whether meaning can be used now on this server: a provider, or the reason it cannot."""

    provider: EmbeddingProvider | None
    fallback_reason: str | None


def meaning_for(server: Server, ai_settings: AISettings) -> Meaning:
    provider, reason = provider_for(server, ai_settings)
    if provider is None:
        return Meaning(None, reason)
    latest = EmbeddingRound.objects.filter(server=server).exclude(status=EmbeddingRoundStatus.REPLACED) \
        .order_by("-created_at").first()
    if latest is None or latest.model_name != provider.model_name:
        return Meaning(None, "the embedding model was just changed and its catch-up round has not run yet")
    if latest.status != EmbeddingRoundStatus.FINISHED:
        return Meaning(None, f"the catch-up round has not finished ({latest.done} of {latest.total} facts embedded)")
    return Meaning(provider, None)


# The filtered HNSW search: over-fetch twice the limit from the index (some may be retracted), keep the
# facts in force, nearest first. bench/semantic.py EXPLAINs this same statement.
NEAREST_SQL = """
    SELECT nearest.fact_id FROM (
        SELECT e.fact_id, e.vector <=> %(vector)s::vector AS distance FROM memory_factembedding e
        WHERE e.server_id = %(server)s AND e.model_name = %(model)s
        ORDER BY e.vector <=> %(vector)s::vector LIMIT %(candidates)s
    ) nearest JOIN memory_fact f ON f.id = nearest.fact_id AND f.retracted_at IS NULL
    ORDER BY nearest.distance, nearest.fact_id LIMIT %(limit)s
"""


def nearest_params(server_id: int, model_name: str, vector: list[float], limit: int) -> dict:
    return {"vector": "[" + ",".join(f"{value:.7g}" for value in vector) + "]", "server": server_id,
            "model": model_name, "candidates": limit * 2, "limit": limit}


def set_hnsw_search(cursor) -> None:
    """Inside a transaction: iterative scans, so the server filter never leaves fewer than `limit`."""
    # set_config(..., true) is SET LOCAL; unlike SET it takes bound parameters; both in one round trip.
    cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                   " set_config('hnsw.ef_search', %s, true)", [str(HNSW_EF_SEARCH)])


# A server below the size at which it gets a graph of its own (memory/server_indexes.py) is searched
# exactly: its vectors, read through the (server, model) index, every distance computed. The shared graph
# filtered to a small server mostly walks other servers' vectors — each result costs a thousand skipped
# candidates beside a million-vector server, and the iterative scan may stop before it finds them all —
# while reading a few thousand vectors costs a few milliseconds and is exact.
#
# Which way is chosen in the same statement, cheapest test first: fewer numbers handed out than a graph
# needs rows (one row: the usual small server); its own valid graph (one catalog lookup); else fewer
# vectors than that (at most SERVER_INDEX_MIN_ROWS index entries: a server whose facts were mostly wiped,
# or, the other way, a large one whose graph is still being built, which goes through the shared graph).
#
# Only the nearest `candidates` vectors are looked up in memory_fact (are they in force?): checking every
# vector cost 2.6 of the 4.4 ms at 972 vectors. When retracted facts leave fewer than `limit`, the search
# runs again over every vector (LIMIT NULL), so the answer is always exact.
EXACT_NEAREST_SQL = f"""
    WITH exact AS (
        SELECT CASE
            WHEN COALESCE((SELECT last_number FROM memory_factcounter WHERE server_id = %(server)s), 0)
                 < %(graph_rows)s THEN true
            WHEN ({server_indexes.INDEX_VALID_SQL}) THEN false
            ELSE NOT EXISTS (SELECT 1 FROM memory_factembedding
                             WHERE server_id = %(server)s AND model_name = %(model)s OFFSET %(graph_rows)s - 1)
        END AS chosen
    ), mine AS MATERIALIZED (
        SELECT e.fact_id, e.vector <=> %(vector)s::vector AS distance FROM memory_factembedding e
        WHERE (SELECT chosen FROM exact) AND e.server_id = %(server)s AND e.model_name = %(model)s
        ORDER BY distance, e.fact_id LIMIT %(candidates)s
    )
    SELECT (SELECT chosen FROM exact), (SELECT count(*) FROM mine), ARRAY(
        SELECT mine.fact_id FROM mine JOIN memory_fact f ON f.id = mine.fact_id AND f.retracted_at IS NULL
        ORDER BY mine.distance, mine.fact_id LIMIT %(limit)s
    )
"""


def _exact_nearest(cursor, params: dict) -> list[int] | None:
    """The exact answer, or None when the server is searched through a graph."""
    choice = {"graph_rows": server_indexes.SERVER_INDEX_MIN_ROWS,
              "index_name": server_indexes.server_index_name(server_indexes.VECTORS, params["server"])}
    cursor.execute(EXACT_NEAREST_SQL, params | choice)
    chosen, candidates_read, fact_ids = cursor.fetchone()
    if not chosen:
        return None
    more_may_lie_beyond = params["candidates"] is not None and candidates_read == params["candidates"]
    if len(fact_ids) < params["limit"] and more_may_lie_beyond:
        return _exact_nearest(cursor, params | {"candidates": None})  # retracted facts took their places
    return fact_ids


def nearest_fact_ids(server_id: int, model_name: str, vector: list[float], limit: int = RESULT_DEPTH) -> list[int]:
    """Facts in force closest in meaning, nearest first: exactly on a server without a graph of its own and
    below the size that earns one; otherwise through the HNSW index filtered by server (its own, or the
    shared one while its own is being built), with pgvector's iterative scan so the filter never leaves
    fewer than `limit` results."""
    params = nearest_params(server_id, model_name, vector, limit)
    with connection.cursor() as cursor:
        exact = _exact_nearest(cursor, params)
    if exact is not None:
        return exact
    with transaction.atomic(), connection.cursor() as cursor:
        set_hnsw_search(cursor)
        cursor.execute(NEAREST_SQL, params)
        return [row[0] for row in cursor.fetchall()]


def fuse(words: list[int], meaning: list[int], limit: int) -> list[int]:
    """Reciprocal rank fusion of two rankings, best first (ties: the better meaning rank)."""
    scores: dict[int, float] = {}
    for rank, fact_id in enumerate(words, start=1):
        scores[fact_id] = scores.get(fact_id, 0.0) + WORDS_WEIGHT / (RRF_K + rank)
    meaning_rank = {fact_id: rank for rank, fact_id in enumerate(meaning, start=1)}
    for fact_id, rank in meaning_rank.items():
        scores[fact_id] = scores.get(fact_id, 0.0) + MEANING_WEIGHT / (RRF_K + rank)
    return sorted(scores, key=lambda fact_id: (-scores[fact_id], meaning_rank.get(fact_id, 10**9), fact_id))[:limit]


@dataclass(frozen=True)
class RankedIds:
    ids: list[int]
    mode: str  # "hybrid" | "words"
    fallback_reason: str | None
    embedding_calls: int
    embed_ms: float = 0.0


def hybrid_ids(server: Server, ai_settings: AISettings, text: str, limit: int, *,
               embed_short_text: bool = True) -> RankedIds:
    """Words and meaning fused for `text`; words alone (with the reason) whenever meaning cannot be
    used. `embed_short_text=False` applies the message rule: under MIN_MESSAGE_CHARACTERS, no call."""
    from .retrieval import search_word_ids

    meaning = meaning_for(server, ai_settings)
    if meaning.provider is None:
        return RankedIds(search_word_ids(server.pk, text, limit), "words", meaning.fallback_reason, 0)
    if not embed_short_text and len(text.strip()) < MIN_MESSAGE_CHARACTERS:
        return RankedIds(search_word_ids(server.pk, text, limit), "words",
                         f"messages under {MIN_MESSAGE_CHARACTERS} characters are not embedded", 0)
    started = time.perf_counter()
    try:
        vector = meaning.provider.query(text)
    except EmbeddingError as error:
        return RankedIds(search_word_ids(server.pk, text, limit), "words", f"the embedding provider failed: {error}", 1)
    except Exception as error:  # noqa: BLE001 - a broken local model must not break a reply
        logger.exception("embedding the query failed")
        return RankedIds(search_word_ids(server.pk, text, limit), "words",
                         f"the embedding provider failed ({error.__class__.__name__})", 1)
    embed_ms = (time.perf_counter() - started) * 1000
    nearest = nearest_fact_ids(server.pk, meaning.provider.model_name, vector, max(limit, RESULT_DEPTH))
    words = search_word_ids(server.pk, text, RESULT_DEPTH)
    return RankedIds(fuse(words, nearest, limit), "hybrid", None, 1, embed_ms)


def semantic_pairs_ready(server: Server) -> EmbeddingProvider | None:
    """The provider whose vectors cover the server, for consolidation's vector neighbours (or None)."""
    ai_settings = ai_settings_for_server(server)
    if not profile_for(ai_settings.memory_type).embeds:
        return None
    return meaning_for(server, ai_settings).provider


def stale_vectors(server: Server, model_name: str) -> int:
    """Vectors of this server made by another model (left behind by a model change)."""
    return FactEmbedding.objects.filter(server=server).filter(~Q(model_name=model_name)).count()


# Dry run ---------------------------------------------------------------------------------

SAME_MEANING = 0.95  # cosine similarity above which the vectors see two facts as saying the same
SAME_MEANING_SAMPLE = 200
SAME_MEANING_EXAMPLES = 5


@dataclass(frozen=True)
class SemanticDryRun:
    provider_label: str
    fallback_reason: str | None  # why meaning would not be used right after switching
    facts_to_embed: int
    calls: int
    characters: int
    embedded_already: int
    same_pairs: list[tuple[Fact, Fact, float]]
    sampled: int


def semantic_dry_run(server: Server) -> SemanticDryRun:
    """What switching to Semantic would cost in calls and text now, and which facts the vectors already
    see as saying the same (among the most recently changed embedded facts). No money figures."""
    from django.db.models import Sum
    from django.db.models.functions import Length

    provider, reason = provider_for(server)
    model_name = provider.model_name if provider else ""
    todo = facts_needing_embedding(server, model_name)
    counted = todo.aggregate(characters=Sum(Length("content") + Length("key")))
    facts_to_embed = todo.count()
    same: list[tuple[int, int, float]] = []
    sample = 0
    if provider is not None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            cursor.execute(
                """
                WITH sample AS (
                    SELECT e.fact_id, e.vector FROM memory_factembedding e JOIN memory_fact f ON f.id = e.fact_id
                    WHERE e.server_id = %s AND e.model_name = %s AND f.retracted_at IS NULL
                    ORDER BY f.changed_at DESC LIMIT %s
                )
                SELECT sample.fact_id, nearest.fact_id, 1 - nearest.distance, (SELECT count(*) FROM sample)
                FROM sample CROSS JOIN LATERAL (
                    SELECT e.fact_id, e.vector <=> sample.vector AS distance FROM memory_factembedding e
                    WHERE e.server_id = %s AND e.model_name = %s AND e.fact_id <> sample.fact_id
                    ORDER BY e.vector <=> sample.vector LIMIT 1
                ) nearest
                WHERE 1 - nearest.distance >= %s
                """,
                [server.pk, model_name, SAME_MEANING_SAMPLE, server.pk, model_name, SAME_MEANING],
            )
            rows = cursor.fetchall()
        seen: set[tuple[int, int]] = set()
        for left, right, similarity, sampled in rows:
            sample = sampled
            pair = (min(left, right), max(left, right))
            if pair not in seen:
                seen.add(pair)
                same.append((pair[0], pair[1], similarity))
        if not rows:
            sample = FactEmbedding.objects.filter(server=server, model_name=model_name).count()
            sample = min(sample, SAME_MEANING_SAMPLE)
    same.sort(key=lambda item: -item[2])
    facts = Fact.objects.in_bulk([pk for left, right, _ in same[:SAME_MEANING_EXAMPLES] for pk in (left, right)])
    return SemanticDryRun(
        provider_label=("the built-in local model" if isinstance(provider, LocalProvider)
                        else f"the embedding endpoint ({model_name})" if provider else "no embedding model"),
        fallback_reason=reason or None,
        facts_to_embed=facts_to_embed,
        calls=-(-facts_to_embed // EMBED_BATCH),
        characters=counted["characters"] or 0,
        embedded_already=FactEmbedding.objects.filter(server=server, model_name=model_name).count() if provider else 0,
        same_pairs=[(facts[left], facts[right], similarity) for left, right, similarity in same[:SAME_MEANING_EXAMPLES]
                    if left in facts and right in facts],
        sampled=sample,
    )
