"""Which facts the bot sees: the context for a message (per memory type) and the bot's one search."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from config.rows import columns, loaded_instance
from teams.models import Server

from .models import SEARCH_CONFIG, AISettings, Fact
from .types import NEWEST_FIRST_TYPES, ContextOrder, RelevanceKind, profile_for
from .ranking import RELEVANCE_DEPTH, Weights, rank_top, relevance_by_position
from memory.text.words import words

SEARCH_RESULT_LIMIT = 10
RANK_CANDIDATES = 500
# What the context and the API show of a fact; loading only these keeps building the context cheap.
# author_kind: the memory block quotes an instruction-like note only when the bot learned it (memory.prompt).
CONTEXT_FIELDS = ("id", "server_id", "number", "key", "content", "scope", "member_id", "author_kind", "confidence",
                  "changed_at")
MAX_QUERY_WORDS = 12


_CONTEXT_COLUMNS = columns(Fact, "f", CONTEXT_FIELDS)
_NEWEST_IN_FORCE_SQL = f"""
    SELECT {_CONTEXT_COLUMNS.sql} FROM memory_fact f
    WHERE f.server_id = %s AND f.retracted_at IS NULL
    ORDER BY f.changed_at DESC, f.id DESC LIMIT %s
"""


def _facts_from_rows(rows) -> list[Fact]:
    return [_CONTEXT_COLUMNS.instance(row) for row in rows]


def _most_recently_changed(server: Server, ai_settings: AISettings, message: str) -> ContextChoice:
    """Classic, Ledger and Searchable archive: the newest changes fill the slots (partial index walk),
    read with the server when the context call found it (NEWEST_IN_FORCE_JSON_SQL).
    Hand-written SQL: this runs for every message the bot sees (config/rows.py)."""
    read_with_server = server.__dict__.get("newest_facts_in_force")
    if read_with_server is not None:
        return ContextChoice(read_with_server)
    with connection.cursor() as cursor:
        cursor.execute(_NEWEST_IN_FORCE_SQL, [server.pk, ai_settings.max_injected_items])
        return ContextChoice(_facts_from_rows(cursor.fetchall()))


def facts_in_order(ids: list[int]) -> list[Fact]:
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_CONTEXT_COLUMNS.sql} FROM memory_fact f WHERE f.id = ANY(%s)", [ids])
        by_pk = {fact.pk: fact for fact in _facts_from_rows(cursor.fetchall())}
    return [by_pk[pk] for pk in ids if pk in by_pk]


@dataclass(frozen=True)
class Relevance:
    """Relevance to the message of the facts it matches, and how it was judged."""

    by_fact: dict[int, float]
    mode: str  # "words" | "hybrid"
    fallback_reason: str = ""  # under Semantic: why meaning was not used


def message_relevance(server: Server, message: str, ai_settings: AISettings | None = None) -> Relevance:
    """Relevance to the message of the facts it matches: their place in the words search for it, or
    under Semantic in words and meaning fused (words alone, with the reason, whenever meaning cannot be used)."""
    if ai_settings is not None and profile_for(ai_settings.memory_type).relevance == RelevanceKind.WORDS_AND_MEANING:
        from .semantic import hybrid_ids

        fused = hybrid_ids(server, ai_settings, message, RELEVANCE_DEPTH, embed_short_text=False)
        return Relevance(relevance_by_position(fused.ids), fused.mode, fused.fallback_reason or "")
    return Relevance(relevance_by_position(search_word_ids(server.pk, message, RELEVANCE_DEPTH)), "words")


@dataclass(frozen=True)
class ContextChoice:
    """The facts a message's context shows, and how relevance was judged ("" when the type does not rank)."""

    facts: list[Fact]
    relevance_mode: str = ""
    relevance_fallback_reason: str = ""


# What the context needs of a ranked fact beyond what ranking reads anyway; ranking reads it in the same
# round trip for the few facts it sends back (memory/ranking/top.py).
_RANKED_COLUMNS = columns(Fact, "ranked_fact", ("server_id", "number", "key", "content", "scope", "member_id",
                                                  "author_kind"))
_RANKED_ATTNAMES = ["id", *_RANKED_COLUMNS.attnames, "confidence", "changed_at"]


def best_scored(server: Server, ai_settings: AISettings, message: str) -> ContextChoice:
    """Ranked, and every type after it: the facts with the best score for this message fill the slots,
    best first (memory/ranking/)."""
    relevance = message_relevance(server, message, ai_settings)
    ranked = rank_top(server.pk, Weights.of(ai_settings), ai_settings.max_injected_items, relevance.by_fact,
                      timezone.now(), columns=_RANKED_COLUMNS)
    facts = [loaded_instance(Fact, _RANKED_ATTNAMES,
                             [fact.id, *ranked.columns[fact.id], fact.confidence, fact.changed_at])
             for fact in ranked.facts]
    return ContextChoice(facts, relevance.mode, relevance.fallback_reason)


