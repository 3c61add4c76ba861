"""Words and meaning fused by score: the search and the relevance of a type that embeds. Whenever
meaning cannot be used — no embedding model, the provider fails or times out, the catch-up round is still running,
or the model was just changed — they fall back to words and say why; never an error. A message of
MIN_MESSAGE_CHARACTERS or more costs one embedding call, a shorter one none; the bot's one search embeds its query.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from memory.clients.embeddings import MIN_MESSAGE_CHARACTERS, EmbeddingError
from memory.indexing.catchup import meaning_for
from memory.models import AISettings, Fact
from memory.text.time_expressions import DateSpan, date_span
from teams.models import Server

from . import diversity
from .audience import Reader
from .meaning import RESULT_DEPTH, nearest_facts
from .scored import Scored, in_span
from .shown_facts import facts_in_order
from .words import DATE_BONUS, SEARCH_RESULT_LIMIT, scored_word_ids

logger = logging.getLogger(__name__)

# Score fusion (bench/retrieval.py prints every setting tried, on the natural and the paraphrase set): meaning's
# cosine similarity, min-max scaled over its candidates, plus WORDS_SHARE × the words score as a share of the best
# words score, raised to WORDS_POWER, counted from WORDS_GATE up, plus DATE_BONUS for a fact dated in the span the
# question names. Measured with the built-in multilingual model (hybrid before diversity), words weighing more only
# lost: natural MRR 0.840 at a share of 0.05 from a gate of 0.9, 0.838 at 0.1, 0.825 at 0.5 (gate 0.4), 0.796 at 1
# with no gate; paraphrase 0.708, 0.704, 0.672, 0.610 (meaning alone 0.708). So words only break near-ties in
# meaning in favour of the fact that holds (nearly) the best words match, and bring their candidates (a fact meaning
# ranked 40th that names the month asked about); the date preference is what lifts the natural set (0.781 → 0.840).
# Reciprocal rank fusion is printed beside it: at best equal to meaning (k 5, words weighing 0.1). docs/ARCHITECTURE.md.
WORDS_SHARE = 0.05
WORDS_GATE = 0.9
WORDS_POWER = 2.0
RRF_K = 60


def fused_scores(words: Sequence[Scored], meaning: Sequence[Scored], span: DateSpan | None = None) -> dict[int, float]:
    """Each found fact's fused score (higher is better)."""
    scores: dict[int, float] = {}
    if meaning:
        high, low = meaning[0].score, meaning[-1].score
        spread = high - low
        for item in meaning:
            scores[item.id] = (item.score - low) / spread if spread > 1e-9 else 1.0
    best_words = max((item.score for item in words), default=0.0)
    for item in words:
        share = item.score / best_words if best_words > 0 else 0.0
        gained = WORDS_SHARE * share ** WORDS_POWER if share >= WORDS_GATE else 0.0
        scores[item.id] = scores.get(item.id, 0.0) + gained
    if span is not None:
        for item in (*words, *meaning):
            if item.id in scores and in_span(item.changed_at, span):
                scores[item.id] += DATE_BONUS / 2  # once per half that found it: at most DATE_BONUS
    return scores


def fused_order(scores: dict[int, float], meaning: Sequence[Scored]) -> list[int]:
    """The fused facts best first (ties: the nearer in meaning)."""
    meaning_rank = {item.id: rank for rank, item in enumerate(meaning)}
    return sorted(scores, key=lambda fact_id: (-scores[fact_id], meaning_rank.get(fact_id, 10**9), fact_id))


def fuse_by_rank(words: Sequence[int], meaning: Sequence[int], limit: int, *, words_weight: float = 1.0,
                 k: int = RRF_K) -> list[int]:
    """Reciprocal rank fusion (printed by bench/retrieval.py for comparison): Σ weight / (k + rank)."""
    scores: dict[int, float] = {}
    for weight, ranking in ((words_weight, words), (1.0, meaning)):
        for rank, fact_id in enumerate(ranking, start=1):
            scores[fact_id] = scores.get(fact_id, 0.0) + weight / (k + rank)
    return sorted(scores, key=lambda fact_id: (-scores[fact_id], fact_id))[:limit]


