"""The slow, obvious ranking the fast path must agree with: score every fact in force, sort, take N."""

from __future__ import annotations

from datetime import datetime

from memory.models import Fact
from memory.retrieval.ranking import ScoredFact, Weights, microseconds, scored_fact
from teams.models import Server


def rank_every_fact(server: Server, weights: Weights, limit: int, relevance: dict[int, float],
                    now: datetime) -> list[ScoredFact]:
    rows = Fact.objects.filter(server=server, retracted_at__isnull=True).values_list(
        "id", "changed_at", "confidence", "importance")
    every_fact = [scored_fact(fact_id, microseconds(changed_at), confidence, importance, weights=weights,
                              relevance=relevance, now_us=microseconds(now))
                  for fact_id, changed_at, confidence, importance in rows]
    every_fact.sort(key=lambda fact: (fact.score, fact.changed_at, fact.id), reverse=True)
    return every_fact[:limit]
