"""A fact as a search found it: what fusion and diversity need of it, before any text is read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone


@dataclass(frozen=True)
class Scored:
    """A fact found by a search: its id, its score (words: a share of what a fact holding every query term once, at
    an average length, scores; meaning: cosine similarity), when it last changed (its date), and for words whether
    it holds every term of the query, and its lexemes (diversity compares them where there are no vectors)."""

    id: int
    score: float
    changed_at: datetime
    every_term: bool = False
    terms: frozenset[str] = frozenset()


def in_span(changed_at: datetime, span) -> bool:
    """Whether a fact changed on a day of `span` (a memory.text.time_expressions.DateSpan), in the server's time zone."""
    return span.start <= timezone.localdate(changed_at) <= span.end
