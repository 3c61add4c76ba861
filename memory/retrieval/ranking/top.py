"""The exact top N of a server's facts by score, without scoring every fact (the algorithm described in
memory/retrieval/ranking/__init__.py): which statements to run (walk.py), and the bounds that prove the rest
cannot take a place."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from config.rows import Columns

from ..audience import Reader
from . import statements as sql
from .score import HalfLives, ScoredFact, Weights, combine, recency
from .walk import HeavyFetch, RankingRun, Walk, moment, raised

# The first walk scores the newest max(WALK_PER_SLOT × N, MIN_WALK) facts; the weight index may then hand
# over at most max(CAP_PER_SLOT × N, MIN_CAP) more before the walk is doubled. Measured on the bench
# servers (bench/context.py): fewer facts walked leave a weaker N-th best and more to read from the weight
# index, more walked cost more than they save. Tests lower them so that every branch runs on small servers.
WALK_PER_SLOT, MIN_WALK = 15, 300
CAP_PER_SLOT, MIN_CAP = 20, 400
# With recency weighted 0 the walk goes down the weight index instead (heaviest first).
HEAVY_PER_SLOT, MIN_HEAVY = 2, 50
# Each (kind, confidence) group of the kinds that never age gives its first N facts; a group whose last fact
# proves nothing (ties of importance and score) is read again this many times deeper.
GROUP_DEEPER = 4

# Per server, reader channel, ranking weights and half-lives: the best unmatched scores at a moment, left by the
# last ranking for that reader (any message's K-th best is at least the K-th of them, less the recency lost since;
# another channel sees other facts, so its scores prove nothing here). Only a hint: Python checks it on every use,
# a wrong one costs a round trip and never a fact. Per process, never stored. A ranking that leaves some facts out
# (exclude_ids) takes the K-th for its slots plus the facts left out; one of some members' facts takes none.
_HINTS: dict[tuple[int, Reader, Weights, HalfLives], tuple[tuple[float, ...], int]] = {}


def rank_top(server_id: int, weights: Weights, limit: int, relevance: dict[int, float], now: datetime,
             columns: Columns | None = None, *, reader: Reader, half_lives: HalfLives,
             only_members: tuple[str, ...] | None = None, exclude_ids: Iterable[int] = ()) -> RankingRun:
    """The exact `limit` best facts in force of the server that the reader may see, best first: the same facts
    in the same order as scoring every such fact gives (tests/memory/retrieval/ranking/ranking_reference.py does
    that). Recency follows each fact's kind (`half_lives`, the server's: HalfLives.of(ai_settings)). With
    `only_members`, only facts about those members rank (an empty tuple: none); facts in `exclude_ids` never do.
    With `columns` (of memory_fact under their alias), RankingRun.columns holds them for every fact ranked."""
    walk_by = sql.HEAVIEST if weights.recency == 0 and weights.importance > 0 else sql.NEWEST
    walk = Walk(server_id, weights, relevance, now, limit, walk_by, reader, half_lives, columns,
                tuple(only_members) if only_members is not None else None, frozenset(exclude_ids))
    if only_members is not None:
        return _rank_members(walk)
    if walk_by is sql.HEAVIEST:
        return _rank_by_weight(walk)
    run = _rank_by_recency(walk)
    walk.leave_hint(_HINTS, _hint_key(walk))
    return run


def _hint_key(walk: Walk) -> tuple[int, Reader, Weights, HalfLives]:
    return (walk.server_id, walk.reader, walk.weights, walk.half_lives)


def _rank_members(walk: Walk) -> RankingRun:
    """The facts about some members: every one of them scored by the database, the best sent."""
    if walk.only_members:
        params = walk.params()
        walk.run.rounds += 1
        for row, columns in walk.fetch(sql.MEMBER_FACTS.format(filters=walk.filters()), params):
            walk.add(*row[1:6], columns)
    return walk.finish("members")


def _settled(walk: Walk, bound: float, nth: ScoredFact) -> bool:
    """No fact left unscored can take the N-th place: its score is below the N-th best, or equal to it
    and older than the N-th best, which loses the tie. Every such fact is older than the last fact walked."""
    if bound < nth.score:
        return True
    return bound == nth.score and (nth.changed_us, nth.id) >= (walk.last[1], walk.last[0])


@dataclass(frozen=True)
class _Hinted:
    """A weight index read made with a guessed N-th best, and the thresholds the guess called for."""

    heavy: HeavyFetch
    guess: float
    min_weight: float
    since_us: int | None


def _first_step(walk: Walk, depth: int, cap: int) -> _Hinted | None:
    """The first walk and the matched facts in one round trip, with the weight index read (kinds that age) when a
    hint allows it; then, in a second, the rating index read (kinds that never age) with the N-th best found.

    Two statements rather than one: a statement run a fifth time is prepared, and PostgreSQL then plans it once for
    any parameters only if that generic plan looks no dearer than the ones it made for the values given. The weight
    index read must be planned for its thresholds (planned blind, it walked the newest-first index for a time window:
    60 ms instead of 0.05), so the first statement is planned anew each time; with the rating index read in it that
    planning took 2-5 ms on the bench, more than running it. Alone, the rating index read has one good plan whatever
    its threshold, made once; the second round trip costs less than the planning it saves."""
    params = walk.params()
    parts = {"walked": walk.walked_part(params, depth), "matched": ""}
    guess = _hint_guess(walk)
    hinted = None
    if guess is not None:
        walk.run.steps.append("hinted")
        min_weight = _min_weight(walk.weights, 1.0, guess)
        if (walk.half_lives.aging or not walk.ageless_apart) and min_weight is not None:
            since_us = _oldest_that_can_win(walk.weights, walk.half_lives, guess, walk.now_us)
            parts["heavy"] = walk.heavy_part(params, min_weight, since_us, cap, walk.now)
            hinted = (guess, min_weight, since_us)
    heavy = walk.run_statement(parts, params)
    nth = walk.nth_best()
    if walk.ageless_apart and not walk.exhausted and nth is not None:
        # The hint's guess is the better threshold (the walk's newest facts seldom hold the best that never age);
        # a guess too high is found out (Walk.threshold_held) and the read made again.
        walk.read_ageless(max(nth.score, guess or 0.0), walk.limit, nth.score)
    return _Hinted(heavy, *hinted) if hinted is not None and heavy is not None else None


def _hint_guess(walk: Walk) -> float | None:
    """A lower bound of this message's N-th best from the hint, if there is one deep enough."""
    hint = _HINTS.get(_hint_key(walk))
    depth = walk.limit + len(walk.exclude_ids)
    if hint is None or len(hint[0]) < depth:
        return None
    scores, at_us = hint
    # Scores lose at most the share recency loses in between at the fastest half-life (none for the kinds that
    # never age); the importance part stays.
    guess = scores[depth - 1] * recency(at_us, walk.now_us, walk.half_lives.fastest_seconds) * (1 - 1e-9)
    return guess if guess > 0 else None


