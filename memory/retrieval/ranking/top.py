"""The exact top N of a server's facts by score, without scoring every fact (the threshold algorithm
described in memory/retrieval/ranking/__init__.py)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection

from config.rows import Columns

from ..audience import Reader
from .score import (
    EPOCH,
    HalfLives,
    ScoredFact,
    Weights,
    best,
    combine,
    fact_weight,
    microseconds,
    recency,
    scored_fact,
)
from .statements import EXCLUDED, HEAVIEST, HEAVY_ENOUGH, HINTED_FIRST_STEP, NEWEST, ONLY_MEMBERS, WALK

# The first walk scores the newest max(WALK_PER_SLOT × N, MIN_WALK) facts; the weight index may then hand
# over at most max(CAP_PER_SLOT × N, MIN_CAP) more before the walk is doubled. Measured on the bench
# servers (bench/context.py): fewer facts walked leave a weaker N-th best and more to read from the weight
# index, more walked cost more than they save. Tests lower them so that every branch runs on small servers.
WALK_PER_SLOT, MIN_WALK = 15, 300
CAP_PER_SLOT, MIN_CAP = 20, 400
# With recency weighted 0 the walk goes down the weight index instead (heaviest first).
HEAVY_PER_SLOT, MIN_HEAVY = 2, 50
# The database's score of a fact and score.score() differ by a few units in the last place (1e-16);
# the database keeps every fact within this much of the N-th best, so it never leaves one out.
SQL_MARGIN = 1e-9
# A computed recency may be off by a fraction of a unit in the last place (pow); bounds add this many.
_ULPS = 2

# Per server, reader channel, ranking weights, half-lives and slots: a lower bound of the N-th best unmatched score
# at a moment, left by the last ranking for that reader (any message's N-th best is at least that, less the recency
# lost since; another channel sees other facts, so its N-th best proves nothing here). Only a hint: Python checks it
# on every use, a wrong one costs a round trip and never a fact. Per process, never stored. A filtered ranking
# (only_members, exclude_ids) neither leaves nor takes one.
_HINTS: dict[tuple[int, Reader, Weights, HalfLives, int], tuple[float, int]] = {}


@dataclass(frozen=True)
class _HeavyFetch:
    """How many facts one read of the weight index found (at most its cap), and the weight of the lightest."""

    found: int
    lightest: float | None


@dataclass
class RankingRun:
    """The top N and how it was found (for the dry run, the benchmark and the tests)."""

    facts: list[ScoredFact]
    rounds: int = 0  # walk steps: 1 when the first walk settled it
    walked: int = 0  # facts scored along the walk
    weighed: int = 0  # facts scored from the weight index
    rows_read: int = 0  # facts sent to Python (the best, and the last walked of each step)
    capped: int = 0  # times the weight index had more candidates than its cap
    exhausted: bool = False  # the walk reached the end of the index: every fact was scored
    steps: list[str] = field(default_factory=list)  # which bound settled it, for tests and the bench
    columns: dict[int, tuple] = field(default_factory=dict)  # the caller's columns of every fact scored


@dataclass
class _Walk:
    """Facts scored so far and where the walk down its index stopped."""

    server_id: int
    weights: Weights
    relevance: dict[int, float]
    now: datetime
    limit: int
    shape: dict[str, str]
    reader: Reader
    half_lives: HalfLives
    columns: Columns | None = None
    only_members: tuple[str, ...] | None = None
    exclude_ids: frozenset[int] = frozenset()
    now_us: int = 0
    seen: dict[int, ScoredFact] = field(default_factory=dict)
    last: tuple[int, int, float] | None = None  # (id, changed_us, weight) of the last fact walked
    exhausted: bool = False
    run: RankingRun = field(default_factory=lambda: RankingRun(facts=[]))

    def __post_init__(self) -> None:
        self.now_us = microseconds(self.now)

    def params(self) -> dict:
        weights = self.weights
        return {"server": self.server_id, "now": self.now, "margin": SQL_MARGIN,
                "w_rec": weights.recency, "w_imp": weights.importance, "w_total": weights.total,
                **{f"hl_{kind}": seconds for kind, seconds in self.half_lives.by_kind.items()},
                "members": list(self.only_members or ()), "excluded": sorted(self.exclude_ids),
                **self.reader.params}

    @property
    def filtered(self) -> bool:
        """Only some facts of the reader's are ranked (about some members, or not those already chosen)."""
        return self.only_members is not None or bool(self.exclude_ids)

    def sql(self, template: str, **parts: str) -> str:
        filters = (ONLY_MEMBERS if self.only_members is not None else "") + (EXCLUDED if self.exclude_ids else "")
        return template.format(filters=filters, **parts)

    @property
    def hint_key(self) -> tuple[int, Reader, Weights, HalfLives, int] | None:
        """Where this ranking's hint is kept; None when the ranking is filtered (its N-th best is no other's)."""
        return None if self.filtered else (self.server_id, self.reader, self.weights, self.half_lives, self.limit)

    @property
    def newest_unseen_bound(self) -> float:
        """The highest recency an unscored fact older than the last one walked can have: 1 when some kind never
        ages, else its recency at the slowest half-life of the kinds that age."""
        if self.half_lives.ageless:
            return 1.0
        return _raised(recency(self.last[1], self.now_us, self.half_lives.slowest_seconds))

    def fetch(self, sql: str, params: dict) -> list[tuple[tuple, tuple]]:
        """Rows of `sql`, each split into its own columns and the caller's, read in the same round trip
        (one primary-key lookup per row sent: a few dozen)."""
        if self.columns is None:
            return [(row, ()) for row in _fetch(sql, params)]
        width = len(self.columns)
        sql = (f"SELECT {self.columns.sql}, candidates.* FROM ({sql}) candidates"
               f" LEFT JOIN memory_fact {self.columns.alias} ON {self.columns.alias}.id = candidates.id")
        return [(row[width:], row[:width]) for row in _fetch(sql, params)]

    def add(self, fact_id: int, changed_us: int, confidence: float, importance: float | None, kind: str,
            columns: tuple = ()) -> None:
        self.run.rows_read += 1
        if columns:
            self.run.columns.setdefault(fact_id, columns)
        if fact_id not in self.seen:
            self.seen[fact_id] = scored_fact(fact_id, changed_us, confidence, importance, kind, weights=self.weights,
                                             half_lives=self.half_lives, relevance=self.relevance,
                                             now_us=self.now_us)

    def step(self, depth: int) -> None:
        """Walk `depth` facts further and score them."""
        params = {**self.params(), "depth": depth, "first": self.last is None, "nth": self.limit - 1,
                  "min_score": None, "matched": list(self.relevance)}
        after = ""
        if self.last is not None:
            after = self.shape["after"]
            nth = self.nth_best()
            params.update(after_id=self.last[0], after_changed_at=_moment(self.last[1]), after_weight=self.last[2],
                          min_score=nth.score if nth else None)
        sql = self.sql(WALK, after=after, order=self.shape["order"], reverse_order=self.shape["reverse_order"])
        walked = 0
        for row, columns in self.fetch(sql, params):
            fact_id, changed_us, confidence, importance, kind, weight, is_last, walk_length = row
            self.add(fact_id, changed_us, confidence, importance, kind, columns)
            if is_last:
                self.last = (fact_id, changed_us, weight)
            walked = walk_length if walk_length is not None else walked  # None on the matched facts' rows
        self._walked(walked, depth)

    def read_heavy(self, min_weight: float, since_us: int | None, cap: int, nth_score: float) -> _HeavyFetch:
        """Score the facts of the weight index heavier than `min_weight`, changed since `since_us` and no
        later than the last fact walked, heaviest first, at most `cap`."""
        params = {**self.params(), "min_weight": min_weight, "newest": _moment(self.last[1]), "cap": cap,
                  "min_score": nth_score}
        if since_us is not None:
            params["since"] = _moment(since_us)
        rows = self.fetch(self.sql(HEAVY_ENOUGH, since="AND changed_at >= %(since)s" if since_us is not None else ""),
                          params)
        for (_found, _lightest, fact_id, changed_us, confidence, importance, kind), columns in rows:
            if fact_id is not None:
                self.add(fact_id, changed_us, confidence, importance, kind, columns)
        found, lightest = rows[0][0][:2]
        self.run.weighed += found
        return _HeavyFetch(found=found, lightest=lightest)

    def hinted_first_step(self, depth: int, cap: int, guess: float, min_weight: float,
                          since_us: int | None) -> _HeavyFetch:
        """The first walk, and the weight index read the guessed N-th best calls for, in one round trip."""
        params = {**self.params(), "depth": depth, "cap": cap, "nth": self.limit - 1, "min_weight": min_weight,
                  "min_score": guess, "matched": list(self.relevance)}
        if since_us is not None:
            params["since"] = _moment(since_us)
        sql = self.sql(HINTED_FIRST_STEP, since="AND changed_at >= %(since)s" if since_us is not None else "")
        walked, heavy = 0, _HeavyFetch(found=0, lightest=None)
        for row, columns in self.fetch(sql, params):
            fact_id, changed_us, confidence, importance, kind, weight, is_last, walk_length, found, lightest = row
            if fact_id is not None:
                self.add(fact_id, changed_us, confidence, importance, kind, columns)
            if is_last:
                self.last = (fact_id, changed_us, weight)
            walked = walk_length if walk_length is not None else walked
            if found is not None:
                heavy = _HeavyFetch(found=found, lightest=lightest)
        self._walked(walked, depth)
        self.run.weighed += heavy.found
        return heavy

    def leave_hint(self) -> None:
        """The N-th best score of the facts scored here, as if nothing matched the message: no message's
        N-th best is lower at this moment (relevance only adds, and facts not scored here only add more)."""
        if self.hint_key is None:
            return
        unmatched = [combine(fact.confidence * fact.recency, fact_weight(fact.confidence, fact.importance), 0.0,
                              self.weights) for fact in self.seen.values()]
        if len(unmatched) >= self.limit:
            _HINTS[self.hint_key] = (heapq.nlargest(self.limit, unmatched)[-1], self.now_us)

    def _walked(self, walked: int, depth: int) -> None:
        self.run.rounds += 1
        self.run.walked += walked
        self.exhausted = walked < depth

    def nth_best(self) -> ScoredFact | None:
        return best(self.seen.values(), self.limit)[-1] if len(self.seen) >= self.limit else None

    def finish(self, step: str) -> RankingRun:
        self.run.steps.append(step)
        self.run.exhausted = step == "exhausted"
        self.run.facts = best(self.seen.values(), self.limit)
        return self.run


