"""How sure memory is of a fact: where it starts, by how the fact became known, and how it rises each time another
member says it again. Documented on the memory types page."""

from __future__ import annotations

from datetime import timedelta

from memory.models import AuthorKind, Scope

# How a fact became known sets its first confidence (the workspace-memory system's veracity weights).
CONFIDENCE_STAFF = 1.0  # staff wrote it
CONFIDENCE_SELF = 0.9  # the bot, from a member's own statement about themselves
CONFIDENCE_INFERRED = 0.7  # the bot's inference about someone else or the server
CONFIDENCE_IMPORTED = 0.6  # an import file that does not say
# Another member saying the same thing is more evidence, but not independent evidence (members repeat what they
# heard from each other): each such mention closes half of what that source's weight would close, so 0.7 → 0.81
# → 0.87 → 0.92 for a statement the bot inferred, and 0.9 → 0.95 → 0.97 for one a member made about themselves.
REINFORCEMENT_SHARE = 0.5
# The same member repeating themselves is one voice: it counts towards confidence at most once a day.
SAME_MEMBER_WINDOW = timedelta(days=1)


def source_confidence(*, author_kind: str, learned_from_member_id: str, scope: str, member_id: str) -> float:
    """The confidence a new fact starts from, by how it is known."""
    if author_kind == AuthorKind.STAFF:
        return CONFIDENCE_STAFF
    if scope == Scope.MEMBER and member_id and member_id == learned_from_member_id:
        return CONFIDENCE_SELF
    return CONFIDENCE_INFERRED


def reinforced_confidence(confidence: float, source_weight: float) -> float:
    """One more independent-enough mention: 1 − (1 − c)(1 − share × weight), never past 1."""
    return min(1.0, round(1.0 - (1.0 - confidence) * (1.0 - REINFORCEMENT_SHARE * source_weight), 6))
