"""Ranked context: score facts on recency, importance and relevance (score.py), and find the exact top N
of a server without scoring every one of its facts (top.py, with its SQL in statements.py).

    score = confidence × (w_rec·recency + w_imp·importance + w_rel·relevance) / (w_rec + w_imp + w_rel)

- recency = 0.5 ** (age of the last change / the half-life of the fact's kind), 1 for a half-life of 0: the server's
  AI settings give one per kind (score.HalfLives; by default rules, lore and profiles never age, since age is no
  reason to forget, preferences halve in 180 days and events in 30);
- importance is what the model rated when it wrote the fact (0–1); unscored counts as UNSCORED_IMPORTANCE;
- relevance = 1 − position / RELEVANCE_DEPTH in the full-text results for the current message
  (memory.retrieval.words.search_word_ids); a fact the search did not return gets 0;
- confidence (0–1) multiplies the whole: it can only lower a score.

It ranks and never filters: nothing is stored, so a fact that misses the cut on one message is a
candidate again on the next.

How the top N is found at a million facts (a threshold algorithm). Every fact the search returned, and
the newest facts along the (server, changed_at, id) index, are scored. T, the N-th best score so far,
bounds what any other fact needs: it is older than the last fact walked and unmatched (relevance 0), so
its score is at most (w_rec·recency(last walked) + w_imp·weight) / W, where weight = confidence ×
importance. Only facts whose weight reaches the threshold, and that are recent enough for even the
highest weight to reach T, can still win; the fact_in_force_weight index (migration 0008) hands over
exactly those. If there are more of them than a cap, the walk goes twice as deep and tries again. The
last ranking of a server leaves a hint of its N-th best, so that on most messages the first walk and the
weight index read go to the database together; a hint is checked, and a wrong one costs a round trip.

The database scores each candidate and sends only those within SQL_MARGIN of T (reading a timestamp
into Python costs more than scoring it): a few dozen rows per message. Python then scores them again
with score.score(), and only that score orders facts, so the fast path agrees exactly with scoring every
fact in Python (tests/memory/retrieval/ranking/ranking_reference.py).
"""

from .score import (
    RELEVANCE_DEPTH,
    HalfLives,
    ScoredFact,
    Weights,
    best,
    fact_weight,
    microseconds,
    recency,
    relevance_by_position,
    score,
    scored_fact,
)
from .top import RankingRun, rank_top

__all__ = [
    "RELEVANCE_DEPTH", "HalfLives", "RankingRun", "ScoredFact", "Weights", "best", "fact_weight", "microseconds",
    "rank_top", "recency", "relevance_by_position", "score", "scored_fact",
]
