"""The six memory types as one scale: what each adds, and every way the rest of the code treats them differently.

This is the one place that knows how types differ. Every per-type difference is a field of the type's profile;
the code asks `profile_for(memory_type)` for it and never compares type names (tests/memory/test_types.py
refuses a comparison anywhere else).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from .models import AISettings, MemoryType


class ContextOrder:
    """Which facts fill a message's context (memory.retrieval.context maps each to its function)."""

    NEWEST = "newest"  # the most recently changed facts in force
    BEST_SCORE = "best_score"  # the best-scored facts for the message (memory/retrieval/ranking/)


class RelevanceKind:
    """How the context judges a fact's relevance to the message."""

    NONE = "none"  # the newest facts are shown: relevance plays no part
    WORDS = "words"  # the fact's place in the words search for the message
    WORDS_AND_MEANING = "words+meaning"  # words and meaning fused (words alone when meaning cannot be used)


class Addition:
    """What a type adds to the one before it on the scale (the memory-type cards and the types page explain it)."""

    FLAT_LIST = "flat_list"
    RETRACTION = "retraction"
    SEARCH = "search"
    RANKING = "ranking"
    ROUNDS = "rounds"
    MEANING = "meaning"


@dataclass(frozen=True)
class TypeProfile:
    value: str
    label: str
    position: int  # 1..6 on the scale
    ready: bool  # its machinery exists; a type that is not ready cannot be chosen
    adds: str  # the one thing it adds to the type before it
    changes: str  # what the bot does differently
    settings: str  # which settings apply and where they live
    addition: str  # Addition: what `adds` says, as a value the code can ask for
    context_order: str  # ContextOrder
    relevance: str  # RelevanceKind
    retract_deletes: bool  # Classic deletes when the bot retracts; every later type closes the window
    can_supersede: bool
    can_search: bool
    consolidates: bool  # background rounds propose merges and a summary draft (consolidation)
    embeds: bool  # every fact gets a vector; the bot's search fuses words and meaning
    # A remembered fact with the key of one in force that says something else is flagged as a contradiction for
    # staff, and only the newer is handed to the bot until someone answers (Ledger and up; Classic keeps both).
    flags_contradictions: bool = False


PROFILES: tuple[TypeProfile, ...] = (
    TypeProfile(
        value=MemoryType.CLASSIC, label=_("Classic"), position=1, ready=True,
        adds=_("A flat list of facts. The most recently changed facts fill the context."),
        changes=_("When the bot says a fact no longer holds, the fact is deleted."),
        settings=_("Maximum injected memory items (AI settings)."),
        addition=Addition.FLAT_LIST, context_order=ContextOrder.NEWEST, relevance=RelevanceKind.NONE,
        retract_deletes=True, can_supersede=False, can_search=False, consolidates=False, embeds=False,
    ),
    TypeProfile(
        value=MemoryType.LEDGER, label=_("Ledger"), position=2, ready=True,
        adds=_("Retraction instead of deletion: a fact that no longer holds closes its validity window."),
        changes=_("Retracted facts leave the bot's context but stay on this page with their end date, reason and "
                   "replacement. The bot may also supersede a fact, and is told that the old wording is kept."),
        settings=_("Maximum injected memory items (AI settings)."),
        addition=Addition.RETRACTION, context_order=ContextOrder.NEWEST, relevance=RelevanceKind.NONE,
        retract_deletes=False, can_supersede=True, can_search=False, consolidates=False, embeds=False,
        flags_contradictions=True,
    ),
    TypeProfile(
        value=MemoryType.ARCHIVE, label=_("Searchable archive"), position=3, ready=True,
        adds=_("One lookup per reply: the bot may search all facts in force by name before it answers."),
        changes=_("A search costs exactly one extra model call, never two. It is full text, run by the database, "
                   "over server and member facts; it cannot reach retracted facts, and it obeys the read channels."),
        settings=_("Maximum injected memory items and read channels (AI settings)."),
        addition=Addition.SEARCH, context_order=ContextOrder.NEWEST, relevance=RelevanceKind.NONE,
        retract_deletes=False, can_supersede=True, can_search=True, consolidates=False, embeds=False,
        flags_contradictions=True,
    ),
    TypeProfile(
        value=MemoryType.RANKED, label=_("Ranked"), position=4, ready=True,
        adds=_("The context slots go to the most useful facts, not the newest."),
        changes=_("Each fact in force is scored on recency (by kind: rules, lore and profiles never age; events and preferences fade), importance "
                   "(rated 0–1 by the model when it writes the fact; unscored counts as 0.5) and relevance to the "
                   "message (its place in a full-text search for it); confidence multiplies the score and only "
                   "lowers it. The best-scored facts fill the slots, best first. It ranks and never filters: a fact "
                   "that misses the cut is a candidate again on the next message. The one search stays."),
        settings=_("Ranking weights for recency, importance and relevance, and the maximum injected memory items "
                    "(AI settings)."),
        addition=Addition.RANKING, context_order=ContextOrder.BEST_SCORE, relevance=RelevanceKind.WORDS,
        retract_deletes=False, can_supersede=True, can_search=True, consolidates=False, embeds=False,
        flags_contradictions=True,
    ),
    TypeProfile(
        value=MemoryType.CONSOLIDATED, label=_("Consolidated"), position=5, ready=True,
        adds=_("A background round over a quiet server proposes duplicate merges and a rewritten summary."),
        changes=_("Nothing is applied until a person answers each proposal; contradictions are flagged, never merged."),
        settings=_("Consolidation model (AI settings); without one, merges keep the winning fact word for word."),
        addition=Addition.ROUNDS, context_order=ContextOrder.BEST_SCORE, relevance=RelevanceKind.WORDS,
        retract_deletes=False, can_supersede=True, can_search=True, consolidates=True, embeds=False,
        flags_contradictions=True,
    ),
    TypeProfile(
        value=MemoryType.SEMANTIC, label=_("Semantic"), position=6, ready=True,
        adds=_("Each fact gets an embedding, so a search finds meaning, not only the same words."),
        changes=_("Search and relevance fuse words and meaning; without an embedding model it falls back to words "
                   "and says so."),
        settings=_("Embedding model (AI settings)."),
        addition=Addition.MEANING, context_order=ContextOrder.BEST_SCORE, relevance=RelevanceKind.WORDS_AND_MEANING,
        retract_deletes=False, can_supersede=True, can_search=True, consolidates=True, embeds=True,
        flags_contradictions=True,
    ),
)

_BY_VALUE = {profile.value: profile for profile in PROFILES}

# The types that share a difference, for the queries that filter servers by it.
NEWEST_FIRST_TYPES = tuple(profile.value for profile in PROFILES if profile.context_order == ContextOrder.NEWEST)
CONSOLIDATING_TYPES = tuple(profile.value for profile in PROFILES if profile.consolidates)
EMBEDDING_TYPES = tuple(profile.value for profile in PROFILES if profile.embeds)
# The type of a server nobody has configured yet (its AI settings row is missing).
DEFAULT_MEMORY_TYPE: str = AISettings._meta.get_field("memory_type").default


def profile_for(memory_type: str) -> TypeProfile:
    return _BY_VALUE[memory_type]
