"""What the context, the search and the API show of a fact, read by hand-written SQL: these run for every message
the bot sees (config/rows.py says why)."""

from __future__ import annotations

from django.db import connection

from config.rows import columns
from memory.models import Fact

# What the context and the API show of a fact; loading only these keeps building the context cheap.
# author_kind: the memory block quotes an instruction-like note only when the bot learned it (memory.bot.prompt).
CONTEXT_FIELDS = ("id", "server_id", "number", "key", "content", "scope", "member_id", "author_kind", "confidence",
                  "changed_at")


CONTEXT_COLUMNS = columns(Fact, "f", CONTEXT_FIELDS)


def facts_from_rows(rows) -> list[Fact]:
    return [CONTEXT_COLUMNS.instance(row) for row in rows]


def facts_in_order(ids: list[int]) -> list[Fact]:
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {CONTEXT_COLUMNS.sql} FROM memory_fact f WHERE f.id = ANY(%s)", [ids])
        by_pk = {fact.pk: fact for fact in facts_from_rows(cursor.fetchall())}
    return [by_pk[pk] for pk in ids if pk in by_pk]


def newest_facts_from_json(arrays: list) -> list[Fact]:
    return CONTEXT_COLUMNS.instances_from_json(arrays)
