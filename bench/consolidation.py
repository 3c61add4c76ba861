"""Time one consolidation round over the 100,000-fact bench server, and the pair finding alone.

The server is the 100k one of bench/context.py (guild 900000000000000002, seeded by bench/_seed.py on
the first run of either bench and reused afterwards). For the run it is switched to Consolidated and
back to Classic at the end. Its earlier rounds, proposals and summary drafts are deleted first, so the
refusal rules (a proposal still waiting, less than 24 h since the last round, nothing changed since)
let the round run, and what this run created is deleted at the end, so var/bench does not grow.

Figures:
- consolidation.round.100k: consolidation.rounds.round_run on a freshly queued round, wall time
  (read the facts, block, classify, write the proposals; no consolidation model on bench servers);
- consolidation.find_pairs.100k: consolidation.pairs.find_pairs alone over the facts the round reads
  (consolidation.selectors.pairing_facts, timed apart and given as a `#` line).

`--smoke`: the same on bench._seed's 400-fact smoke server, `consolidation.round.smoke` and
`consolidation.find_pairs.smoke`.
"""

from __future__ import annotations

import sys
import time

from bench._harness import report_metric, run, setup_django

GUILD_ID, SERVER_NAME, FACTS = "900000000000000002", "Bench Town", 100_000  # bench/context.py's 100k server
ROUND_TARGET_S = 120.0


def _delete_consolidation_rows(server) -> int:
    """Every round, proposal and summary draft of the bench server (proposals and drafts outlive their
    round, which they only point to with SET_NULL, so each kind is deleted by server)."""
    from consolidation.models import ConsolidationRound, Proposal, SummaryDraft

    deleted = 0
    for model in (Proposal, SummaryDraft, ConsolidationRound):
        deleted += model.objects.filter(server=server).delete()[0]
    return deleted


def main(*, smoke: bool) -> None:
    setup_django()
    from django.db import connection

    from bench._seed import SMOKE_FACTS, SMOKE_GUILD_ID, SMOKE_SERVER_NAME, ensure_server_facts
    from consolidation.models import ConsolidationRound, RoundStatus, RoundTrigger
    from consolidation.pairs import find_pairs
    from consolidation.rounds import round_run
    from consolidation.selectors import pairing_facts
    from memory.models import MemoryType
    from memory.configuration.services import memory_type_set

    label, guild_id, name, target = ("smoke", SMOKE_GUILD_ID, SMOKE_SERVER_NAME, SMOKE_FACTS) if smoke else (
        "100k", GUILD_ID, SERVER_NAME, FACTS)
    started_at = time.perf_counter()
    server, user = ensure_server_facts(guild_id, name, target)
    print(f"# server {label}: guild {guild_id}, ready in {time.perf_counter() - started_at:.1f} s",
          file=sys.stderr, flush=True)
    earlier = _delete_consolidation_rows(server)
    if earlier:
        print(f"# deleted {earlier} rounds, proposals and drafts left by an earlier run", file=sys.stderr)
    try:
        memory_type_set(server=server, actor=user, memory_type=MemoryType.CONSOLIDATED)

        # 1. One full round, as the worker runs it.
        queued = ConsolidationRound.objects.create(server=server, trigger=RoundTrigger.MANUAL)
        begun = time.perf_counter()
        finished = round_run(queued.pk)
        seconds = time.perf_counter() - begun
        assert finished is not None and finished.status == RoundStatus.FINISHED, (
            finished and (finished.status, finished.refusal, finished.error))
        report_metric(f"consolidation.round.{label}", "seconds", round(seconds, 2))
        print(f"# consolidation.round.{label} target_seconds={ROUND_TARGET_S:g} "
              f"{'met' if seconds < ROUND_TARGET_S else 'MISSED'}; round.duration_ms={finished.duration_ms}")
        print(f"# facts considered {finished.facts_considered}; candidate pairs (duplicates and contradictions "
              f"found, before the cap of proposals per round) {finished.candidate_pairs}")
        print(f"# proposed: {finished.duplicates} duplicates, {finished.contradictions} contradictions; "
              f"{finished.model_note}", flush=True)

        # 2. Pair finding alone, over what the round reads.
        begun = time.perf_counter()
        facts = pairing_facts(server)
        read_seconds = time.perf_counter() - begun
        begun = time.perf_counter()
        pairs = find_pairs(facts)
        pairs_seconds = time.perf_counter() - begun
        assert len(pairs) == finished.candidate_pairs, (len(pairs), finished.candidate_pairs)  # the round's own code
        report_metric(f"consolidation.find_pairs.{label}", "seconds", round(pairs_seconds, 2))
        duplicates = sum(pair.kind == "duplicate" for pair in pairs)
        print(f"# find_pairs over {len(facts)} facts (read by pairing_facts in {read_seconds:.2f} s): "
              f"{len(pairs)} pairs, {duplicates} duplicates, {len(pairs) - duplicates} contradictions",
              flush=True)
    finally:
        memory_type_set(server=server, actor=user, memory_type=MemoryType.CLASSIC)
        deleted = _delete_consolidation_rows(server)
        connection.close()
        print(f"# done in {time.perf_counter() - started_at:.0f} s; removed {deleted} bench rounds, "
              "proposals and drafts", file=sys.stderr)


if __name__ == "__main__":
    run(main)
