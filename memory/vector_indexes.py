"""A server with many vectors gets an HNSW graph of its own.

The shared index (fact_embedding_hnsw, migration 0009) holds every server's vectors. A search filtered to
one server walks that graph and drops the other servers' candidates as it goes, so on a server that holds
a tenth of the vectors it reads about ten candidates per result, and the graph's neighbours are mostly
somebody else's. Measured on the bench (a 98,000-vector server beside a million-vector one,
bench/semantic.py): nearest_fact_ids p50 66 ms and recall@10 0.936 through the shared index; 4 ms and
1.000 through its own (built in 61 s on two cores).

So once a server holds SERVER_INDEX_MIN_VECTORS vectors, a worker builds a partial index
`WHERE server_id = N` for it, with a denser graph (ef_construction SERVER_INDEX_EF_CONSTRUCTION). The
nearest-fact query names the server as a literal (Django binds parameters on the client), so the planner
picks that smaller index for that server by itself; the query does not change. The build runs
CONCURRENTLY, so facts keep being written and searched (through the shared index) while it runs, and
only one build per server runs at a time (an advisory lock). Small servers stay on the shared index.
The sweeper (memory.tasks.sweep_embeddings, every 10 minutes) builds what is missing, rebuilds a build
that died half way (PostgreSQL leaves it INVALID) and drops the index of a server that is gone or empty.
"""

from __future__ import annotations

import logging
import re
import time

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

SERVER_INDEX_MIN_VECTORS = 20_000
SERVER_INDEX_EF_CONSTRUCTION = 128
SERVER_INDEX_M = 16
_PREFIX = "fact_embedding_hnsw_s"
# Advisory lock key space of these builds (the second key is the server id).
_LOCK_CLASS = 0x4C4B5649  # "LKVI"


def server_index_name(server_id: int) -> str:
    return f"{_PREFIX}{int(server_id)}"


def server_index_state(server_id: int) -> str | None:
    """None when the server has no index of its own; "valid", or "invalid" (a build that died or is running)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT i.indisvalid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
                       " WHERE c.relname = %s", [server_index_name(server_id)])
        row = cursor.fetchone()
    if row is None:
        return None
    return "valid" if row[0] else "invalid"


def _vector_count(server_id: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory_factembedding WHERE server_id = %s", [server_id])
        return cursor.fetchone()[0]


def ensure_server_index(server_id: int) -> bool:
    """Build the server's own index if it holds enough vectors and has none (or an invalid one).
    True when this call built it. Must run outside a transaction (CREATE INDEX CONCURRENTLY)."""
    if server_index_state(server_id) == "valid" or _vector_count(server_id) < SERVER_INDEX_MIN_VECTORS:
        return False
    name = server_index_name(server_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_CLASS, server_id])
        if not cursor.fetchone()[0]:
            return False  # another worker is building it
        try:
            # Checked again under the lock: the build that held it may have just finished.
            state = server_index_state(server_id)
            if state == "valid":
                return False
            if state == "invalid":
                cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            started = time.monotonic()
            cursor.execute("SET maintenance_work_mem = %s", [settings.LOREKEEPER_VECTOR_INDEX_BUILD_MEMORY])
            try:
                cursor.execute(
                    f"CREATE INDEX CONCURRENTLY {name} ON memory_factembedding"
                    f" USING hnsw (vector vector_cosine_ops)"
                    f" WITH (m = {SERVER_INDEX_M}, ef_construction = {SERVER_INDEX_EF_CONSTRUCTION})"
                    f" WHERE server_id = {int(server_id)}"
                )
            finally:
                cursor.execute("RESET maintenance_work_mem")
            logger.info("built %s in %.0f s", name, time.monotonic() - started)
            return True
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_LOCK_CLASS, server_id])


def server_indexes() -> dict[int, str]:
    """Server id → index name, for every server index in the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname FROM pg_class WHERE relkind = 'i' AND relname LIKE %s",
                       [_PREFIX.replace("_", r"\_") + "%"])
        names = [row[0] for row in cursor.fetchall()]
    return {int(match.group(1)): name for name in names if (match := re.fullmatch(_PREFIX + r"(\d+)", name))}


def servers_needing_an_index() -> list[int]:
    """Servers holding SERVER_INDEX_MIN_VECTORS vectors or more without a valid index of their own."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT server_id FROM memory_factembedding GROUP BY server_id HAVING count(*) >= %s",
                       [SERVER_INDEX_MIN_VECTORS])
        large = [row[0] for row in cursor.fetchall()]
    return [server_id for server_id in large if server_index_state(server_id) != "valid"]


def drop_unneeded_server_indexes() -> list[str]:
    """Drop the indexes of servers that are gone or hold no vector any more (a wipe); names dropped."""
    dropped = []
    existing = server_indexes()
    if not existing:
        return dropped
    with connection.cursor() as cursor:
        cursor.execute("SELECT s.id FROM teams_server s WHERE s.id = ANY(%s)"
                       " AND EXISTS (SELECT 1 FROM memory_factembedding e WHERE e.server_id = s.id)",
                       [list(existing)])
        still_needed = {row[0] for row in cursor.fetchall()}
        for server_id, name in existing.items():
            if server_id not in still_needed:
                cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
                dropped.append(name)
    return dropped
