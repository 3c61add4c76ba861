"""The ranking score of one fact: recency, importance and relevance, weighed per server, times confidence.

    score = confidence × (w_rec·recency + w_imp·importance + w_rel·relevance) / (w_rec + w_imp + w_rel)

Recency depends on the fact's kind: 0.5 ** (age / the server's half-life of that kind), 1 for a half-life of 0.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memory.models import UNSCORED_IMPORTANCE, AISettings, Kind

DAY_SECONDS = 86_400.0
# How many search results count towards relevance: the first gets 1, the 50th gets 1/50.
RELEVANCE_DEPTH = 50

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Kind.values builds its list anew on every access (Django's enum property): read once, since seconds() runs for every
# fact a ranking scores (about 90 per message: Kind.values alone was 1.5 ms of a Ranked context call).
_KINDS = tuple(Kind.values)
_KNOWN_KINDS = frozenset(_KINDS)


@dataclass(frozen=True)
class Weights:
    """The server's ranking weights (AI settings: each 0–10, never all zero)."""

    recency: float
    importance: float
    relevance: float

    @classmethod
    def of(cls, ai_settings: AISettings) -> Weights:
        return cls(ai_settings.weight_recency, ai_settings.weight_importance, ai_settings.weight_relevance)

    @property
    def total(self) -> float:
        return self.recency + self.importance + self.relevance


@dataclass(frozen=True)
class HalfLives:
    """The server's half-life of each kind of fact, in days (AI settings half_life_<kind>_days); 0: age never
    lowers the recency of that kind. The defaults: rules, lore and profiles never age (that the server speaks
    French is still true after two years), preferences halve in 180 days, events in 30."""

    rule: float = 0
    lore: float = 0
    profile: float = 0
    preference: float = 180
    event: float = 30

    @classmethod
    def of(cls, ai_settings: AISettings) -> HalfLives:
        return cls(**{kind: getattr(ai_settings, f"half_life_{kind}_days") for kind in _KINDS})

    def seconds(self, kind: str) -> float:
        """The half-life of `kind` in seconds, 0 for never; a kind the table does not know counts as lore."""
        return getattr(self, kind if kind in _KNOWN_KINDS else Kind.LORE) * DAY_SECONDS

    @property
    def by_kind(self) -> dict[str, float]:
        """Seconds per kind, 0 for the kinds that never age."""
        return {kind: self.seconds(kind) for kind in _KINDS}

    @property
    def aging(self) -> tuple[str, ...]:
        """The kinds whose recency falls with age."""
        return tuple(kind for kind, seconds in self.by_kind.items() if seconds > 0)

    @property
    def ageless(self) -> tuple[str, ...]:
        """The kinds whose recency is always 1."""
        return tuple(kind for kind, seconds in self.by_kind.items() if seconds == 0)

    @property
    def slowest_seconds(self) -> float:
        """The longest half-life of the kinds that age (0 when none does): no aging fact is more recent than
        this half-life says."""
        return max((self.seconds(kind) for kind in self.aging), default=0.0)

    @property
    def fastest_seconds(self) -> float:
        """The shortest half-life of the kinds that age (0 when none does): no score falls faster than it."""
        return min((self.seconds(kind) for kind in self.aging), default=0.0)


@dataclass(frozen=True, slots=True)
class ScoredFact:
    """One fact's score and what it is made of (ids and numbers, no text: this is the hot path)."""

    id: int
    changed_us: int  # last change, microseconds since 1970 (reading a datetime costs ten times more)
    confidence: float
    importance: float | None
    recency: float
    relevance: float
    score: float
    kind: str = Kind.LORE

    @property
    def changed_at(self) -> datetime:
        return EPOCH + timedelta(microseconds=self.changed_us)


def microseconds(moment: datetime) -> int:
    return (moment - EPOCH) // timedelta(microseconds=1)


def recency(changed_us: int, now_us: int, half_life_seconds: float) -> float:
    """0.5 ** (age / half-life), 1.0 for a half-life of 0 (never ages); a change dated after now counts as now."""
    if half_life_seconds <= 0:
        return 1.0
    return 0.5 ** (max(now_us - changed_us, 0) / 1_000_000 / half_life_seconds)


def fact_weight(confidence: float, importance: float | None) -> float:
    """confidence × importance, unscored counting as middling: what the fact_in_force_weight index holds."""
    return confidence * (UNSCORED_IMPORTANCE if importance is None else importance)


def combine(recency_term: float, weight_term: float, relevance_term: float, weights: Weights) -> float:
    """The weighted mean of terms already multiplied by confidence; bounds pass larger terms."""
    return (weights.recency * recency_term + weights.importance * weight_term
            + weights.relevance * relevance_term) / weights.total


def score(*, confidence: float, importance: float | None, recency: float, relevance: float,
          weights: Weights) -> float:
    """confidence × (w_rec·recency + w_imp·importance + w_rel·relevance) / (w_rec + w_imp + w_rel).

    Confidence is multiplied into each term before they are weighed (the same number): the importance
    term is then the fact's weight exactly as the database indexes it, and since floating-point + and ×
    never decrease when an operand grows, a bound computed from larger terms is never below a score."""
    return combine(confidence * recency, fact_weight(confidence, importance), confidence * relevance, weights)


def relevance_by_position(ids_best_first: Sequence[int], depth: int = RELEVANCE_DEPTH) -> dict[int, float]:
    """1 − position / depth for each search result (the first gets 1); results beyond depth get nothing."""
    relevance: dict[int, float] = {}
    for position, fact_id in enumerate(ids_best_first[:depth]):
        relevance.setdefault(fact_id, 1.0 - position / depth)
    return relevance


def scored_fact(fact_id: int, changed_us: int, confidence: float, importance: float | None, kind: str, *,
                weights: Weights, half_lives: HalfLives, relevance: dict[int, float], now_us: int) -> ScoredFact:
    fact_recency = recency(changed_us, now_us, half_lives.seconds(kind))
    fact_relevance = relevance.get(fact_id, 0.0)
    return ScoredFact(id=fact_id, changed_us=changed_us, confidence=confidence, importance=importance,
                      recency=fact_recency, relevance=fact_relevance,
                      score=score(confidence=confidence, importance=importance, recency=fact_recency,
                                  relevance=fact_relevance, weights=weights), kind=kind)


def best(facts: Iterable[ScoredFact], limit: int) -> list[ScoredFact]:
    """The `limit` best, best first; ties go to the newer change, then the higher id."""
    return heapq.nlargest(limit, facts, key=_order_of)


def _order_of(fact: ScoredFact) -> tuple[float, int, int]:
    return (fact.score, fact.changed_us, fact.id)