# How each context order of the type profiles (memory.types.ContextOrder) chooses the facts.
CONTEXT_BY_ORDER: dict[str, Callable[[Server, AISettings, str], ContextChoice]] = {
    ContextOrder.NEWEST: _most_recently_changed,
    ContextOrder.BEST_SCORE: best_scored,
}


def context_strategy(memory_type: str) -> Callable[[Server, AISettings, str], ContextChoice]:
    """How the context of this memory type is chosen."""
    return CONTEXT_BY_ORDER[profile_for(memory_type).context_order]


# The types whose context is the newest changes, and that context as one JSON column of the query that
# finds the bot's token and server (memory.selectors), for the table aliases s (the server) and a (its
# AI settings): the same statement, so the same snapshot and settings, one round trip fewer on the bot's
# busiest call. NULL for the other types, and for a server without AI settings (created on first use).
NEWEST_IN_FORCE_JSON_SQL = f"""
    CASE WHEN a.memory_type IN ({", ".join(f"'{memory_type}'" for memory_type in NEWEST_FIRST_TYPES)}) THEN (
        SELECT COALESCE(json_agg({_CONTEXT_COLUMNS.json_array_sql} ORDER BY f.changed_at DESC, f.id DESC), '[]')
        FROM (SELECT {_CONTEXT_COLUMNS.sql} FROM memory_fact f
              WHERE f.server_id = s.id AND f.retracted_at IS NULL
              ORDER BY f.changed_at DESC, f.id DESC LIMIT a.max_injected_items) f)
    END"""


def newest_facts_from_json(arrays: list) -> list[Fact]:
    return _CONTEXT_COLUMNS.instances_from_json(arrays)


def context_choice(server: Server, ai_settings: AISettings, message: str) -> ContextChoice:
    return context_strategy(ai_settings.memory_type)(server, ai_settings, message)


def _words(text: str) -> list[str]:
    return words(text, MAX_QUERY_WORDS)


# How the one search stays cheap at any size. Ranking all matches of a common word would read
# thousands of rows, so a search ranks the RANK_CANDIDATES newest matches. Two ways find them:
#  - walking the covering (server, changed_at, id) INCLUDE (search_vector) index from the newest fact,
#    testing each entry without touching the table: costs about WALK_COST per entry walked, so it is
#    cheap for a common word (a few hundred entries hold ten matches) and dear for a rare one;
#  - the GIN index, which hands over every match and then reads each from the table: about
#    GIN_COST per match, cheap for a rare word and dear for a common one.
# A first walk of FIRST_WALK entries tells how common the query is (matches per entry). That estimate
# picks the cheaper way to the rest, so the worst case costs about the square root of the server's
# fact count in entries (a few milliseconds at a million facts) instead of growing with it.
FIRST_WALK = 2000
WALK_COST, GIN_COST = 1.0, 8.0  # per entry walked, per match read: relative, measured at a million facts
MAX_WALK = 20000

_RANKED_WINDOW_SQL = """
    SELECT id, count(*) OVER () FROM (
        SELECT id, changed_at, search_vector FROM (
            SELECT id, changed_at, search_vector FROM memory_fact
            WHERE server_id = %(server)s AND retracted_at IS NULL
            ORDER BY changed_at DESC, id DESC LIMIT %(walk)s
        ) recent
        WHERE search_vector @@ to_tsquery(%(config)s::regconfig, %(query)s) AND NOT (id = ANY(%(exclude)s))
        LIMIT %(candidates)s
    ) newest_matches
    ORDER BY ts_rank(search_vector, to_tsquery(%(config)s::regconfig, %(query)s)) DESC, changed_at DESC, id DESC
    LIMIT %(limit)s
"""
# Whether the server has more than %(walk)s facts in force (any order: the narrowest index answers; at
# most FIRST_WALK entries read, a fraction of a millisecond at any size).
_MORE_THAN_WALK_SQL = """
    SELECT EXISTS (SELECT 1 FROM memory_fact WHERE server_id = %(server)s AND retracted_at IS NULL
                   OFFSET %(walk)s LIMIT 1)
"""
# MATERIALIZED keeps the planner from walking the sort index (it would, hoping the LIMIT stops it
# early, and read a million entries when the word is rare): this path is only taken for few matches.
_RANKED_GIN_SQL = """
    WITH matches AS MATERIALIZED (
        SELECT id, changed_at, search_vector FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL
          AND search_vector @@ to_tsquery(%(config)s::regconfig, %(query)s) AND NOT (id = ANY(%(exclude)s))
    )
    SELECT id, 0 FROM (SELECT * FROM matches ORDER BY changed_at DESC, id DESC LIMIT %(candidates)s) newest_matches
    ORDER BY ts_rank(search_vector, to_tsquery(%(config)s::regconfig, %(query)s)) DESC, changed_at DESC, id DESC
    LIMIT %(limit)s
"""


def _ranked(cursor, sql: str, params: dict) -> tuple[list[int], int]:
    cursor.execute(sql, params)
    rows = cursor.fetchall()
    return [row[0] for row in rows], (rows[0][1] if rows else 0)


