"""The Consolidated card's dry run: what a round would find now, by the round's own code (under Semantic with the
vectors' neighbours too, as the round reads them; and like the round never pairing facts about two members or
naming different people)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache
from django.utils import timezone

from teams.models import Server

from .pairs import Pair, find_pairs
from .rounds import _fresh_pairs, refusal_reason
from .selectors import memory_mark, pairing_facts, semantic_neighbours

EXAMPLES = 5
CACHE_SECONDS = 600


@dataclass(frozen=True)
class ConsolidationDryRun:
    facts: int
    duplicates: int
    contradictions: int
    examples: list[Pair]
    seconds: float
    refusal: str  # what a round started now would answer instead of running ('' when it would run)


def consolidation_dry_run(server: Server) -> ConsolidationDryRun:
    """Pairs a round would propose now (already-waiting and kept-both pairs left out), five real
    examples, and how long finding them took. Cached per server until memory changes (the search
    over a big server takes seconds)."""
    mark = memory_mark(server)
    key = f"consolidation-dry-run:{server.pk}:{mark.isoformat() if mark else 'empty'}"
    cached = cache.get(key)
    if cached is None:
        started = time.perf_counter()
        facts = pairing_facts(server)
        pairs = _fresh_pairs(server, find_pairs(facts, semantic_neighbours(server)))
        cached = ConsolidationDryRun(
            facts=len(facts),
            duplicates=sum(pair.kind == "duplicate" for pair in pairs),
            contradictions=sum(pair.kind == "contradiction" for pair in pairs),
            examples=pairs[:EXAMPLES],
            seconds=time.perf_counter() - started,
            refusal="",
        )
        cache.set(key, cached, CACHE_SECONDS)
    return ConsolidationDryRun(**{**cached.__dict__, "refusal": refusal_reason(server, timezone.now())})
