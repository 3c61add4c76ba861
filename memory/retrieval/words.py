"""The bot's one search by words, and the words part of relevance: full text over the facts in force that the reader
may see, ranked among the newest matches, found along whichever index costs less for how common the query is."""

from __future__ import annotations

import functools

from django.db import connection

from memory.models import SEARCH_CONFIG, Fact
from memory.text.words import words
from teams.models import Server

from .audience import Reader, visible_sql
from .shown_facts import facts_in_order

SEARCH_RESULT_LIMIT = 10
RANK_CANDIDATES = 500
MAX_QUERY_WORDS = 12


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
# Both ways test who may see a fact inside the statement (VISIBLE): the walk on the index entry itself
# (the index carries audience and source channel), so it counts only entries the reader may see.
FIRST_WALK = 2000
WALK_COST, GIN_COST = 1.0, 8.0  # per entry walked, per match read: relative, measured at a million facts
MAX_WALK = 20000

VISIBLE = visible_sql("memory_fact")
_RANKED_WINDOW_SQL = f"""
    SELECT id, count(*) OVER () FROM (
        SELECT id, changed_at, search_vector FROM (
            SELECT id, changed_at, search_vector FROM memory_fact
            WHERE server_id = %(server)s AND retracted_at IS NULL AND {VISIBLE}
            ORDER BY changed_at DESC, id DESC LIMIT %(walk)s
        ) recent
        WHERE search_vector @@ to_tsquery(%(config)s::regconfig, %(query)s) AND NOT (id = ANY(%(exclude)s))
        LIMIT %(candidates)s
    ) newest_matches
    ORDER BY ts_rank(search_vector, to_tsquery(%(config)s::regconfig, %(query)s)) DESC, changed_at DESC, id DESC
    LIMIT %(limit)s
"""
# Whether the server has more than %(walk)s facts in force (any order: the narrowest index answers; at
# most FIRST_WALK entries read, a fraction of a millisecond at any size). Counting every audience bounds the
# facts the reader may see from above, which is all the search asks of it.
_MORE_THAN_WALK_SQL = """
    SELECT EXISTS (SELECT 1 FROM memory_fact WHERE server_id = %(server)s AND retracted_at IS NULL
                   OFFSET %(walk)s LIMIT 1)
"""
# MATERIALIZED keeps the planner from walking the sort index (it would, hoping the LIMIT stops it
# early, and read a million entries when the word is rare): this path is only taken for few matches.
_RANKED_GIN_SQL = f"""
    WITH matches AS MATERIALIZED (
        SELECT id, changed_at, search_vector FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL AND {VISIBLE}
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
                            size: _ServerSize, reader: Reader, config: str = SEARCH_CONFIG) -> list[int]:
    """Ids of the `limit` best-ranked among the newest RANK_CANDIDATES matches of `tsquery` the reader may see."""
    params = {"server": server_id, "config": config, "query": tsquery, "exclude": exclude_ids,
              "candidates": RANK_CANDIDATES, "limit": limit, "walk": FIRST_WALK, **reader.params}
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


def search_word_ids(server_id: int, query: str, limit: int = SEARCH_RESULT_LIMIT, *, reader: Reader) -> list[int]:
    """Ids of search_words' results the reader may see, best match first (ranking needs their places, not their text).

    Facts holding every word of the query first. When they are fewer than `limit` and the query has at
    least three words (after dropping stopwords), facts holding all of them but one fill the rest:
    "the tetris tournament on saturday" still finds the tournament fact that does not say "saturday",
    while "he speaks French" never turns into a search for "French" alone (words are not meaning)."""
    words = _words(query)
    if not words:
        return []
    with connection.cursor() as cursor:
        size = _ServerSize(cursor, server_id)
        found_ids = _best_of_newest_matches(cursor, server_id, " & ".join(words), [], limit, size, reader)
        if len(found_ids) < limit and len(words) >= 3:
            lexemes = _lexemes(cursor, " ".join(words))[:MAX_QUERY_WORDS]
            if len(lexemes) >= 3:
                found_ids += _best_of_newest_matches(cursor, server_id, _all_but_one(lexemes), found_ids,
                                                     limit - len(found_ids), size, reader, config="simple")
    return found_ids


def search_words(server: Server, query: str, limit: int = SEARCH_RESULT_LIMIT, *, reader: Reader) -> list[Fact]:
    """Full-text search over the facts in force of the server (both scopes) that the reader may see, best match first.

    Every word together first (precise); with three words or more, facts holding all but one fill the
    rest (search_word_ids). Stemmed English lexemes, so "birthdays" finds "birthday". Ranking reads
    at most RANK_CANDIDATES matches, the most recently changed: a word that appears in a hundred
    thousand facts is ranked among its newest 500, so a search costs milliseconds at any size.
    """
    return facts_in_order(server.pk, search_word_ids(server.pk, query, limit, reader=reader), reader)