def _rank_by_recency(walk: Walk) -> RankingRun:
    weights, limit = walk.weights, walk.limit
    depth = max(WALK_PER_SLOT * limit, MIN_WALK)
    cap = max(CAP_PER_SLOT * limit, MIN_CAP)
    hinted = _first_step(walk, depth, cap)
    per_group = limit
    while True:
        nth = walk.nth_best()
        if walk.exhausted or nth is None:
            return walk.finish("exhausted")
        if not walk.ageless_settled(nth):
            # The hint's threshold was too high (read again with the N-th best), or a group's last fact proves
            # nothing (two importances a hair apart that score the same: read the groups deeper).
            walk.run.steps.append("ageless again")
            if walk.threshold_held(nth):
                per_group *= GROUP_DEEPER
            walk.read_ageless(nth.score, per_group, nth.score)
            continue
        newest_unseen = walk.newest_unseen_bound  # no unscored fact the walk bounds is more recent
        if ((walk.ageless_apart and not walk.half_lives.aging)
                or _settled(walk, combine(newest_unseen, 1.0, 0.0, weights), nth)):
            return walk.finish("recency bound")  # not even the highest weight lifts an older fact to T
        heavy = None
        if hinted is not None and _hint_held(hinted, walk, newest_unseen, nth.score):
            heavy = hinted.heavy
        else:
            if hinted is not None:
                walk.run.steps.append("hint refused")
            min_weight = _min_weight(weights, newest_unseen, nth.score)
            if min_weight is not None:
                since_us = _oldest_that_can_win(weights, walk.half_lives, nth.score, walk.now_us)
                heavy = walk.read_heavy(min_weight, since_us, cap, nth.score)
                nth = walk.nth_best()
        hinted = None
        if heavy is not None:
            if heavy.found < cap:
                return walk.finish("weight index")  # every fact heavy and recent enough was scored
            walk.run.capped += 1
            if _settled(walk, combine(newest_unseen, heavy.lightest, 0.0, weights), nth):
                return walk.finish("weight index, capped")  # the rest are lighter than the lightest read
        # The walk has not gone far enough back for recency to have decayed: go twice as deep.
        walk.run.steps.append("deeper")
        walk.step(depth)
        depth, cap = depth * 2, cap * 2


