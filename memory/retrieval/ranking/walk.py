"""What one ranking has scored so far and what it has proved about the rest: the walk down an index, the reads of
the weight index (kinds that age) and of the rating index (kinds that never age), each a statement of
statements.py, whose rows it scores again in Python (score.scored_fact)."""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import connection

from config.rows import Columns, compact_sql, with_server_literal
from memory.models import Kind

from ..audience import Reader
from ..words import numbers_handed_out
from . import statements as sql
from .score import EPOCH, HalfLives, ScoredFact, Weights, best, combine, fact_weight, microseconds, recency, scored_fact

# The database's score of a fact and score.score() differ by a few units in the last place (1e-16);
# the database keeps every fact within this much of the N-th best, so it never leaves one out.
SQL_MARGIN = 1e-9
# A computed recency may be off by a fraction of a unit in the last place (pow); bounds add this many.
_ULPS = 2


@dataclass(frozen=True)
class HeavyFetch:
    """How many facts one read of the weight index found (at most its cap), and the weight of the lightest."""

    found: int
    lightest: float | None


@dataclass
class RankingRun:
    """The top N and how it was found (for the dry run, the benchmark and the tests)."""

    facts: list[ScoredFact]
    rounds: int = 0  # statements run
    walked: int = 0  # facts scored along the walk
    weighed: int = 0  # facts scored from the weight index
    rated: int = 0  # facts scored from the rating index (kinds that never age)
    rows_read: int = 0  # facts sent to Python (the best, and the last of each walk step and group)
    capped: int = 0  # times the weight index had more candidates than its cap
    exhausted: bool = False  # the walk reached the end of the index: every fact was scored
    steps: list[str] = field(default_factory=list)  # which bound settled it, for tests and the bench
    columns: dict[int, tuple] = field(default_factory=dict)  # the caller's columns of every fact scored


