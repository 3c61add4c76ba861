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

import logging
import time
from dataclasses import dataclass

from django.db import connection, transaction

from memory.clients.embeddings import MIN_MESSAGE_CHARACTERS, EmbeddingError, LocalProvider
from memory.indexing import server_indexes
from memory.indexing.catchup import meaning_for
from memory.indexing.vectors import EMBED_BATCH, facts_needing_embedding, provider_for
from memory.models import AISettings, Fact, FactEmbedding
from teams.models import Server

logger = logging.getLogger(__name__)

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
