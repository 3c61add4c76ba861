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

from django.db import connection
from django.utils import timezone

from memory.models import AISettings

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
# the walk is about a millisecond; a rare word's GIN read about GIN_BUDGET table rows at most (bench/context.py,
# search.words.1m).
FIRST_WALK = 2000
RARE_IN_WALK = 2
GIN_BUDGET = 200
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
    """The server's words language (English before its settings exist)."""
    row = AISettings.objects.filter(server_id=server_id).values_list(
        "words_language", "words_config", "words_rebuild_started_at").first()
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
        SELECT t.lexeme, t.ord FROM settings,
            unnest(tsvector_to_array(to_tsvector(settings.cfg, lk_search_text(settings.cfg, %(query)s))))
            WITH ORDINALITY AS t(lexeme, ord)
        ORDER BY t.ord LIMIT %(max_terms)s
    ),
    q AS (
        SELECT string_agg(quote_literal(lexeme) || CASE WHEN as_written THEN ':CD' ELSE ':AB' END, ' | ')::tsquery
                   AS any_term,
               CASE WHEN as_written THEN '{c,d}' ELSE '{a,b}' END::"char"[] AS weights
        FROM terms, settings GROUP BY as_written
    )"""
# The newest FIRST_WALK facts in force the reader may see, from the covering index alone.
_RECENT_SQL = f"""
    recent AS MATERIALIZED (
        SELECT id, changed_at, search_vector FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL AND {visible_sql("memory_fact")}
        ORDER BY changed_at DESC, id DESC LIMIT %(walk)s
    )"""


def _scoring_sql(candidates_sql: str, idf_sql: str, more_ctes: str = "") -> str:
    """BM25 of the candidates (id, changed_at, search_vector) for the query's terms, best first (every term first);
    `idf_sql` yields (ord, idf) per term from `hits` (id, ord, tf) and `stats`; `more_ctes` come before the
    candidates."""
    return f"""
    WITH {_TERMS_SQL}, {_RECENT_SQL},{more_ctes}
    candidates AS MATERIALIZED ({candidates_sql}),
    postings AS (
        SELECT c.id, u.lexeme, coalesce(cardinality(u.positions), 1) AS tf
        FROM candidates c, q, unnest(ts_filter(c.search_vector, q.weights)) u
    ),
    lengths AS (SELECT id, sum(tf)::float8 AS dl FROM postings GROUP BY id),
    hits AS (SELECT p.id, t.ord, p.tf FROM postings p JOIN terms t USING (lexeme)),
    stats AS (
        SELECT (SELECT count(*) FROM recent) AS walked, (SELECT coalesce(avg(dl), 1) FROM lengths) AS average_length,
               (SELECT count(*) FROM terms) AS term_count
    ),
    idf AS ({idf_sql}),
    scored AS (
        SELECT h.id, sum(i.idf * h.tf * {K1 + 1} / (h.tf + {K1} * (1 - {B} + {B} * l.dl / stats.average_length)))
                   / greatest((SELECT sum(idf) FROM idf), 1e-9) AS score,
               count(*) = max(stats.term_count) AS every_term
        FROM hits h JOIN idf i USING (ord) JOIN lengths l USING (id) CROSS JOIN stats GROUP BY h.id
    ),
    best AS (
        SELECT s.id, s.score, c.changed_at, s.every_term, c.search_vector FROM scored s JOIN candidates c USING (id)
        ORDER BY s.every_term DESC,
                 s.score + CASE WHEN c.changed_at >= %(span_start)s AND c.changed_at < %(span_end)s
                                THEN {DATE_BONUS} ELSE 0 END DESC,
                 c.changed_at DESC, s.id DESC
        LIMIT %(limit)s
    )
    SELECT best.id, best.score, best.changed_at, best.every_term, stats.walked,
           (SELECT array_agg(t.lexeme ORDER BY t.ord) FROM terms t),
           (SELECT array_agg(coalesce(d.n, 0) ORDER BY t.ord) FROM terms t
                LEFT JOIN (SELECT ord, count(*) AS n FROM hits WHERE id IN (SELECT id FROM recent) GROUP BY ord) d
                USING (ord)),
           (SELECT as_written FROM settings),
           tsvector_to_array(ts_filter(best.search_vector, (SELECT weights FROM q)))
    FROM stats LEFT JOIN best ON true
    ORDER BY best.every_term DESC,
             best.score + CASE WHEN best.changed_at >= %(span_start)s AND best.changed_at < %(span_end)s
                               THEN {DATE_BONUS} ELSE 0 END DESC,
             best.changed_at DESC, best.id DESC
    """


# The walk alone: document frequencies and the number of facts are the walk's (exact on a server of that size).
_WALK_SQL = _scoring_sql(
    "SELECT r.id, r.changed_at, r.search_vector FROM recent r, q WHERE r.search_vector @@ q.any_term",
    """SELECT t.ord, ln(1 + (stats.walked - coalesce(d.n, 0) + 0.5) / (coalesce(d.n, 0) + 0.5)) AS idf
       FROM terms t CROSS JOIN stats LEFT JOIN (SELECT ord, count(*) AS n FROM hits GROUP BY ord) d USING (ord)""",
)
# The walk and, through the GIN index, the older facts holding a rare term (MATERIALIZED: the planner must not walk
# the newest-first index in hope of the LIMIT, a million entries for a rare word). A rare term's frequency is
# counted over what was read (every fact holding it, while under GIN_BUDGET); a common one's is the walk's, scaled
# to the server's size, %(facts)s.
_WALK_AND_RARE_SQL = _scoring_sql(
    """SELECT r.id, r.changed_at, r.search_vector FROM recent r, q WHERE r.search_vector @@ q.any_term
        UNION ALL
        SELECT id, changed_at, search_vector FROM (
            SELECT id, changed_at, search_vector FROM older_matches WHERE id NOT IN (SELECT id FROM recent)
            ORDER BY changed_at DESC, id DESC LIMIT %(budget)s
        ) older""",
    """SELECT t.ord, ln(1 + greatest(%(facts)s - d.n + 0.5, 0.5) / (d.n + 0.5)) AS idf
       FROM terms t JOIN (
           SELECT t.ord, CASE WHEN t.ord = ANY(%(rare)s) THEN coalesce(counted.n, 0)
                              ELSE coalesce(walked.n, 0)::float8 * %(facts)s / greatest(stats.walked, 1) END AS n
           FROM terms t CROSS JOIN stats
           LEFT JOIN (SELECT ord, count(*) AS n FROM hits GROUP BY ord) counted USING (ord)
           LEFT JOIN (SELECT ord, count(*) AS n FROM hits WHERE id IN (SELECT id FROM recent) GROUP BY ord) walked
               USING (ord)
       ) d USING (ord)""",
    f"""
    older_matches AS MATERIALIZED (
        SELECT id, changed_at, search_vector FROM memory_fact
        WHERE server_id = %(server)s AND retracted_at IS NULL AND {visible_sql("memory_fact")}
          AND search_vector @@ %(rare_query)s::tsquery
        LIMIT %(gin_read)s
    ),""",
)


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
    DATE_BONUS for a fact dated in `span`, a DateSpan the query's time expression named)."""
    query = query[:MAX_QUERY_CHARACTERS]
    if not query.strip():
        return []
    params = {"server": server_id, "query": query, "max_terms": MAX_TERMS, "walk": FIRST_WALK, "limit": limit,
              **_span_params(span), **reader.params}
    with connection.cursor() as cursor:
        cursor.execute(_WALK_SQL, params)
        rows = cursor.fetchall()
        walked, terms, walk_frequencies, as_written = rows[0][4:8]
        if terms and walked >= FIRST_WALK:
            facts = numbers_handed_out(cursor, server_id)
            found_in_walk = sum(row[0] is not None for row in rows)
            # Too few found to fill the answer: every term is rare enough that its older facts are worth reading.
            rare_at_most = max(walk_frequencies) if found_in_walk < limit else RARE_IN_WALK
            rare = [ord_ for ord_, frequency in enumerate(walk_frequencies, start=1) if frequency <= rare_at_most]
            if rare and facts > walked:
                cursor.execute(_WALK_AND_RARE_SQL, {
                    **params, "facts": facts, "rare": rare, "budget": GIN_BUDGET, "gin_read": GIN_READ,
                    "rare_query": " | ".join(_quoted(terms[ord_ - 1]) + (":CD" if as_written else ":AB") for ord_ in rare)})
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