@dataclass
class Walk:
    """Facts scored so far, where the walk down its index stopped, and what the rating index read proved."""

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
    # The rating index read: the threshold it used (None before it ran), its groups' size, and the last fact of
    # each group that gave all it could, with the next lower importance in the group ((kind, confidence) ->
    # (id, importance or None)).
    threshold: float | None = None
    per_group: int = 0
    full_groups: dict[tuple[str, float], tuple[int, float | None]] = field(default_factory=dict)
    run: RankingRun = field(default_factory=lambda: RankingRun(facts=[]))

    def __post_init__(self) -> None:
        self.now_us = microseconds(self.now)

    def params(self) -> dict:
        weights = self.weights
        return {"server": self.server_id, "now": self.now, "margin": SQL_MARGIN,
                "w_rec": weights.recency, "w_imp": weights.importance, "w_total": weights.total,
                "w_best": (weights.recency + weights.importance) / weights.total,
                **{f"rate_{kind}": 1 / seconds if seconds else 0.0
                   for kind, seconds in self.half_lives.by_kind.items()},
                "aging": list(self.half_lives.aging), "ageless": list(self.half_lives.ageless),
                "members": list(self.only_members or ()), "excluded": sorted(self.exclude_ids),
                "matched": list(self.relevance), "nth": self.limit - 1, "min_score": None, "guess": None,
                "send_nth": self.limit - 1 + len(self.exclude_ids),
                **self.reader.params}

    def filters(self) -> str:
        return (sql.ONLY_MEMBERS if self.only_members is not None else "") + (sql.EXCLUDED if self.exclude_ids else "")

    # The parts of a statement (statements.statement), formatted for this ranking.

    def walked_part(self, params: dict, depth: int) -> str:
        after = ""
        if self.last is not None:
            after = self.shape["after"]
            params.update(after_id=self.last[0], after_changed_at=moment(self.last[1]), after_weight=self.last[2])
        params["depth"] = depth
        return sql.WALKED.format(after=after, order=self.shape["order"], reverse_order=self.shape["reverse_order"],
                                 filters=self.filters())

    def heavy_part(self, params: dict, min_weight: float, since_us: int | None, cap: int, newest: datetime) -> str:
        params.update(min_weight=min_weight, cap=cap, newest=newest)
        if since_us is not None:
            params["since"] = moment(since_us)
        return sql.HEAVY.format(since="AND changed_at >= %(since)s" if since_us is not None else "",
                                aging=sql.AGING if self.ageless_apart else "", filters=self.filters())

    def ageless_part(self, params: dict, per_group: int) -> str:
        self.per_group = params["per_group"] = per_group
        by_importance = self.weights.importance > 0
        return sql.AGELESS.format(needed=sql.NEEDED if by_importance else "",
                                  group_order=sql.BY_IMPORTANCE if by_importance else sql.BY_CHANGE,
                                  filters=self.filters())

    def run_statement(self, parts: dict[str, str], params: dict) -> HeavyFetch | None:
        """Run one statement of `parts` and score what it sends; the weight index read's counts, if it had one."""
        statement = sql.statement(parts).replace("{filters}", self.filters())
        if set(parts) == {"ageless"}:
            statement = _planned_once(statement, params, self.half_lives.ageless)
        self.run.rounds += 1
        heavy, walked = None, None
        for row, columns in self.fetch(statement, params):
            source, fact_id, changed_us, confidence, importance, kind, weight, flag, count, extra = row
            if fact_id is not None:
                self.add(fact_id, changed_us, confidence, importance, kind, columns)
            if source == "walk":
                walked = count
                if flag:
                    self.last = (fact_id, changed_us, weight)
            elif source == "heavy":
                heavy = HeavyFetch(found=count, lightest=extra)
            elif source == "ageless":
                self.run.rated += 1
                if flag and count >= self.per_group:
                    self.full_groups[(kind, confidence)] = (fact_id, extra)
            elif source == "threshold":
                self.threshold = extra
        if "walked" in parts:
            self._walked(walked or 0, params["depth"])
        if heavy is not None:
            self.run.weighed += heavy.found
        return heavy

    def fetch(self, statement: str, params: dict) -> list[tuple[tuple, tuple]]:
        """Rows of `statement`, each split into its own columns and the caller's, read in the same round trip
        (one primary-key lookup per row sent: a few dozen)."""
        if self.columns is None:
            return [(row, ()) for row in _fetch(statement, params)]
        width = len(self.columns)
        statement = (f"SELECT {self.columns.sql}, candidates.* FROM ({statement}) candidates"
                     f" LEFT JOIN memory_fact {self.columns.alias} ON {self.columns.alias}.id = candidates.id")
        return [(row[width:], row[:width]) for row in _fetch(statement, params)]

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
        """Walk `depth` facts further and score them (the first step also sends the matched facts)."""
        params = self.params()
        first = self.last is None
        nth = None if first else self.nth_best()
        params["min_score"] = nth.score if nth else None
        parts = {"walked": self.walked_part(params, depth)}
        if first:
            parts["matched"] = ""
        self.run_statement(parts, params)

    def read_heavy(self, min_weight: float, since_us: int | None, cap: int, nth_score: float) -> HeavyFetch:
        """Score the facts of the kinds that age in the weight index heavier than `min_weight`, changed since
        `since_us` and no later than the last fact walked, heaviest first, at most `cap`."""
        params = {**self.params(), "min_score": nth_score}
        parts = {"heavy": self.heavy_part(params, min_weight, since_us, cap, moment(self.last[1]))}
        return self.run_statement(parts, params)

    def read_ageless(self, threshold: float, per_group: int, nth_score: float) -> None:
        """Score the facts of the kinds that never age that can reach `threshold`: the first `per_group` of each
        (kind, confidence) group (statements.AGELESS)."""
        self.full_groups = {}
        params = {**self.params(), "guess": threshold, "min_score": nth_score}
        self.run_statement({"ageless": self.ageless_part(params, per_group)}, params)

    def ageless_settled(self, nth: ScoredFact) -> bool:
        """No fact of a kind that never ages is left unscored that could take the N-th place: the rating index
        read left out only facts below its threshold, itself no higher than the N-th best, and in each group it
        read in full the facts after its last are as important and older than that last one, itself no better
        than the N-th best, or less important, scoring at most what the next lower importance in the group does,
        below the N-th best."""
        if not self.ageless_apart:
            return True  # the walk's bound holds for every kind
        if not self.threshold_held(nth):
            return False
        for (_kind, confidence), (last_id, next_importance) in self.full_groups.items():
            last = self.seen[last_id]
            unmatched = combine(confidence, fact_weight(confidence, last.importance), 0.0, self.weights)
            if (unmatched, last.changed_us, last.id) > (nth.score, nth.changed_us, nth.id):
                return False  # the facts after it in its group, as good as it and older, could still win
            if self.weights.importance > 0 and next_importance is not None and combine(
                    confidence, fact_weight(confidence, next_importance), 0.0, self.weights) >= nth.score:
                return False  # as good as the N-th best, perhaps newer (two importances a hair apart)
        return True

    def leave_hint(self, hints: dict, key: tuple) -> None:
        """The best unmatched scores of the facts scored here, as many as were ranked and excluded: no message's
        K-th best is lower at this moment (relevance only adds, and facts not scored here only add more)."""
        unmatched = [combine(fact.confidence * fact.recency, fact_weight(fact.confidence, fact.importance), 0.0,
                             self.weights) for fact in self.seen.values()]
        depth = min(self.limit + len(self.exclude_ids), len(unmatched))
        if depth:
            hints[key] = (tuple(heapq.nlargest(depth, unmatched)), self.now_us)

    def _walked(self, walked: int, depth: int) -> None:
        self.run.walked += walked
        self.exhausted = walked < depth

    def nth_best(self) -> ScoredFact | None:
        return best(self.seen.values(), self.limit)[-1] if len(self.seen) >= self.limit else None

    def finish(self, step: str) -> RankingRun:
        self.run.steps.append(step)
        self.run.exhausted = step == "exhausted"
        self.run.facts = best(self.seen.values(), self.limit)
        return self.run

    @property
    def ageless_apart(self) -> bool:
        """The kinds that never age are ranked apart, through the rating index: there are such kinds, and recency
        counts (weighted 0, age changes no score and the walk's bounds hold for every kind)."""
        return bool(self.half_lives.ageless) and self.weights.recency > 0

    def threshold_held(self, nth: ScoredFact) -> bool:
        """The rating index read's threshold was no higher than the N-th best (a hint's guess may have been)."""
        return self.threshold is not None and self.threshold + SQL_MARGIN / 2 <= nth.score

    @property
    def newest_unseen_bound(self) -> float:
        """The highest recency an unscored fact older than the last one walked can have, of the kinds the walk
        bounds (those that age, or every kind when the kinds that never age are not ranked apart): its recency
        at their slowest half-life, 1 when one of them never ages, 0 when there is none."""
        if self.ageless_apart and not self.half_lives.aging:
            return 0.0
        if self.half_lives.ageless and not self.ageless_apart:
            return 1.0
        return raised(recency(self.last[1], self.now_us, self.half_lives.slowest_seconds))


