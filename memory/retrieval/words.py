"""The bot's one search by words, and the words part of relevance: a BM25 score in the server's language over the facts
in force that the reader may see, computed in PostgreSQL along the newest-first index and, for rare words, the GIN one.

BM25 (k1 = K1, b = B): each query term adds idf × tf·(k1 + 1) / (tf + k1·(1 − b + b·length / average length)), so a
fact holding more of the rarer words ranks first, a word said twice counts more than once but not twice, and a long
fact's words count for less. Facts holding every query term come first whatever their score. The terms are the
query's lexemes in the server's text search configuration (AISettings.words_config: stems and stop words of its
memory language, with migration 0030's -t verb forms and character pairs of scripts without spaces); while the
server's facts are being re-indexed to a new language, the words as written (`simple`), and the answer says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import lru_cache

from django.db import connection
from django.utils import timezone

from config.rows import compact_sql, with_server_literal

from .audience import Reader, visible_sql
from .scored import Scored

SEARCH_RESULT_LIMIT = 10
MAX_QUERY_CHARACTERS = 500
MAX_TERMS = 24
K1, B = 1.2, 0.75
# A fact dated inside the span a query's time expression names ("last May", "vorige week") gains this much of
# a fact holding every word (scores are shares of that, below): a preference, never a filter (bench/retrieval.py).
DATE_BONUS = 0.3

# How a search stays cheap at any size. BM25 needs every fact holding a term; a common word is in a hundred
# thousand of them. So a search walks the covering (server, changed_at, id) INCLUDE (search_vector) index from
# the newest fact over FIRST_WALK entries the reader may see, without touching the table: on a server that size
# the score is exact, and on a larger one the walk is a sample of the newest facts that tells how common each term
# is (document frequency, scaled to the server's size). A term the walk finds in at most RARE_IN_WALK facts may be
# in older facts the walk did not reach (and every term, when the walk found fewer facts than the answer needs):
# those are read through the GIN index (it hands over a rare word's few facts, each read from the table), at most
# GIN_READ of them, the newest GIN_BUDGET of those scored with the same formula.
# A common word needs no GIN read: the walk holds plenty of its facts, the newest ones. Cost at a million facts:
# the walk's statement 1.6-2.5 ms, a rare word's GIN read 2.3 ms when the facts it reads are in shared buffers and
# 5-12 ms when not (each of up to GIN_READ facts is a table page: on the bench database of 6M facts the million-fact
# server's 2.9 GB of table do not fit 2 GB of buffers, and PostgreSQL 18's io workers make a miss cost twice what a
# plain read does), its scoring statement 4-5 ms; about one search in seven at a million facts reads older facts,
# and those make the tail (bench/context.py, search.words.1m; docs/ARCHITECTURE.md).
FIRST_WALK = 2000
RARE_IN_WALK = 2
GIN_BUDGET = 200
SHORTLIST_PER_RESULT, SHORTLIST_MIN = 3, 30  # candidates scored with their term frequencies (_scoring_sql)
GIN_READ = 1000  # matches of the rare terms read at most (in the index's order), of which the newest GIN_BUDGET count


@dataclass(frozen=True)
class WordsLanguage:
    """Which language the words search of a server uses now, and why it may not be the one staff chose."""

    code: str
    config: str
    rebuilding: bool

    @property
    def note(self) -> str:
        if self.rebuilding:
            return ("The server's facts are being re-indexed for its new memory language: words are matched as "
                    "written until that is done.")
        return ""


def words_language(server_id: int) -> WordsLanguage:
    """The server's words language (English before its settings exist). Hand-written SQL: the bot's search answers
    with it (the ORM's query cost 0.3 ms of Python, config/rows.py)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT words_language, words_config, words_rebuild_started_at FROM memory_aisettings"
                       " WHERE server_id = %s", [server_id])
        row = cursor.fetchone()
    if row is None:
        return WordsLanguage("en", "english", False)
    return WordsLanguage(row[0], row[1], row[2] is not None)