def numbers_handed_out(cursor, server_id: int) -> int:
    """Numbers handed out so far on the server: an upper bound of its facts in force, from one row."""
    cursor.execute("SELECT last_number FROM memory_factcounter WHERE server_id = %s", [server_id])
    row = cursor.fetchone()
    return row[0] if row else 0


class _ServerSize:
    """What a search learns of the server's size when a walk fell short, each read at most once (the
    search's second pass asks the same)."""

    def __init__(self, cursor, server_id: int) -> None:
        self.cursor, self.server_id = cursor, server_id

    @functools.cached_property
    def numbers_handed_out(self) -> int:
        return numbers_handed_out(self.cursor, self.server_id)

    @functools.cached_property
    def more_than_first_walk(self) -> bool:
        """Numbers handed out overstate the facts in force once some are deleted (a wiped server may have
        handed out a million and hold a thousand): whether the first walk saw them all, from the index."""
        self.cursor.execute(_MORE_THAN_WALK_SQL, {"server": self.server_id, "walk": FIRST_WALK})
        return self.cursor.fetchone()[0]


def _best_of_newest_matches(cursor, server_id: int, tsquery: str, exclude_ids: list[int], limit: int,
                            size: _ServerSize, config: str = SEARCH_CONFIG) -> list[int]:
    """Ids of the `limit` best-ranked among the newest RANK_CANDIDATES matches of `tsquery`."""
    params = {"server": server_id, "config": config, "query": tsquery, "exclude": exclude_ids,
              "candidates": RANK_CANDIDATES, "limit": limit, "walk": FIRST_WALK}
    ids, matches = _ranked(cursor, _RANKED_WINDOW_SQL, params)
    if matches >= SEARCH_RESULT_LIMIT:
        return ids  # enough candidates to rank: the common case costs one query
    facts_ever = size.numbers_handed_out
    if facts_ever <= FIRST_WALK or not size.more_than_first_walk:
        return ids  # the walk saw every fact of the server: the GIN index would find nothing more
    share = max(matches, 0.5) / FIRST_WALK  # estimated matches per fact; 0.5 when none were seen
    walk_needed = int(1.5 * SEARCH_RESULT_LIMIT / share)
    # All of several words costs the GIN index more: it intersects each word's list of facts.
    gin_cost = GIN_COST * share * facts_ever * (tsquery.count("&") + 1)
    walk_is_cheaper = WALK_COST * walk_needed < gin_cost
    if walk_needed <= MAX_WALK and walk_is_cheaper:
        ids, matches = _ranked(cursor, _RANKED_WINDOW_SQL, {**params, "walk": walk_needed})
        if matches >= SEARCH_RESULT_LIMIT or facts_ever <= walk_needed:
            return ids
    return _ranked(cursor, _RANKED_GIN_SQL, params)[0]


def _lexemes(cursor, query: str) -> list[str]:
    """The query's stemmed English lexemes without stopwords, as the database sees them."""
    cursor.execute("SELECT tsvector_to_array(to_tsvector(%s::regconfig, %s))", [SEARCH_CONFIG, query])
    return list(cursor.fetchone()[0] or [])


def _all_but_one(lexemes: list[str]) -> str:
    """A tsquery (simple config: the lexemes are stemmed already) for facts holding all lexemes but one."""
    quoted = ["'" + lexeme.replace("'", "''") + "'" for lexeme in lexemes]
    return " | ".join("(" + " & ".join(quoted[:skip] + quoted[skip + 1:]) + ")" for skip in range(len(quoted)))


def search_word_ids(server_id: int, query: str, limit: int = SEARCH_RESULT_LIMIT) -> list[int]:
    """Ids of search_words' results, best match first (ranking needs their places, not their text).

    Facts holding every word of the query first. When they are fewer than `limit` and the query has at
    least three words (after dropping stopwords), facts holding all of them but one fill the rest:
    "the tetris tournament on saturday" still finds the tournament fact that does not say "saturday",
    while "he speaks French" never turns into a search for "French" alone (words are not meaning)."""
    words = _words(query)
    if not words:
        return []
    with connection.cursor() as cursor:
        size = _ServerSize(cursor, server_id)
        found_ids = _best_of_newest_matches(cursor, server_id, " & ".join(words), [], limit, size)
        if len(found_ids) < limit and len(words) >= 3:
            lexemes = _lexemes(cursor, " ".join(words))[:MAX_QUERY_WORDS]
            if len(lexemes) >= 3:
                found_ids += _best_of_newest_matches(cursor, server_id, _all_but_one(lexemes), found_ids,
                                                     limit - len(found_ids), size, config="simple")
    return found_ids


def search_words(server: Server, query: str, limit: int = SEARCH_RESULT_LIMIT) -> list[Fact]:
    """Full-text search over the facts in force of the server (both scopes), best match first.

    Every word together first (precise); with three words or more, facts holding all but one fill the
    rest (search_word_ids). Stemmed English lexemes, so "birthdays" finds "birthday". Ranking reads
    at most RANK_CANDIDATES matches, the most recently changed: a word that appears in a hundred
    thousand facts is ranked among its newest 500, so a search costs milliseconds at any size.
    """
    return facts_in_order(search_word_ids(server.pk, query, limit))