def _fetch(sql: str, params: dict) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _moment(changed_us: int) -> datetime:
    return EPOCH + timedelta(microseconds=changed_us)


def _raised(value: float, ulps: int = _ULPS) -> float:
    for _ in range(ulps):
        value = math.nextafter(value, math.inf)
    return value


def rank_top(server_id: int, weights: Weights, limit: int, relevance: dict[int, float], now: datetime,
             columns: Columns | None = None, *, reader: Reader, half_lives: HalfLives,
             only_members: tuple[str, ...] | None = None, exclude_ids: Iterable[int] = ()) -> RankingRun:
    """The exact `limit` best facts in force of the server that the reader may see, best first: the same facts
    in the same order as scoring every such fact gives (tests/memory/retrieval/ranking/ranking_reference.py does
    that). Recency follows each fact's kind (`half_lives`, the server's: HalfLives.of(ai_settings)). With
    `only_members`, only facts about those members rank (an empty tuple: none); facts in `exclude_ids` never do.
    With `columns` (of memory_fact under their alias), RankingRun.columns holds them for every fact ranked."""
    walk_by = HEAVIEST if weights.recency == 0 and weights.importance > 0 else NEWEST
    walk = _Walk(server_id, weights, relevance, now, limit, walk_by, reader, half_lives, columns,
                 tuple(only_members) if only_members is not None else None, frozenset(exclude_ids))
    if only_members is not None and not only_members:
        return walk.finish("exhausted")
    return _rank_by_weight(walk) if walk_by is HEAVIEST else _rank_by_recency(walk)