# The query's terms in the server's configuration (the words as written while it re-indexes), each with the weights
# of the vector it is matched against: A, B (key and content in the server's language) or C, D (as written).
_TERMS_SQL = """
    settings AS (
        SELECT CASE WHEN s.words_rebuild_started_at IS NULL THEN coalesce(s.words_config, 'english')
                    ELSE 'simple' END::regconfig AS cfg,
               s.words_rebuild_started_at IS NOT NULL AS as_written
        FROM (SELECT 1) one LEFT JOIN memory_aisettings s ON s.server_id = %(server)s
    ),
    terms AS (
        SELECT t.lexeme, t.ord,
               (quote_literal(t.lexeme) || CASE WHEN settings.as_written THEN ':CD' ELSE ':AB' END)::tsquery AS query
        FROM settings, unnest(tsvector_to_array(to_tsvector(settings.cfg, %(query)s || ' ' || lk_inflections(
            settings.cfg, %(query)s) || ' ' || lk_grams(%(query)s)))) WITH ORDINALITY AS t(lexeme, ord)
        ORDER BY t.ord LIMIT %(max_terms)s
    ),
    q AS (
        SELECT string_agg(quote_literal(lexeme) || CASE WHEN as_written THEN ':CD' ELSE ':AB' END, ' | ')::tsquery
                   AS any_term,
               CASE WHEN as_written THEN '{c,d}' ELSE '{a,b}' END::"char"[] AS weights
        FROM terms, settings GROUP BY as_written
    )"""
# The newest FIRST_WALK facts in force the reader may see, from the covering index alone, each with its vector when
# it holds a query term (NULL otherwise): the walk keeps only the vectors it scores, not 2,000 of them (half a
# megabyte copied into the CTE on every search; the walk's statement 28 % faster at p50, the same rows, in an
# interleaved A/B at a million facts).
_RECENT_SQL = f"""
    recent AS MATERIALIZED (
        SELECT id, changed_at,
               CASE WHEN search_vector @@ (SELECT any_term FROM q) THEN search_vector END AS search_vector
        FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL AND {visible_sql("memory_fact")}
        ORDER BY changed_at DESC, id DESC LIMIT %(walk)s
    )"""


_COUNTER = ",\n           (SELECT last_number FROM memory_factcounter WHERE server_id = %(server)s)"


def _scoring_sql(candidates_sql: str, idf_sql: str, more_ctes: str = "", *, counter: bool = False) -> str:
    """BM25 of the candidates (id, changed_at, search_vector, in_walk) for the query's terms, best first (every term
    first). `idf_sql` yields (ord, lexeme, query, idf) per term from `frequency` (ord, lexeme, query, n: candidates
    holding it, n_walk: of those in the walk) and `stats`; `more_ctes` come before the candidates. With `counter`,
    every row also says numbers_handed_out (the walk's: whether older facts are worth reading depends on it), which
    costs no round trip of its own.

    Reading a term's frequency means unnesting a fact's vector (4 ms for the 400 of the newest 2,000 facts holding
    "raid" or "night"), so every candidate is first scored as if each term it holds were there once, and only the
    SHORTLIST best of those with their frequencies. A fact's length is its vector's count of lexemes. Every step is a
    scalar or lateral subquery over the few terms, never a join of two CTEs: a prepared statement's generic plan
    joined them by nested loops (27 ms for "raid night" at a million facts, 4 ms planned for its values)."""
    return f"""
    WITH {_TERMS_SQL}, {_RECENT_SQL},{more_ctes}
    candidates AS MATERIALIZED ({candidates_sql}),
    stats AS (
        SELECT (SELECT count(*) FROM recent) AS walked,
               (SELECT coalesce(avg(length(search_vector)), 1) FROM candidates) AS average_length,
               (SELECT count(*) FROM terms) AS term_count
    ),
    frequency AS MATERIALIZED (
        SELECT t.ord, t.lexeme, t.query,
               (SELECT count(*) FROM candidates c WHERE c.search_vector @@ t.query) AS n,
               (SELECT count(*) FROM candidates c WHERE c.in_walk AND c.search_vector @@ t.query) AS n_walk
        FROM terms t
    ),
    idf AS MATERIALIZED ({idf_sql}),
    rough AS MATERIALIZED (
        SELECT c.id, c.changed_at, c.search_vector, length(c.search_vector)::float8 AS dl, held.idf, held.terms
        FROM candidates c CROSS JOIN LATERAL (
            SELECT sum(i.idf) AS idf, count(*) AS terms FROM idf i WHERE c.search_vector @@ i.query) held
    ),
    shortlist AS MATERIALIZED (
        SELECT r.*, r.terms = stats.term_count AS every_term FROM rough r CROSS JOIN stats
        ORDER BY r.terms = stats.term_count DESC,
                 r.idf / (1 + {K1} * (1 - {B} + {B} * r.dl / stats.average_length))
                 + CASE WHEN r.changed_at >= %(span_start)s AND r.changed_at < %(span_end)s THEN {DATE_BONUS} ELSE 0 END
                 DESC, r.changed_at DESC, r.id DESC
        LIMIT %(shortlist)s
    ),
    best AS (
        SELECT s.id, s.changed_at, s.every_term, s.search_vector, (
                   SELECT sum(i.idf * f.tf * {K1 + 1} / (f.tf + {K1} * (1 - {B} + {B} * s.dl / stats.average_length)))
                   FROM q, unnest(ts_filter(s.search_vector, q.weights)) u
                   JOIN idf i ON i.lexeme = u.lexeme CROSS JOIN LATERAL (
                       SELECT coalesce(cardinality(u.positions), 1) AS tf) f
               ) / greatest((SELECT sum(idf) FROM idf), 1e-9) AS score
        FROM shortlist s CROSS JOIN stats
    )
    SELECT best.id, best.score, best.changed_at, best.every_term, stats.walked,
           (SELECT array_agg(lexeme ORDER BY ord) FROM frequency),
           (SELECT array_agg(n_walk ORDER BY ord) FROM frequency),
           (SELECT as_written FROM settings),
           tsvector_to_array(ts_filter(best.search_vector, (SELECT weights FROM q))){_COUNTER if counter else ""}
    FROM stats LEFT JOIN best ON true
    ORDER BY best.every_term DESC,
             best.score + CASE WHEN best.changed_at >= %(span_start)s AND best.changed_at < %(span_end)s
                               THEN {DATE_BONUS} ELSE 0 END DESC,
             best.changed_at DESC, best.id DESC
    LIMIT %(limit)s
    """


