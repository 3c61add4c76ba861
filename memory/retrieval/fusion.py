"""Words and meaning fused (reciprocal rank fusion): the search and the relevance of a type that embeds. Whenever
meaning cannot be used — no embedding model, the provider fails or times out, the catch-up round is still running,
or the model was just changed — they fall back to words and say why; never an error. A message of
MIN_MESSAGE_CHARACTERS or more costs one embedding call, a shorter one none; the bot's one search embeds its query.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from memory.clients.embeddings import MIN_MESSAGE_CHARACTERS, EmbeddingError
from memory.indexing.catchup import meaning_for
from memory.models import AISettings
from teams.models import Server

from .audience import Reader
from .meaning import RESULT_DEPTH, nearest_fact_ids
from .words import search_word_ids

logger = logging.getLogger(__name__)

# Reciprocal rank fusion: score = Σ weight / (RRF_K + rank). Measured on 230 paraphrased questions
# (bench/retrieval.py): meaning alone recall@5 0.826 / MRR 0.708, words alone 0.043 / 0.041. Equal
# weights (the textbook k=60) pull MRR down to 0.70 and recall to 0.74 with any-word matching, because
# a fact sharing a word with the question is usually not its answer. So words count for a tenth of
# meaning with a steep k=5: a fact holding every word breaks near-ties in meaning's order and is kept
# as a candidate, but never outranks a clearly closer meaning; fused MRR equals meaning's (0.708).
RRF_K = 5
WORDS_WEIGHT = 0.1
MEANING_WEIGHT = 1.0


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


def hybrid_ids(server: Server, ai_settings: AISettings, text: str, limit: int, *, reader: Reader,
               embed_short_text: bool = True) -> RankedIds:
    """Words and meaning fused for `text`, over the facts the reader may see; words alone (with the reason)
    whenever meaning cannot be used. `embed_short_text=False` applies the message rule: under
    MIN_MESSAGE_CHARACTERS, no call."""
    meaning = meaning_for(server, ai_settings)

    def words_alone(depth: int = limit) -> list[int]:
        return search_word_ids(server.pk, text, depth, reader=reader)

    if meaning.provider is None:
        return RankedIds(words_alone(), "words", meaning.fallback_reason, 0)
    if not embed_short_text and len(text.strip()) < MIN_MESSAGE_CHARACTERS:
        return RankedIds(words_alone(), "words", f"messages under {MIN_MESSAGE_CHARACTERS} characters are not embedded",
                         0)
    started = time.perf_counter()
    try:
        vector = meaning.provider.query(text)
    except EmbeddingError as error:
        return RankedIds(words_alone(), "words", f"the embedding provider failed: {error}", 1)
    except Exception as error:  # noqa: BLE001 - a broken local model must not break a reply
        logger.exception("embedding the query failed")
        return RankedIds(words_alone(), "words", f"the embedding provider failed ({error.__class__.__name__})", 1)
    embed_ms = (time.perf_counter() - started) * 1000
    nearest = nearest_fact_ids(server.pk, meaning.provider.model_name, vector, max(limit, RESULT_DEPTH), reader=reader)
    words = words_alone(RESULT_DEPTH)
    return RankedIds(fuse(words, nearest, limit), "hybrid", None, 1, embed_ms)
