"""Which facts a message's context shows, chosen by the memory type's context order: the newest changes, or the
best scores for the message (memory/retrieval/ranking/), whose relevance is the fact's place in the words search
or, for a type that embeds, in words and meaning fused. Every statement reads only the facts the message's reader
may see (memory/retrieval/audience.py), so a limit or a ranking never counts a fact it may not hand over."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from config.rows import columns, loaded_instance
from memory.models import AISettings, Fact
from memory.types import NEWEST_FIRST_TYPES, ContextOrder, RelevanceKind, profile_for
from teams.models import Server

from .audience import POSITIONAL, Reader, visible_sql
from .fusion import hybrid_ids
from .ranking import RELEVANCE_DEPTH, HalfLives, Weights, rank_top, relevance_by_position
from .shown_facts import CONTEXT_COLUMNS, facts_from_rows
from .words import search_word_ids

_NEWEST_IN_FORCE_SQL = f"""
    SELECT {CONTEXT_COLUMNS.sql} FROM memory_fact f
    WHERE f.server_id = %(server)s AND f.retracted_at IS NULL AND {visible_sql("f")}
    ORDER BY f.changed_at DESC, f.id DESC LIMIT %(limit)s
"""


def _most_recently_changed(server: Server, ai_settings: AISettings, message: str, reader: Reader) -> ContextChoice:
    """Classic, Ledger and Searchable archive: the newest changes the reader may see fill the slots (partial
    index walk), read with the server when the context call found it for this reader (NEWEST_IN_FORCE_JSON_SQL).
    Hand-written SQL: this runs for every message the bot sees (config/rows.py)."""
    if server.__dict__.get("newest_facts_reader") == reader:
        return ContextChoice(server.__dict__["newest_facts_in_force"])
    with connection.cursor() as cursor:
        cursor.execute(_NEWEST_IN_FORCE_SQL, {"server": server.pk, "limit": ai_settings.max_injected_items,
                                              **reader.params})
        return ContextChoice(facts_from_rows(cursor.fetchall()))


@dataclass(frozen=True)
class Relevance:
    """Relevance to the message of the facts it matches, and how it was judged."""

    by_fact: dict[int, float]
    mode: str  # "words" | "hybrid"
    fallback_reason: str = ""  # under Semantic: why meaning was not used


def message_relevance(server: Server, message: str, ai_settings: AISettings | None = None, *,
                      reader: Reader) -> Relevance:
    """Relevance to the message of the facts it matches that the reader may see: their place in the words
    search for it, or under Semantic in words and meaning fused (words alone, with the reason, whenever
    meaning cannot be used)."""
    if ai_settings is not None and profile_for(ai_settings.memory_type).relevance == RelevanceKind.WORDS_AND_MEANING:
        fused = hybrid_ids(server, ai_settings, message, RELEVANCE_DEPTH, embed_short_text=False, reader=reader)
        return Relevance(relevance_by_position(fused.ids), fused.mode, fused.fallback_reason or "")
    return Relevance(relevance_by_position(search_word_ids(server.pk, message, RELEVANCE_DEPTH, reader=reader)),
                     "words")


@dataclass(frozen=True)
class ContextChoice:
    """The facts a message's context shows, and how relevance was judged ("" when the type does not rank)."""

    facts: list[Fact]
    relevance_mode: str = ""
    relevance_fallback_reason: str = ""


# What the context needs of a ranked fact beyond what ranking reads anyway; ranking reads it in the same
# round trip for the few facts it sends back (memory/retrieval/ranking/top.py).
_RANKED_COLUMNS = columns(Fact, "ranked_fact", ("server_id", "number", "key", "content", "scope", "member_id",
                                                  "author_kind", "audience", "source_channel_id"))
_RANKED_ATTNAMES = ["id", *_RANKED_COLUMNS.attnames, "confidence", "changed_at"]


def best_scored(server: Server, ai_settings: AISettings, message: str, reader: Reader) -> ContextChoice:
    """Ranked, and every type after it: the facts the reader may see with the best score for this message
    fill the slots, best first (memory/retrieval/ranking/)."""
    relevance = message_relevance(server, message, ai_settings, reader=reader)
    ranked = rank_top(server.pk, Weights.of(ai_settings), ai_settings.max_injected_items, relevance.by_fact,
                      timezone.now(), columns=_RANKED_COLUMNS, reader=reader, half_lives=HalfLives.of(ai_settings))
    facts = [loaded_instance(Fact, _RANKED_ATTNAMES,
                             [fact.id, *ranked.columns[fact.id], fact.confidence, fact.changed_at])
             for fact in ranked.facts]
    return ContextChoice(facts, relevance.mode, relevance.fallback_reason)


# How each context order of the type profiles (memory.types.ContextOrder) chooses the facts.
CONTEXT_BY_ORDER: dict[str, Callable[[Server, AISettings, str, Reader], ContextChoice]] = {
    ContextOrder.NEWEST: _most_recently_changed,
    ContextOrder.BEST_SCORE: best_scored,
}


def context_strategy(memory_type: str) -> Callable[[Server, AISettings, str, Reader], ContextChoice]:
    """How the context of this memory type is chosen."""
    return CONTEXT_BY_ORDER[profile_for(memory_type).context_order]


# The types whose context is the newest changes, and that context as one JSON column of the query that
# finds the bot's token and server (memory.bot.selectors), for the table aliases s (the server) and a (its
# AI settings): the same statement, so the same snapshot and settings, one round trip fewer on the bot's
# busiest call. NULL for the other types, and for a server without AI settings (created on first use).
# Its positional parameters are the reader's (Reader.params' values: channel, thread), from the message's body.
NEWEST_IN_FORCE_JSON_SQL = f"""
    CASE WHEN a.memory_type IN ({", ".join(f"'{memory_type}'" for memory_type in NEWEST_FIRST_TYPES)}) THEN (
        SELECT COALESCE(json_agg({CONTEXT_COLUMNS.json_array_sql} ORDER BY f.changed_at DESC, f.id DESC), '[]')
        FROM (SELECT {CONTEXT_COLUMNS.sql} FROM memory_fact f
              WHERE f.server_id = s.id AND f.retracted_at IS NULL AND {visible_sql("f", POSITIONAL)}
              ORDER BY f.changed_at DESC, f.id DESC LIMIT a.max_injected_items) f)
    END"""


def context_choice(server: Server, ai_settings: AISettings, message: str, reader: Reader) -> ContextChoice:
    """The facts the context of a message read by `reader` shows, by the server's memory type."""
    return context_strategy(ai_settings.memory_type)(server, ai_settings, message, reader)
