"""The slow, obvious ranking the fast path must agree with: score every fact in force the reader may see (the
audience rule in Python, memory.retrieval.audience.visible_to), sort, take N."""

from __future__ import annotations

from datetime import datetime

from memory.models import Fact
from memory.retrieval.audience import Reader, visible_to
from memory.retrieval.ranking import ScoredFact, Weights, microseconds, scored_fact
from teams.models import Server


def rank_every_fact(server: Server, weights: Weights, limit: int, relevance: dict[int, float],
                    now: datetime, reader: Reader | None = None) -> list[ScoredFact]:
    reader = reader or Reader.any_channel()
    facts = Fact.objects.filter(server=server, retracted_at__isnull=True).only(
        "id", "changed_at", "confidence", "importance", "audience", "source_channel_id")
    every_fact = [scored_fact(fact.id, microseconds(fact.changed_at), fact.confidence, fact.importance,
                              weights=weights, relevance=relevance, now_us=microseconds(now))
                  for fact in facts if visible_to(fact, reader)]
    every_fact.sort(key=lambda fact: (fact.score, fact.changed_at, fact.id), reverse=True)
    return every_fact[:limit]