# What the rating index read's statement has written in rather than bound: its LIMITs and OFFSETs (whole numbers of
# the ranking's slots) and the kinds that never age (names from Kind). A statement run a fifth time is prepared
# (config/settings/base.py), and PostgreSQL then plans it once for any parameters only if that generic plan looks no
# dearer than the plans it made for the values given; bound, it guesses a LIMIT or an array it cannot see, the
# generic plan looks dearer, and the statement is planned anew on every message. A server has a few such statements.
# (The walk's statement keeps them bound: planned blind its weight index read goes wrong, top._first_step.)
_COUNTS = ("per_group", "nth", "send_nth")


def _planned_once(statement: str, params: dict, kinds: tuple[str, ...]) -> str:
    for name in _COUNTS:
        statement = statement.replace(f"%({name})s", str(int(params[name])))
    if not set(kinds) <= set(Kind.values):
        raise ValueError(f"Unknown kinds: {kinds}")  # never: HalfLives names only Kind's
    return statement.replace("%(ageless)s", "ARRAY[" + ", ".join(f"'{kind}'" for kind in kinds) + "]")


# A server's few statements, compacted once each: psycopg caches its conversion of their placeholders only up to
# 4,096 bytes, and the walk with the context's columns is 4,550 as written (compact_sql).
_compact = lru_cache(maxsize=256)(compact_sql)


# A large server's statements are planned for it: the server written in as a literal. A prepared statement's generic
# plan, one plan for any server, is planned for the average server (500 facts on a bench of 10,000 servers) and read
# a million-fact server's weight index the wrong way (the heavy step walked the newest-first index: 223 ms). A small
# server keeps the shared prepared plan: planning its statements every time cost more than they take (context.ranked
# .many, servers of at most 1,000 facts: p50 8.5 ms shared, 11.5 ms each planned). Sizes are read once a minute.
PLANNED_PER_SERVER_FROM = 20_000  # numbers handed out (2,000 measured no better for servers of 1,000-20,000)
SIZE_RECHECK_S = 60.0
_server_is_large: dict[int, tuple[bool, float]] = {}


def planned_per_server(server_id: int) -> bool:
    """Whether the server is large enough for its ranking statements to be planned for it."""
    now = time.monotonic()
    known = _server_is_large.get(server_id)
    if known is not None and now - known[1] < SIZE_RECHECK_S:
        return known[0]
    with connection.cursor() as cursor:
        large = numbers_handed_out(cursor, server_id) >= PLANNED_PER_SERVER_FROM
    if len(_server_is_large) > 100_000:
        _server_is_large.clear()
    _server_is_large[server_id] = (large, now)
    return large


def _fetch(statement: str, params: dict) -> list[tuple]:
    statement = _compact(statement)
    if planned_per_server(params["server"]):
        statement = with_server_literal(statement, params["server"])
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall()


def moment(changed_us: int) -> datetime:
    return EPOCH + timedelta(microseconds=changed_us)


def raised(value: float, ulps: int = _ULPS) -> float:
    for _ in range(ulps):
        value = math.nextafter(value, math.inf)
    return value
