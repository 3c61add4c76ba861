"""The nearest facts in meaning: a vector search over the server's fact vectors, exact on a small server and through
an HNSW index (the server's own, or the shared one) on a large one. Whether meaning may be used at all is the
indexing side's answer (memory.indexing.catchup.meaning_for: the vectors of the current model are complete). Only facts
the reader may see are found: the audience is tested in the same statement as the vector order."""

from __future__ import annotations

from django.db import connection, transaction

from memory.indexing import server_indexes

from .audience import Reader, visible_sql
from .scored import Scored

# Each ranking contributes its first RESULT_DEPTH facts to the fusion (memory.retrieval.fusion).
RESULT_DEPTH = 30
# Candidates the HNSW search keeps while it walks the graph. Measured at a million vectors on the server's
# own index (bench/semantic.py, 200 queries): recall@10 0.959 at 100, 0.979 at 200, 0.989 at 400;
# nearest-fact p95 7.7, 10.7 and 18.7 ms. 200 keeps a margin above 0.95 for a few milliseconds.
HNSW_EF_SEARCH = 200


# The filtered HNSW search: the index scan hands over the server's vectors nearest first, each joined to its fact,
# and only facts in force that the reader may see (retracted, another channel's and staff facts are left out) count
# towards the LIMIT. With hnsw.iterative_scan the scan goes on past its first ef_search candidates until enough
# have passed, so a filter never leaves fewer than `limit` while the server has them. The order is relaxed: only a
# later batch of the scan may hold a nearer vector than the last of the one before. Sorting every candidate again
# by `distance + 0` (pgvector's README) would read all 2 x limit of them each time, a fifth more time at a million
# vectors for the same recall; so the outer sort takes the scan's order as it comes and stops at `limit`, as the
# search did before the audience. bench/semantic.py EXPLAINs this statement.
NEAREST_SQL = f"""
    WITH nearest AS MATERIALIZED (
        SELECT e.fact_id, e.vector <=> %(vector)s::vector AS distance, f.changed_at
        FROM memory_factembedding e JOIN memory_fact f ON f.id = e.fact_id
        WHERE e.server_id = %(server)s AND e.model_name = %(model)s AND f.retracted_at IS NULL AND {visible_sql("f")}
        ORDER BY e.vector <=> %(vector)s::vector LIMIT %(candidates)s
    )
    SELECT fact_id, distance, changed_at FROM nearest ORDER BY distance, fact_id LIMIT %(limit)s
"""


def nearest_params(server_id: int, model_name: str, vector: list[float], limit: int, reader: Reader) -> dict:
    return {"vector": "[" + ",".join(f"{value:.7g}" for value in vector) + "]", "server": server_id,
            "model": model_name, "candidates": limit * 2, "limit": limit, **reader.params}


def set_hnsw_search(cursor) -> None:
    """Inside a transaction: iterative scans, so the server filter never leaves fewer than `limit`."""
    # set_config(..., true) is SET LOCAL; unlike SET it takes bound parameters; both in one round trip.
    cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                   " set_config('hnsw.ef_search', %s, true)", [str(HNSW_EF_SEARCH)])


