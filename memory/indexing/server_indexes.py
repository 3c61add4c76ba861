"""A large server gets indexes of its own: a word index (GIN) and a vector index (HNSW).

The shared indexes (fact_search, migration 0012; fact_embedding_hnsw, migration 0009) hold every server's
rows. A search of one server reads the others' entries as it goes: the GIN index hands over every match
of every server, to be read from the table and dropped; the HNSW graph walks the other servers'
vectors and drops those candidates. On a server beside a much larger one that is most of the work.
Measured on the bench (bench/semantic.py, bench/context.py: a 100k-fact server beside a million-fact one):
- vectors: nearest_fact_ids p50 66 ms and recall@10 0.936 through the shared index; 4 ms and 1.000
  through its own (built in 61 s on two cores, ef_construction 128);
- words: the GIN read of the words search, see WORDS below.

So once a server holds SERVER_INDEX_MIN_ROWS rows of a kind, a worker builds a partial index
`WHERE server_id = N` for it. The statements that read it name the server as a literal (the words search's read of
rare words, memory.retrieval.words; the ranking's statements, memory.retrieval.ranking.walk), so the planner picks
the smaller index for that server by itself; a statement with the server as a bound parameter uses the shared one. The build
runs CONCURRENTLY, so facts keep being written and searched (through the shared index) meanwhile; one
build per server and kind at a time (an advisory lock). Small servers stay on the shared word index, and
their nearest facts are found exactly, without a graph (memory.retrieval.meaning.nearest_fact_ids).
The beat task memory.tasks.maintain_server_indexes (every 10 minutes) builds what is missing, rebuilds a
build that died half way (PostgreSQL leaves it INVALID) and drops the indexes of servers gone or empty.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

SERVER_INDEX_MIN_ROWS = 20_000
VECTOR_EF_CONSTRUCTION = 128
VECTOR_M = 16


@dataclass(frozen=True)
class IndexKind:
    name: str
    prefix: str  # index name = prefix + server id
    table: str
    method: str  # what follows USING
    lock_class: int  # first key of the build's advisory lock (the second is the server id)


VECTORS = IndexKind(
    "vectors", "fact_embedding_hnsw_s", "memory_factembedding",
    f"hnsw (vector vector_cosine_ops) WITH (m = {VECTOR_M}, ef_construction = {VECTOR_EF_CONSTRUCTION})",
    0x4C4B5649,
)
# fastupdate off, as the shared one (migration 0012): no pending list for every search to read.
WORDS = IndexKind("words", "fact_search_s", "memory_fact", "gin (search_vector) WITH (fastupdate = off)", 0x4C4B5749)
KINDS = (WORDS, VECTORS)


def server_index_name(kind: IndexKind, server_id: int) -> str:
    return f"{kind.prefix}{int(server_id)}"


# Whether the index named %(index_name)s is valid (no row: there is none). memory.retrieval.meaning asks it inside
# the nearest search's statement.
INDEX_VALID_SQL = ("SELECT i.indisvalid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
                   " WHERE c.relname = %(index_name)s")


def server_index_state(kind: IndexKind, server_id: int) -> str | None:
    """None when the server has no index of this kind; "valid", or "invalid" (a build died, or runs now)."""
    with connection.cursor() as cursor:
        cursor.execute(INDEX_VALID_SQL, {"index_name": server_index_name(kind, server_id)})
        row = cursor.fetchone()
    if row is None:
        return None
    return "valid" if row[0] else "invalid"


def _rows(kind: IndexKind, server_id: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {kind.table} WHERE server_id = %s", [server_id])
        return cursor.fetchone()[0]


def ensure_server_index(kind: IndexKind, server_id: int) -> bool:
    """Build the server's own index of this kind if it holds enough rows and has none (or an invalid
    one). True when this call built it. Runs outside a transaction (CREATE INDEX CONCURRENTLY)."""
    if server_index_state(kind, server_id) == "valid" or _rows(kind, server_id) < SERVER_INDEX_MIN_ROWS:
        return False
    name = server_index_name(kind, server_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [kind.lock_class, server_id])
        if not cursor.fetchone()[0]:
            return False  # another worker is building it
        try:
            state = server_index_state(kind, server_id)  # again, under the lock: a build may just have ended
            if state == "valid":
                return False
            if state == "invalid":
                cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            started = time.monotonic()
            # set_config, not SET: SET takes no bound parameter, and statements are bound server-side.
            cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)",
                           [settings.LOREKEEPER_SERVER_INDEX_BUILD_MEMORY])
            try:
                cursor.execute(f"CREATE INDEX CONCURRENTLY {name} ON {kind.table} USING {kind.method}"
                               f" WHERE server_id = {int(server_id)}")
            finally:
                cursor.execute("RESET maintenance_work_mem")
            logger.info("built %s in %.0f s", name, time.monotonic() - started)
            return True
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [kind.lock_class, server_id])


def ensure_server_indexes(server_id: int) -> list[str]:
    """Every kind of index the server is large enough for; the names built now."""
    return [server_index_name(kind, server_id) for kind in KINDS if ensure_server_index(kind, server_id)]


def server_indexes(kind: IndexKind) -> dict[int, str]:
    """Server id → index name, for every index of this kind in the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname FROM pg_class WHERE relkind = 'i' AND relname LIKE %s",
                       [kind.prefix.replace("_", r"\_") + "%"])
        names = [row[0] for row in cursor.fetchall()]
    return {int(match.group(1)): name for name in names if (match := re.fullmatch(kind.prefix + r"(\d+)", name))}


def servers_needing_an_index() -> list[int]:
    """Servers large enough for an index of some kind they lack (or hold only half built)."""
    needing: set[int] = set()
    with connection.cursor() as cursor:
        # Numbers handed out bound the facts from above: only servers that may be large are counted.
        cursor.execute("SELECT server_id FROM memory_factcounter WHERE last_number >= %s", [SERVER_INDEX_MIN_ROWS])
        maybe_large = [row[0] for row in cursor.fetchall()]
    for kind in KINDS:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT server_id FROM {kind.table} WHERE server_id = ANY(%s)"
                           " GROUP BY server_id HAVING count(*) >= %s", [maybe_large, SERVER_INDEX_MIN_ROWS])
            large = [row[0] for row in cursor.fetchall()]
        needing.update(server_id for server_id in large if server_index_state(kind, server_id) != "valid")
    return sorted(needing)


def drop_unneeded_server_indexes() -> list[str]:
    """Drop the indexes of servers that are gone or hold no row of that kind any more (a wipe)."""
    dropped = []
    for kind in KINDS:
        existing = server_indexes(kind)
        if not existing:
            continue
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT s.id FROM teams_server s WHERE s.id = ANY(%s)"
                           f" AND EXISTS (SELECT 1 FROM {kind.table} r WHERE r.server_id = s.id)", [list(existing)])
            still_needed = {row[0] for row in cursor.fetchall()}
            for server_id, name in sorted(existing.items()):
                if server_id not in still_needed:
                    cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
                    dropped.append(name)
    return dropped