# The walk alone: document frequencies and the number of facts are the walk's (exact on a server of that size).
_WALK_SQL = _scoring_sql(
    "SELECT r.id, r.changed_at, r.search_vector, true AS in_walk FROM recent r WHERE r.search_vector IS NOT NULL",
    """SELECT f.ord, f.lexeme, f.query, ln(1 + (stats.walked - f.n + 0.5) / (f.n + 0.5)) AS idf
       FROM frequency f CROSS JOIN stats""",
    counter=True,
)
# The older facts holding a rare term, through the GIN index, newest first: a statement of its own, with the server
# and the rare terms written in as literals, so it is planned for them. A prepared statement's generic plan, with a
# tsquery it cannot see, walked the newest-first index of a million-fact server for a word no fact holds (250 ms);
# planned for the terms, the GIN index hands over their few facts (MATERIALIZED, so the planner cannot walk the
# newest-first index in hope of the LIMIT), and a large server's own word index, which names the server, is used.
# A small statement, cheap to plan every time (the scoring statement, planned anew, cost 4-5 ms).
_OLDER_MATCHES_SQL = f"""
    WITH matches AS MATERIALIZED (
        SELECT id, changed_at FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL AND {visible_sql("memory_fact")}
          AND search_vector @@ {{rare_query}}::tsquery
        LIMIT %(gin_read)s
    )
    SELECT id FROM matches ORDER BY changed_at DESC, id DESC LIMIT %(budget)s
"""
# The walk and those older facts, scored together. A rare term's frequency is counted over what was read (every fact
# holding it, while under GIN_READ); a common one's is the walk's, scaled to the server's size, %(facts)s.
_WALK_AND_RARE_SQL = _scoring_sql(
    f"""SELECT r.id, r.changed_at, r.search_vector, true AS in_walk FROM recent r WHERE r.search_vector IS NOT NULL
        UNION ALL
        SELECT f.id, f.changed_at, f.search_vector, false FROM memory_fact f
        WHERE f.id = ANY(%(older)s) AND f.id NOT IN (SELECT id FROM recent)
          AND f.retracted_at IS NULL AND {visible_sql("f")}""",
    """SELECT f.ord, f.lexeme, f.query, ln(1 + greatest(%(facts)s - d.n + 0.5, 0.5) / (d.n + 0.5)) AS idf
       FROM frequency f CROSS JOIN stats CROSS JOIN LATERAL (
           SELECT CASE WHEN f.ord = ANY(%(rare)s) THEN f.n::float8
                       ELSE f.n_walk::float8 * %(facts)s / greatest(stats.walked, 1) END AS n) d""",
)


# The scoring statements' LIMITs written in (whole numbers: the walk, the terms, the shortlist and the answer; a few
# values in all), the statements compacted. A statement run a fifth time is prepared (config/settings/base.py), and
# PostgreSQL keeps one generic plan for it only if that plan looks no dearer than those it made for the values
# given: with the LIMITs bound it guessed a tenth of the server's facts for the walk, and planned the statement anew
# on every search (1 ms of planning for 2 of work, bench/context.py search.words.1m). Compacted, they also stay
# under psycopg's 4,096-byte cache of converted statements (config.rows.compact_sql), which they were over.
_LIMITS = ("walk", "max_terms", "shortlist", "limit")


