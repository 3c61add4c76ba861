"""What the context, the search and the API show of a fact, read by hand-written SQL: these run for every message
the bot sees (config/rows.py says why)."""

from __future__ import annotations

from django.db import connection

from config.rows import columns
from memory.models import Fact

from .audience import Reader, visible_sql

# What the context and the API show of a fact; loading only these keeps building the context cheap.
# author_kind: the memory block quotes an instruction-like note only when the bot learned it (memory.bot.prompt);
# audience and source_channel_id: the API says who may see each fact it hands over; changed_at dates each line and
# orders the block, and the API says it with the fact's kind.
CONTEXT_FIELDS = ("id", "server_id", "number", "key", "content", "scope", "member_id", "author_kind", "confidence",
                  "changed_at", "audience", "source_channel_id", "kind")


CONTEXT_COLUMNS = columns(Fact, "f", CONTEXT_FIELDS)


def facts_from_rows(rows) -> list[Fact]:
    return [CONTEXT_COLUMNS.instance(row) for row in rows]


# The facts of a search's ids that are the server's, in force and visible to the reader: an id that slipped in from
# anywhere else (another server, a retraction since, another channel's fact) is left out by the statement itself.
# server_id::int keeps every (server, ...) index out of it: a generic plan walked a million-fact server's
# fact_newest entries for the ids (45-118 ms, bench/many.py) instead of ten primary-key lookups.
_FACTS_BY_ID_SQL = f"""
    SELECT {CONTEXT_COLUMNS.sql} FROM memory_fact f
    WHERE f.id = ANY(%(ids)s) AND f.server_id::int = %(server)s AND f.retracted_at IS NULL AND {visible_sql("f")}
"""


def facts_in_order(server_id: int, ids: list[int], reader: Reader) -> list[Fact]:
    """The facts of `ids` in that order, those of the server in force that the reader may see."""
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_FACTS_BY_ID_SQL, {"ids": ids, "server": server_id, **reader.params})
        by_pk = {fact.pk: fact for fact in facts_from_rows(cursor.fetchall())}
    return [by_pk[pk] for pk in ids if pk in by_pk]


def newest_facts_from_json(arrays: list) -> list[Fact]:
    return CONTEXT_COLUMNS.instances_from_json(arrays)


def changed_iso(fact: Fact) -> str:
    """When the fact last changed, in ISO 8601 (UTC): formatted once per fact, for its line's date (the first ten
    characters) and the API's changed_at."""
    text = fact.__dict__.get("changed_iso")
    if text is None:
        text = fact.__dict__["changed_iso"] = fact.changed_at.isoformat()
    return text