@dataclass(frozen=True)
class RankedIds:
    ids: list[int]
    mode: str  # "hybrid" | "words"
    fallback_reason: str | None
    embedding_calls: int
    embed_ms: float = 0.0


def words_ranking(server_id: int, text: str, limit: int, *, reader: Reader, span: DateSpan | None) -> list[int]:
    """The words search for `text` (its time expression a date preference), its first POOL made diverse by shared
    lexemes. Facts holding every term stay ahead of the others (they count one more in relevance)."""
    found = scored_word_ids(server_id, text, max(limit, diversity.POOL), reader=reader, span=span)
    return words_order(found, limit, span)


def words_order(found: Sequence[Scored], limit: int, span: DateSpan | None,
                lambda_: float = diversity.LAMBDA) -> list[int]:
    """The words search's order (every term first, then score and the date preference) made diverse."""
    relevance = _relevance({item.id: item.score + float(item.every_term)
                            + (DATE_BONUS if span and in_span(item.changed_at, span) else 0.0) for item in found})
    return diversity.diverse([item.id for item in found], relevance, diversity.word_similarity(found), limit,
                             lambda_=lambda_)


def hybrid_order(words: Sequence[Scored], nearest: Sequence[Scored], limit: int, span: DateSpan | None,
                 similarity_of: Callable[[Sequence[int]], Callable[[int, int], float]],
                 lambda_: float = diversity.LAMBDA) -> list[int]:
    """Words and meaning fused by score, made diverse by the similarity `similarity_of` gives for the first POOL
    (the vectors' cosine)."""
    scores = fused_scores(words, nearest, span)
    ranked = fused_order(scores, nearest)
    return diversity.diverse(ranked, _relevance(scores), similarity_of(ranked[:diversity.POOL]), limit,
                             lambda_=lambda_)


def search_words(server: Server, query: str, limit: int = SEARCH_RESULT_LIMIT, *, reader: Reader,
                 today: date | None = None) -> list[Fact]:
    """The bot's one search by words: the facts in force the reader may see, best first (BM25 in the server's
    language, every term first, a time expression a date preference, made diverse)."""
    span = date_span(query, today or timezone.localdate())
    return facts_in_order(server.pk, words_ranking(server.pk, query, limit, reader=reader, span=span), reader)


def _relevance(scores: dict[int, float]) -> dict[int, float]:
    """Scores scaled to 0..1 by the best (what maximal marginal relevance weighs against similarity)."""
    best = max(scores.values(), default=0.0)
    return {fact_id: score / best if best > 0 else 0.0 for fact_id, score in scores.items()}


def hybrid_ids(server: Server, ai_settings: AISettings, text: str, limit: int, *, reader: Reader,
               embed_short_text: bool = True, today: date | None = None) -> RankedIds:
    """Words and meaning fused for `text`, over the facts the reader may see, made diverse; words alone (with the
    reason) whenever meaning cannot be used. `embed_short_text=False` applies the message rule: under
    MIN_MESSAGE_CHARACTERS, no call. A time expression in `text` prefers facts dated in its span (`today` is the
    day it is read against; the server's day by default)."""
    meaning = meaning_for(server, ai_settings)
    span = date_span(text, today or timezone.localdate())

    def words_alone() -> list[int]:
        return words_ranking(server.pk, text, limit, reader=reader, span=span)

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
    model_name = meaning.provider.model_name
    nearest = nearest_facts(server.pk, model_name, vector, max(limit, RESULT_DEPTH), reader=reader)
    words = scored_word_ids(server.pk, text, RESULT_DEPTH, reader=reader, span=span)
    ids = hybrid_order(words, nearest, limit, span, lambda pool: diversity.vector_similarity(model_name, pool))
    return RankedIds(ids, "hybrid", None, 1, embed_ms)
