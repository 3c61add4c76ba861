"""Diversity: maximal marginal relevance, so that five wordings of one fact do not take five of ten results or of the
context's slots. Each next result is the candidate with the best λ·relevance − (1 − λ)·(its greatest similarity to a
result already taken); similarity is the cosine of the facts' vectors under a type that embeds them, else the share of
lexemes two facts share (Jaccard), and counts only for near-copies. LAMBDA was measured on bench/retrieval.py's sets (its `#` lines print each λ
tried): see docs/ARCHITECTURE.md."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection

from .scored import Scored

LAMBDA = 0.8
POOL = 20  # candidates re-ordered; below them the order is the search's
# Only near-copies count as similar: facts on one topic that say different things (a raid's day, its sign-ups) are
# what a question about the topic needs together. Cosine of the built-in model's passage vectors, measured: two
# wordings of one fact 0.964-0.984 ("Paul's birthday is 22 October." / "Paul was born on the 22nd of October." 0.980),
# two facts on one topic or person 0.842-0.887 ("... / Paul lives in Bristol." 0.849). Shared lexemes (Jaccard):
# wordings of one fact share most of theirs.
NEAR_COPY_VECTORS = 0.93
NEAR_COPY_WORDS = 0.6

# Cosine similarity of every pair of the candidates' vectors, in the database (30 vectors never leave it).
_PAIRS_SQL = """
    SELECT a.fact_id, b.fact_id, 1 - (a.vector <=> b.vector)
    FROM memory_factembedding a JOIN memory_factembedding b
      ON b.fact_id > a.fact_id AND b.model_name = a.model_name AND b.fact_id = ANY(%(ids)s)
    WHERE a.fact_id = ANY(%(ids)s) AND a.model_name = %(model)s
"""


def vector_similarity(model_name: str, ids: Sequence[int]) -> Callable[[int, int], float]:
    """The cosine similarity of two of `ids`' vectors when they are near-copies (else 0, and 0 for a fact without a
    vector), read in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_PAIRS_SQL, {"ids": list(ids), "model": model_name})
        pairs = {(first, second): similarity for first, second, similarity in cursor.fetchall()
                 if similarity >= NEAR_COPY_VECTORS}
    return lambda a, b: pairs.get((min(a, b), max(a, b)), 0.0)


def word_similarity(found: Sequence[Scored]) -> Callable[[int, int], float]:
    """The Jaccard similarity of two found facts' lexemes when they are near-copies (else 0)."""
    terms = {item.id: item.terms for item in found}

    def similarity(a: int, b: int) -> float:
        # The union's size from the intersection's: one set built per pair, not two (190 pairs for every message).
        first, second = terms[a], terms[b]
        common = len(first & second)
        union = len(first) + len(second) - common
        shared = common / union if union else 0.0
        return shared if shared >= NEAR_COPY_WORDS else 0.0

    return similarity


def diverse(ranked: Sequence[int], relevance: dict[int, float], similarity: Callable[[int, int], float],
            limit: int, *, lambda_: float = LAMBDA) -> list[int]:
    """`limit` of `ranked` (best first) by maximal marginal relevance over its first POOL; relevance in 0..1."""
    if lambda_ >= 1.0 or len(ranked) < 2:
        return list(ranked[:limit])
    pool, rest = list(ranked[:POOL]), list(ranked[POOL:])
    taken: list[int] = []
    closest = {fact_id: 0.0 for fact_id in pool}
    # Each candidate's place in `ranked` (its first, as list.index gives it), looked up instead of searched for.
    place = {fact_id: index for index, fact_id in reversed(list(enumerate(ranked)))}
    while pool and len(taken) < limit:
        best = max(pool, key=lambda fact_id: (lambda_ * relevance.get(fact_id, 0.0)
                                              - (1 - lambda_) * closest[fact_id], -place[fact_id]))
        pool.remove(best)
        taken.append(best)
        for fact_id in pool:
            closest[fact_id] = max(closest[fact_id], similarity(best, fact_id))
    return (taken + pool + rest)[:limit]