@lru_cache(maxsize=64)
def _limits_written(sql: str, walk: int, max_terms: int, shortlist: int, limit: int) -> str:
    sql = compact_sql(sql)
    for name, value in zip(_LIMITS, (walk, max_terms, shortlist, limit), strict=True):
        sql = sql.replace(f"%({name})s", str(int(value)))
    return sql


def _scoring(sql: str, params: dict) -> str:
    """A scoring statement for these parameters' LIMITs (_limits_written)."""
    return _limits_written(sql, *(params[name] for name in _LIMITS))


def _older_matches_sql(server_id: int, rare_query: str) -> str:
    """_OLDER_MATCHES_SQL for this server and these rare terms, as literals (a `%` doubled: the driver formats it)."""
    quoted = "'" + rare_query.replace("'", "''").replace("%", "%%") + "'"
    return with_server_literal(_OLDER_MATCHES_SQL, server_id).replace("{rare_query}", quoted)


def numbers_handed_out(cursor, server_id: int) -> int:
    """Numbers handed out so far on the server: an upper bound of its facts in force, from one row."""
    cursor.execute("SELECT last_number FROM memory_factcounter WHERE server_id = %s", [server_id])
    row = cursor.fetchone()
    return row[0] if row else 0


def _span_params(span) -> dict:
    """The half-open timestamps of a date span (memory.text.time_expressions.DateSpan), or a span nothing is in."""
    if span is None:
        return {"span_start": None, "span_end": None}
    zone = timezone.get_current_timezone()
    return {"span_start": datetime.combine(span.start, time.min, zone),
            "span_end": datetime.combine(span.end + timedelta(days=1), time.min, zone)}


def _quoted(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def scored_word_ids(server_id: int, query: str, limit: int = SEARCH_RESULT_LIMIT, *, reader: Reader,
                    span=None) -> list[Scored]:
    """The `limit` best facts for `query` by words that the reader may see, every term first, then by score (plus
    DATE_BONUS for a fact dated in `span`, a DateSpan the query's time expression named; its words are not
    searched for, words_query)."""
    query = words_query(query, span)[:MAX_QUERY_CHARACTERS]
    if not query.strip():
        return []
    params = {"server": server_id, "query": query, "max_terms": MAX_TERMS, "walk": FIRST_WALK, "limit": limit,
              "shortlist": max(SHORTLIST_PER_RESULT * limit, SHORTLIST_MIN),
              **_span_params(span), **reader.params}
    with connection.cursor() as cursor:
        cursor.execute(_scoring(_WALK_SQL, params), params)
        rows = cursor.fetchall()
        walked, terms, walk_frequencies, as_written = rows[0][4:8]
        if terms and walked >= FIRST_WALK:
            facts = rows[0][9] or 0  # numbers_handed_out, read by the walk's statement (one round trip fewer)
            found_in_walk = sum(row[0] is not None for row in rows)
            # Too few found to fill the answer: every term is rare enough that its older facts are worth reading.
            rare_at_most = max(walk_frequencies) if found_in_walk < limit else RARE_IN_WALK
            rare = [ord_ for ord_, frequency in enumerate(walk_frequencies, start=1) if frequency <= rare_at_most]
            if rare and facts > walked:
                rare_query = " | ".join(_quoted(terms[ord_ - 1]) + (":CD" if as_written else ":AB") for ord_ in rare)
                cursor.execute(_older_matches_sql(server_id, rare_query), {**reader.params, "gin_read": GIN_READ,
                                                                            "budget": GIN_BUDGET})
                older = [row[0] for row in cursor.fetchall()]
                if older:
                    cursor.execute(_scoring(_WALK_AND_RARE_SQL, params),
                                   {**params, "facts": facts, "rare": rare, "older": older})
                    rows = cursor.fetchall()
    return [Scored(row[0], float(row[1]), row[2], row[3], frozenset(row[8])) for row in rows if row[0] is not None]


def words_query(text: str, span) -> str:
    """What the words search looks for: `text` without the time expression it names a span with ("what happened
    last month" is a date preference, not a search for "month"), unless nothing would be left ("friday")."""
    if span is None or not span.phrase:
        return text
    rest = text.replace(span.phrase, " ", 1)
    return rest if any(character.isalnum() for character in rest) else text


def search_word_ids(server_id: int, query: str, limit: int = SEARCH_RESULT_LIMIT, *, reader: Reader,
                    span=None) -> list[int]:
    """Ids of scored_word_ids, best first (ranking needs their places, not their text)."""
    return [found.id for found in scored_word_ids(server_id, query, limit, reader=reader, span=span)]