# A server below the size at which it gets a graph of its own (memory/indexing/server_indexes.py) is searched
# exactly: its vectors, read through the (server, model) index, every distance computed. The shared graph
# filtered to a small server mostly walks other servers' vectors — each result costs a thousand skipped
# candidates beside a million-vector server, and the iterative scan may stop before it finds them all —
# while reading a few thousand vectors costs a few milliseconds and is exact.
#
# Which way is chosen in the same statement, cheapest test first: fewer numbers handed out than a graph
# needs rows (one row: the usual small server); its own valid graph (one catalog lookup); else fewer
# vectors than that (at most SERVER_INDEX_MIN_ROWS index entries: a server whose facts were mostly wiped,
# or, the other way, a large one whose graph is still being built, which goes through the shared graph).
#
# Only the nearest `candidates` vectors are looked up in memory_fact (are they in force, may the reader see
# them?): checking every vector cost 2.6 of the 4.4 ms at 972 vectors. When retracted facts or facts the
# reader may not see leave fewer than `limit`, the search runs again over every vector (LIMIT NULL), so the
# answer is always exact.
EXACT_NEAREST_SQL = f"""
    WITH exact AS (
        SELECT CASE
            WHEN COALESCE((SELECT last_number FROM memory_factcounter WHERE server_id = %(server)s), 0)
                 < %(graph_rows)s THEN true
            WHEN ({server_indexes.INDEX_VALID_SQL}) THEN false
            ELSE NOT EXISTS (SELECT 1 FROM memory_factembedding
                             WHERE server_id = %(server)s AND model_name = %(model)s OFFSET %(graph_rows)s - 1)
        END AS chosen
    ), mine AS MATERIALIZED (
        SELECT e.fact_id, e.vector <=> %(vector)s::vector AS distance FROM memory_factembedding e
        WHERE (SELECT chosen FROM exact) AND e.server_id = %(server)s AND e.model_name = %(model)s
        ORDER BY distance, e.fact_id LIMIT %(candidates)s
    ), kept AS (
        SELECT mine.fact_id, mine.distance, f.changed_at FROM mine
        JOIN memory_fact f ON f.id = mine.fact_id AND f.retracted_at IS NULL AND {visible_sql("f")}
        ORDER BY mine.distance, mine.fact_id LIMIT %(limit)s
    )
    SELECT (SELECT chosen FROM exact), (SELECT count(*) FROM mine),
           (SELECT array_agg(fact_id ORDER BY distance, fact_id) FROM kept),
           (SELECT array_agg(distance ORDER BY distance, fact_id) FROM kept),
           (SELECT array_agg(changed_at ORDER BY distance, fact_id) FROM kept)
"""


def _exact_nearest(cursor, params: dict) -> list[Scored] | None:
    """The exact answer, or None when the server is searched through a graph."""
    choice = {"graph_rows": server_indexes.SERVER_INDEX_MIN_ROWS,
              "index_name": server_indexes.server_index_name(server_indexes.VECTORS, params["server"])}
    cursor.execute(EXACT_NEAREST_SQL, params | choice)
    chosen, candidates_read, fact_ids, distances, changed = cursor.fetchone()
    if not chosen:
        return None
    found = _scored(zip(fact_ids or [], distances or [], changed or [], strict=True))
    more_may_lie_beyond = params["candidates"] is not None and candidates_read == params["candidates"]
    if len(found) < params["limit"] and more_may_lie_beyond:
        return _exact_nearest(cursor, params | {"candidates": None})  # facts left out took their places
    return found


def _scored(rows) -> list[Scored]:
    """(fact id, cosine distance, changed_at) rows as Scored, the score a cosine similarity."""
    return [Scored(fact_id, 1.0 - float(distance), changed_at) for fact_id, distance, changed_at in rows]


def nearest_fact_ids(server_id: int, model_name: str, vector: list[float], limit: int = RESULT_DEPTH, *,
                     reader: Reader) -> list[int]:
    """Ids of nearest_facts, nearest first."""
    return [found.id for found in nearest_facts(server_id, model_name, vector, limit, reader=reader)]


def nearest_facts(server_id: int, model_name: str, vector: list[float], limit: int = RESULT_DEPTH, *,
                  reader: Reader) -> list[Scored]:
    """Facts in force the reader may see closest in meaning, nearest first: exactly on a server without a graph
    of its own and below the size that earns one; otherwise through the HNSW index filtered by server (its own,
    or the shared one while its own is being built), fact and audience in the same statement, with pgvector's
    iterative scan so the filter never leaves fewer than `limit` results."""
    params = nearest_params(server_id, model_name, vector, limit, reader)
    with connection.cursor() as cursor:
        exact = _exact_nearest(cursor, params)
    if exact is not None:
        return exact
    with transaction.atomic(), connection.cursor() as cursor:
        set_hnsw_search(cursor)
        cursor.execute(NEAREST_SQL, params)
        return _scored(cursor.fetchall())