def _hint_held(hinted: _Hinted, walk: Walk, newest_unseen: float, nth_score: float) -> bool:
    """The guessed N-th best was no higher than the real one, so the read left out only facts below it:
    those lighter than its threshold, changed before its oldest moment, or scoring below the guess."""
    weights = walk.weights
    if hinted.guess > nth_score or combine(newest_unseen, hinted.min_weight, 0.0, weights) >= nth_score:
        return False
    return hinted.since_us is None or combine(
        raised(recency(hinted.since_us, walk.now_us, walk.half_lives.slowest_seconds)), 1.0, 0.0,
        weights) < nth_score


def _min_weight(weights: Weights, newest_unseen: float, nth_score: float) -> float | None:
    """The lowest weight an unscored fact needs to reach the N-th best score (a little below, so no fact
    that could is left out by rounding), or None when weight cannot tell (importance weighted 0, or
    recency alone could still reach it)."""
    if weights.importance == 0:
        return None
    needed = (nth_score * weights.total - weights.recency * newest_unseen) / weights.importance
    margin = 1e-9
    while needed - margin > 0:
        candidate = needed - margin
        if combine(newest_unseen, candidate, 0.0, weights) < nth_score:
            return candidate  # a lighter fact scores below this candidate's bound, itself below T
        margin *= 16
    return None


def _oldest_that_can_win(weights: Weights, half_lives: HalfLives, nth_score: float, now_us: int) -> int | None:
    """The oldest change (microseconds) a fact of a kind that ages may have and still reach the N-th best score
    with the highest weight (1.0) at the slowest half-life of those kinds, or None when even the oldest could."""
    if weights.recency == 0 or not half_lives.aging:
        return None
    half_life = half_lives.slowest_seconds
    needed = (nth_score * weights.total - weights.importance * 1.0) / weights.recency
    if needed <= 0:
        return None
    age_us = int(half_life * math.log2(1 / min(needed, 1.0)) * 1_000_000)
    margin_us = 1_000_000
    for _ in range(40):
        since_us = now_us - age_us - margin_us
        if combine(raised(recency(since_us, now_us, half_life)), 1.0, 0.0, weights) < nth_score:
            return since_us  # older facts are less recent still, so they score lower
        margin_us *= 2
    return None


def _rank_by_weight(walk: Walk) -> RankingRun:
    """Recency weighted 0: an unmatched fact's score is its weight scaled, whatever its kind, so the heaviest
    facts are the best ones, in the weight index's own order (ties: newer first)."""
    weights = walk.weights
    depth = max(HEAVY_PER_SLOT * walk.limit, MIN_HEAVY)
    walk.step(depth)
    while True:
        nth = walk.nth_best()
        if walk.exhausted or nth is None:
            return walk.finish("exhausted")
        last_id, last_changed_us, last_weight = walk.last
        bound = combine(0.0, last_weight, 0.0, weights)  # what the heaviest unscored fact scores at most
        if bound < nth.score:
            return walk.finish("weight bound")
        # A tie: unscored facts as heavy as the last one walked are older than it (index order), so they
        # lose to an N-th best that is not older than it; lighter ones must score below the N-th best.
        lighter = combine(0.0, math.nextafter(last_weight, -math.inf), 0.0, weights)
        if (bound == nth.score and (nth.changed_us, nth.id) >= (last_changed_us, last_id)
                and lighter < nth.score):
            return walk.finish("weight tie")
        walk.run.steps.append("deeper")
        walk.step(depth)
        depth *= 2


__all__ = ["RankingRun", "moment", "rank_top"]