def _settled(walk: _Walk, bound: float, nth: ScoredFact) -> bool:
    """No fact left unscored can take the N-th place: its score is below the N-th best, or equal to it
    and older than the N-th best, which loses the tie. Every such fact is older than the last fact walked."""
    if bound < nth.score:
        return True
    return bound == nth.score and (nth.changed_us, nth.id) >= (walk.last[1], walk.last[0])


def _rank_by_recency(walk: _Walk) -> RankingRun:
    run = _rank_by_recency_steps(walk)
    walk.leave_hint()
    return run


def _rank_by_recency_steps(walk: _Walk) -> RankingRun:
    weights, limit = walk.weights, walk.limit
    depth = max(WALK_PER_SLOT * limit, MIN_WALK)
    cap = max(CAP_PER_SLOT * limit, MIN_CAP)
    hinted = _hinted_read(walk, depth, cap)
    while True:
        nth = walk.nth_best()
        if walk.exhausted or nth is None:
            return walk.finish("exhausted")
        newest_unseen = walk.newest_unseen_bound  # no unscored fact is more recent
        if _settled(walk, combine(newest_unseen, 1.0, 0.0, weights), nth):
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


@dataclass(frozen=True)
class _Hinted:
    """A weight index read made with a guessed N-th best, and the thresholds the guess called for."""

    heavy: _HeavyFetch
    guess: float
    min_weight: float
    since_us: int | None


