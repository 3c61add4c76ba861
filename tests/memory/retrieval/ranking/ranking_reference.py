"""The slow, obvious ranking the fast path must agree with: score every fact in force the reader may see (the
audience rule in Python, memory.retrieval.audience.visible_to), each with the half-life of its kind, keep those
about the members asked for and not excluded, sort, take N."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from memory.models import AISettings, Fact
from memory.retrieval.audience import Reader, visible_to
from memory.retrieval.ranking import HalfLives, ScoredFact, Weights, microseconds, scored_fact
from teams.models import Server


def rank_every_fact(server: Server, weights: Weights, limit: int, relevance: dict[int, float],
                    now: datetime, reader: Reader | None = None, *, half_lives: HalfLives | None = None,
                    only_members: tuple[str, ...] | None = None, exclude_ids: Iterable[int] = ()) -> list[ScoredFact]:
    """`half_lives` None: the server's own, read afresh from its AI settings (the defaults without a row)."""
    reader = reader or Reader.any_channel()
    if half_lives is None:
        half_lives = HalfLives.of(AISettings.objects.filter(server=server).first() or AISettings(server=server))
    excluded = set(exclude_ids)
    facts = Fact.objects.filter(server=server, retracted_at__isnull=True).only(
        "id", "changed_at", "confidence", "importance", "kind", "member_id", "audience", "source_channel_id",
        "source_thread_id")
    every_fact = [scored_fact(fact.id, microseconds(fact.changed_at), fact.confidence, fact.importance, fact.kind,
                              weights=weights, half_lives=half_lives, relevance=relevance, now_us=microseconds(now))
                  for fact in facts if visible_to(fact, reader) and fact.id not in excluded
                  and (only_members is None or fact.member_id in only_members)]
    every_fact.sort(key=lambda fact: (fact.score, fact.changed_at, fact.id), reverse=True)
    return every_fact[:limit]