def _hinted_read(walk: _Walk, depth: int, cap: int) -> _Hinted | None:
    """The first walk, with the weight index read in the same round trip when a hint allows it."""
    hint = _HINTS.get(walk.hint_key) if walk.hint_key is not None else None
    if hint is not None:
        lower_bound, at_us = hint
        # Scores lose at most the share recency loses in between at the fastest half-life; the importance
        # part stays.
        guess = lower_bound * recency(at_us, walk.now_us, walk.half_lives.fastest_seconds) * (1 - 1e-9)
        min_weight = _min_weight(walk.weights, 1.0, guess)
        if guess > 0 and min_weight is not None:
            since_us = _oldest_that_can_win(walk.weights, walk.half_lives, guess, walk.now_us)
            walk.run.steps.append("hinted")
            return _Hinted(walk.hinted_first_step(depth, cap, guess, min_weight, since_us), guess, min_weight,
                           since_us)
    walk.step(depth)
    return None


def _hint_held(hinted: _Hinted, walk: _Walk, newest_unseen: float, nth_score: float) -> bool:
    """The guessed N-th best was no higher than the real one, so the read left out only facts below it:
    those lighter than its threshold, changed before its oldest moment, or scoring below the guess."""
    weights = walk.weights
    if hinted.guess > nth_score or combine(newest_unseen, hinted.min_weight, 0.0, weights) >= nth_score:
        return False
    return hinted.since_us is None or combine(
        _raised(recency(hinted.since_us, walk.now_us, walk.half_lives.slowest_seconds)), 1.0, 0.0,
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
    """The oldest change (microseconds) a fact may have and still reach the N-th best score with the
    highest weight (1.0) at the slowest half-life, or None when even the oldest fact could (some kind never
    ages)."""
    if weights.recency == 0 or half_lives.ageless:
        return None
    half_life = half_lives.slowest_seconds
    needed = (nth_score * weights.total - weights.importance * 1.0) / weights.recency
    if needed <= 0:
        return None
    age_us = int(half_life * math.log2(1 / min(needed, 1.0)) * 1_000_000)
    margin_us = 1_000_000
    for _ in range(40):
        since_us = now_us - age_us - margin_us
        if combine(_raised(recency(since_us, now_us, half_life)), 1.0, 0.0, weights) < nth_score:
            return since_us  # older facts are less recent still, so they score lower
        margin_us *= 2
    return None


def _rank_by_weight(walk: _Walk) -> RankingRun:
    """Recency weighted 0: an unmatched fact's score is its weight scaled, so the heaviest facts are the
    best ones, in the weight index's own order (ties: newer first)."""
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
